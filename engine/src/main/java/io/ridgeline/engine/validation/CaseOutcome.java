package io.ridgeline.engine.validation;

/**
 * One case scored: {@code status} is ok, unsupported (the engine cannot express it; {@code reason} says why) or
 * infeasible (the engine says the configuration cannot run, e.g. out of memory, while it did run).
 *
 * @param errorPct signed relative error (predicted - measured) / measured x 100; NaN when nothing was predicted
 * @param note     how the engine read the row where it went beyond its columns ("framework x -> profile y (nearest
 *                 catalogued version)", "architecture completed from catalogued model z (...)"); "" otherwise
 */
public record CaseOutcome(String caseId, String file, String source, String phase, String metric, String gpu,
                          String status, double predicted, double measured, double errorPct, String reason,
                          String note) {

    public CaseOutcome(String caseId, String file, String source, String phase, String metric, String gpu,
                       String status, double predicted, double measured, double errorPct, String reason) {
        this(caseId, file, source, phase, metric, gpu, status, predicted, measured, errorPct, reason, "");
    }

    /** The same outcome with a note on how the row was read. */
    public CaseOutcome withNote(String n) {
        return new CaseOutcome(caseId, file, source, phase, metric, gpu, status, predicted, measured, errorPct, reason,
                n == null ? "" : n);
    }

    public static CaseOutcome ok(CaseKey k, double predicted, double measured) {
        return new CaseOutcome(k.caseId(), k.file(), k.source(), k.phase(), k.metric(), k.gpu(), "ok", predicted,
                measured, (predicted - measured) / measured * 100, "");
    }

    public static CaseOutcome unsupported(CaseKey k, double measured, String reason) {
        return new CaseOutcome(k.caseId(), k.file(), k.source(), k.phase(), k.metric(), k.gpu(), "unsupported",
                Double.NaN, measured, Double.NaN, reason);
    }

    /**
     * The engine says the configuration cannot run although it did: a memory-model miss worth seeing. The time the
     * engine computed anyway is kept in {@code predicted} (NaN when there is none), outside the ok statistics.
     */
    public static CaseOutcome infeasible(CaseKey k, double predicted, double measured, String reason) {
        double error = Double.isFinite(predicted) ? (predicted - measured) / measured * 100 : Double.NaN;
        return new CaseOutcome(k.caseId(), k.file(), k.source(), k.phase(), k.metric(), k.gpu(), "infeasible",
                predicted, measured, error, reason);
    }

    public boolean isOk() {
        return status.equals("ok");
    }

    /** The identifying fields of a case row. */
    public record CaseKey(String caseId, String file, String source, String phase, String metric, String gpu) {
    }
}
