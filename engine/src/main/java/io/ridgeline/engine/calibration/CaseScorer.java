package io.ridgeline.engine.calibration;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.validation.CaseOutcome;
import io.ridgeline.engine.validation.Validator;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Scores case rows with the validation code ({@link Validator}) on a given set of catalogues, fast enough for a fit:
 * files are read once; one validator (and its per-system engine caches) serves every case of one catalogue set; and
 * {@link #predictChanged} re-scores only the cases whose inputs differ between two catalogue sets. A case depends on
 * the catalogues through three records only: its chip (with the chip's family constants), its scale-out network and
 * its software stack; a case none of whose three changed keeps its prediction. Not thread-safe.
 */
public final class CaseScorer {
    private final List<MeasuredCase> cases;
    /** Per case: chip id, network id, stack id the prediction reads ("" when the catalogues do not know it). */
    private final String[][] dependencies;
    private Catalogs lastCatalogs;
    private Validator lastValidator;
    private long scored;

    private CaseScorer(List<MeasuredCase> cases) {
        this.cases = Collections.unmodifiableList(cases);
        this.dependencies = new String[cases.size()][];
        Catalogs base = Catalogs.bundled();
        for (int i = 0; i < cases.size(); i++) {
            dependencies[i] = dependencies(cases.get(i), base.hardware(), base.stacks());
        }
    }

    /** Reads every row of the files (validation/README.md format). */
    public static CaseScorer read(List<Path> files) {
        List<MeasuredCase> out = new ArrayList<>();
        for (Path f : files) {
            CsvTable t = CsvTable.read(f);
            t.requireColumns(Validator.columns().toArray(new String[0]));
            String name = f.getFileName().toString();
            for (CsvTable.Row r : t.rows()) {
                out.add(MeasuredCase.of(out.size(), name, r));
            }
        }
        return new CaseScorer(out);
    }

    public List<MeasuredCase> cases() {
        return cases;
    }

    /** Cases scored so far (a measure of a fit's work). */
    public long scoredCount() {
        return scored;
    }

    /** The indices of the cases a selection keeps, in file order. */
    public int[] select(CaseSelection selection) {
        return cases.stream().filter(selection::matches).mapToInt(MeasuredCase::index).toArray();
    }

    /** The outcome of one case on a set of catalogues. */
    public CaseOutcome outcome(Catalogs catalogs, int caseIndex) {
        MeasuredCase c = cases.get(caseIndex);
        scored++;
        return validator(catalogs).score(c.file(), c.row());
    }

    /** Predictions of the given cases (NaN where the engine predicts nothing), whatever their status. */
    public void predict(Catalogs catalogs, int[] caseIndices, double[] out) {
        Validator v = validator(catalogs);
        for (int j = 0; j < caseIndices.length; j++) {
            MeasuredCase c = cases.get(caseIndices[j]);
            scored++;
            out[j] = v.score(c.file(), c.row()).predicted();
        }
    }

    /**
     * Predictions on {@code candidate}, re-scoring only the cases whose chip, network or stack differs from
     * {@code base}; the others copy {@code basePredictions}.
     *
     * @return how many cases were re-scored
     */
    public int predictChanged(Catalogs base, Catalogs candidate, int[] caseIndices, double[] basePredictions,
                              double[] out) {
        Validator v = validator(candidate);
        int rescored = 0;
        for (int j = 0; j < caseIndices.length; j++) {
            int i = caseIndices[j];
            if (changed(base, candidate, dependencies[i])) {
                MeasuredCase c = cases.get(i);
                scored++;
                rescored++;
                out[j] = v.score(c.file(), c.row()).predicted();
            } else {
                out[j] = basePredictions[j];
            }
        }
        return rescored;
    }

    private Validator validator(Catalogs catalogs) {
        if (catalogs != lastCatalogs) {
            lastValidator = new Validator(catalogs.hardware(), catalogs.stacks());
            lastCatalogs = catalogs;
        }
        return lastValidator;
    }

    private static boolean changed(Catalogs a, Catalogs b, String[] dep) {
        if (a == b) {
            return false;
        }
        HardwareCatalog ha = a.hardware();
        HardwareCatalog hb = b.hardware();
        if (!dep[0].isEmpty() && !ha.chip(dep[0]).equals(hb.chip(dep[0]))) {
            return true;
        }
        if (!dep[1].isEmpty() && !ha.network(dep[1]).equals(hb.network(dep[1]))) {
            return true;
        }
        return !dep[2].isEmpty() && !a.stacks().profile(dep[2]).equals(b.stacks().profile(dep[2]));
    }

    /**
     * What a case's prediction reads from the catalogues: its chip, the chip's reference network (validation
     * {@code CaseMapper}: a case's scale_out_gbps changes the rate, not the network), and the stack its framework
     * resolves to (none when the row names no framework: the Validator then leaves it unscored).
     */
    private static String[] dependencies(MeasuredCase c, HardwareCatalog hardware, StackCatalog stacks) {
        String chip = "";
        String network = "";
        if (hardware.hasChip(c.gpu())) {
            Chip chipRecord = hardware.chip(c.gpu());
            chip = chipRecord.id();
            network = hardware.defaultNetwork(chipRecord).id();
        }
        String stack = "";
        if (!c.framework().isEmpty()) {
            try {
                stack = stacks.resolve(c.framework(), "framework").profile().id();
            } catch (InvalidInputException e) {
                stack = ""; // unscorable either way: the Validator reports the unknown framework
            }
        }
        return new String[]{chip, network, stack};
    }
}
