package io.ridgeline.engine.fit;

import io.ridgeline.engine.validation.CaseOutcome;
import io.ridgeline.engine.validation.Validator;
import io.ridgeline.engine.spec.CsvTable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Training accuracy per file and framework version: rows, scored, infeasible, unsupported, mean |error|, mean signed
 * error and max |error| of the scored rows; with {@code --rows} every training row with its layout and outcome.
 *
 * <p>Usage (scripts/training-report): {@code [--rows] CASE_FILE...}.
 */
public final class TrainingReport {
    private TrainingReport() {
    }

    public static void main(String[] args) {
        boolean rows = false;
        List<Path> files = new ArrayList<>();
        for (String a : args) {
            if (a.equals("--rows")) {
                rows = true;
            } else {
                files.add(Path.of(a));
            }
        }
        Validator validator = new Validator();
        for (Path f : files) {
            Map<String, CsvTable.Row> byId = new HashMap<>();
            List<Path> one = List.of(f);
            for (CsvTable.Row r : CsvTable.read(f).rows()) {
                if (r.string("phase").equals("training")) {
                    byId.put(r.string("case_id"), r);
                }
            }
            Map<String, List<CaseOutcome>> groups = new TreeMap<>();
            List<CaseOutcome> all = new ArrayList<>();
            for (CaseOutcome o : validator.run(one)) {
                CsvTable.Row r = byId.get(o.caseId());
                if (r == null) {
                    continue;
                }
                groups.computeIfAbsent(r.stringOr("framework", ""), k -> new ArrayList<>()).add(o);
                all.add(o);
                if (rows) {
                    System.out.printf(Locale.ROOT, "%-22s %-24s %-22s %-6s %-5s n%-5s t%s p%s c%s e%s v%s z%s "
                                    + "gb%s mb%s s%s %-11s %8.0f %8.0f %+7.1f%% %s %s%n",
                            o.caseId(), r.stringOr("framework", ""), trim(r.stringOr("model", ""), 22),
                            r.stringOr("gpu", ""), r.stringOr("precision", "-"), r.stringOr("num_gpus", ""),
                            r.stringOr("tp", ""), r.stringOr("pp", ""), r.stringOr("cp", ""), r.stringOr("ep", ""),
                            r.stringOr("vpp", ""), r.stringOr("zero", ""), r.stringOr("global_batch", ""),
                            r.stringOr("micro_batch", ""), r.stringOr("seq_len", ""), o.status(), o.predicted(),
                            o.measured(), o.errorPct(), o.reason(), o.note().isEmpty() ? "" : "[" + trim(o.note(), 60)
                                    + "]");
                }
            }
            System.out.println("== " + f.getFileName());
            for (Map.Entry<String, List<CaseOutcome>> e : groups.entrySet()) {
                print(e.getKey(), e.getValue());
            }
            print("all", all);
        }
    }

    private static void print(String key, List<CaseOutcome> outcomes) {
        int n = 0;
        int infeasible = 0;
        int unsupported = 0;
        double abs = 0;
        double signed = 0;
        double max = 0;
        for (CaseOutcome o : outcomes) {
            switch (o.status()) {
                case "ok" -> {
                    n++;
                    abs += Math.abs(o.errorPct());
                    signed += o.errorPct();
                    max = Math.max(max, Math.abs(o.errorPct()));
                }
                case "infeasible" -> infeasible++;
                default -> unsupported++;
            }
        }
        System.out.printf(Locale.ROOT, "%-26s rows %4d scored %4d infeasible %3d unsupported %3d mean|e| %6.2f%% "
                        + "signed %+7.2f%% max %6.1f%%%n", key, outcomes.size(), n, infeasible, unsupported,
                n == 0 ? Double.NaN : abs / n, n == 0 ? Double.NaN : signed / n, max);
    }

    private static String trim(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n);
    }
}
