package io.ridgeline.jobs.report;

import java.util.List;
import java.util.Map;

/**
 * The workbook's computed columns: header with unit, number format, what each means and its Excel text over one row.
 * They are {@link io.ridgeline.engine.cost.TcoModel} and {@code sweep.CostColumns} cell for cell: the interconnect
 * share of capex, or a priced fabric's capex and switch power spread over the cluster's GPUs. Training rows are also
 * priced per step, serving rows per request.
 */
public final class TcoFormulas {
    /** Which rows a formula applies to. */
    public enum Rows { ALL, TRAINING, INFERENCE }

    /** One computed column. {@code text} returns null where the row has no such cell (no fabric, other phase). */
    record Formula(String header, String format, String meaning, Rows rows, FormulaText text) {
    }

    @FunctionalInterface
    interface FormulaText {
        String at(RowRefs r);
    }

    /**
     * Cell references of one data row: its data columns, its chip's and fabric's Assumptions cells (fabric null
     * without a priced topology) and its own formula cells. Phase columns are null where the table lacks them.
     */
    record RowRefs(String gpus, String stepS, String tokensPerS, String e2eS, String dp, String batch, String price,
                   String tdp, String fabricUsd, String switchW, Map<String, String> own) {
        String f(String header) {
            String ref = own.get(header);
            if (ref == null) {
                throw new IllegalStateException("formula column used before it is defined: " + header);
            }
            return ref;
        }
    }

    private TcoFormulas() {
    }

    private static String a(TcoAssumption x) {
        return TcoWorkbook.ASSUMPTIONS + "!$B$" + (TcoWorkbook.FIRST_ASSUMPTION_ROW + x.ordinal());
    }

    public static final String CHIP_PRICE = "chip_price_usd [USD/GPU]";
    public static final String TDP = "chip_tdp_w [W/GPU]";
    public static final String FABRIC = "fabric_capex_usd [USD]";
    public static final String NETWORK = "network_usd_per_gpu [USD/GPU]";
    public static final String CAPEX = "capex_usd_per_gpu [USD/GPU]";
    public static final String CAPEX_HOUR = "capex_usd_per_gpu_hour [USD/GPU-h]";
    public static final String WALL_W = "wall_power_w_per_gpu [W/GPU]";
    public static final String ENERGY_HOUR = "energy_usd_per_gpu_hour [USD/GPU-h]";
    public static final String GPU_HOUR = "usd_per_gpu_hour [USD/GPU-h]";
    public static final String CLUSTER_CAPEX = "cluster_capex_usd [USD]";
    public static final String STEP = "usd_per_step [USD]";
    public static final String ENERGY_STEP = "energy_usd_per_step [USD]";
    public static final String REQUEST = "usd_per_request [USD]";
    public static final String MTOK = "usd_per_million_tokens [USD/Mtoken]";
    public static final String WALL_J = "wall_energy_per_token_j [J]";
    public static final String RUN_DAYS = "run_days [days]";
    public static final String RUN = "usd_per_run [USD]";
    public static final String ENERGY_RUN = "energy_usd_per_run [USD]";

    static final List<Formula> ALL = List.of(
            new Formula(CHIP_PRICE, "#,##0", "the chip's price on the Assumptions sheet", Rows.ALL, r -> r.price()),
            new Formula(TDP, "#,##0", "the chip's TDP on the Assumptions sheet", Rows.ALL, r -> r.tdp()),
            new Formula(FABRIC, "#,##0", "the row's fabric on the Assumptions sheet (priced topologies only)",
                    Rows.ALL, r -> r.fabricUsd()),
            // TcoModel.gpuHour: network = server x f / (1 - f), or the priced fabric's capex / gpu_count
            new Formula(NETWORK, "#,##0", "fabric capex / gpu_count, else price x server overhead x interconnect "
                    + "share / (1 - interconnect share)", Rows.ALL, r -> r.fabricUsd() != null
                    ? r.f(FABRIC) + "/" + r.gpus() : r.f(CHIP_PRICE) + "*" + a(TcoAssumption.SERVER_OVERHEAD) + "*"
                    + a(TcoAssumption.INTERCONNECT_SHARE) + "/(1-" + a(TcoAssumption.INTERCONNECT_SHARE) + ")"),
            new Formula(CAPEX, "#,##0", "price x server overhead + network per GPU", Rows.ALL,
                    r -> r.f(CHIP_PRICE) + "*" + a(TcoAssumption.SERVER_OVERHEAD) + "+" + r.f(NETWORK)),
            new Formula(CAPEX_HOUR, "#,##0.000", "capex / (amortization years x hours per year)", Rows.ALL,
                    r -> r.f(CAPEX) + "/(" + a(TcoAssumption.AMORTIZATION_YEARS) + "*"
                            + a(TcoAssumption.HOURS_PER_YEAR) + ")"),
            // TcoModel: TDP x server factor x load x PUE, plus the fabric's switch power per GPU x load x PUE
            new Formula(WALL_W, "#,##0", "(TDP x server power factor + fabric switch power / gpu_count) x load x PUE",
                    Rows.ALL, r -> "(" + r.f(TDP) + "*" + a(TcoAssumption.SERVER_POWER)
                    + (r.switchW() != null ? "+" + r.switchW() + "/" + r.gpus() : "") + ")*" + a(TcoAssumption.LOAD)
                    + "*" + a(TcoAssumption.PUE)),
            new Formula(ENERGY_HOUR, "#,##0.000", "wall power / 1000 x electricity price", Rows.ALL,
                    r -> r.f(WALL_W) + "/1000*" + a(TcoAssumption.USD_PER_KWH)),
            new Formula(GPU_HOUR, "#,##0.000", "(capex per hour + energy per hour) / availability", Rows.ALL,
                    r -> "(" + r.f(CAPEX_HOUR) + "+" + r.f(ENERGY_HOUR) + ")/" + a(TcoAssumption.AVAILABILITY)),
            new Formula(CLUSTER_CAPEX, "#,##0", "capex per GPU x gpu_count", Rows.ALL,
                    r -> r.f(CAPEX) + "*" + r.gpus()),
            new Formula(STEP, "#,##0.00", "USD per GPU-hour x gpu_count x step_time_s / 3600", Rows.TRAINING,
                    r -> r.f(GPU_HOUR) + "*" + r.gpus() + "*" + r.stepS() + "/3600"),
            new Formula(ENERGY_STEP, "#,##0.00", "the electricity part of usd_per_step", Rows.TRAINING,
                    r -> r.f(ENERGY_HOUR) + "/" + a(TcoAssumption.AVAILABILITY) + "*" + r.gpus() + "*" + r.stepS()
                            + "/3600"),
            // Every GPU of the cluster is charged (CostColumns); dp replicas each finish a static batch per e2e.
            new Formula(REQUEST, "#,##0.000000", "USD per GPU-hour x gpu_count x e2e_latency_s / 3600 / (dp x "
                    + "global_batch): one request of the static batch", Rows.INFERENCE,
                    r -> r.f(GPU_HOUR) + "*" + r.gpus() + "*" + r.e2eS() + "/3600/(" + r.dp() + "*" + r.batch()
                            + ")"),
            new Formula(MTOK, "#,##0.000", "USD per GPU-hour x gpu_count / 3600 / tokens_per_s x 1e6 (trained "
                    + "tokens, or generated tokens when serving)", Rows.ALL,
                    r -> r.f(GPU_HOUR) + "*" + r.gpus() + "/3600/" + r.tokensPerS() + "*1000000"),
            new Formula(WALL_J, "#,##0.00", "wall power per GPU x gpu_count / tokens_per_s", Rows.ALL,
                    r -> r.f(WALL_W) + "*" + r.gpus() + "/" + r.tokensPerS()),
            new Formula(RUN_DAYS, "#,##0.0", "tokens per run / tokens_per_s / availability / 86400", Rows.ALL,
                    r -> a(TcoAssumption.RUN_TOKENS) + "/" + r.tokensPerS() + "/" + a(TcoAssumption.AVAILABILITY)
                            + "/86400"),
            new Formula(RUN, "#,##0", "USD per million tokens x tokens per run / 1e6", Rows.ALL,
                    r -> r.f(MTOK) + "*" + a(TcoAssumption.RUN_TOKENS) + "/1000000"),
            new Formula(ENERGY_RUN, "#,##0", "the electricity part of usd_per_run", Rows.ALL,
                    r -> r.f(ENERGY_HOUR) + "/" + a(TcoAssumption.AVAILABILITY) + "*" + r.gpus() + "*"
                            + a(TcoAssumption.RUN_TOKENS) + "/" + r.tokensPerS() + "/3600"));

    /** The formulas for a table with these phases, in sheet order. */
    static List<Formula> forPhases(boolean training, boolean inference) {
        return ALL.stream().filter(f -> f.rows() == Rows.ALL || (f.rows() == Rows.TRAINING && training)
                || (f.rows() == Rows.INFERENCE && inference)).toList();
    }

    /** Headers of the formula columns for a table with these phases, in sheet order. */
    public static List<String> headers(boolean training, boolean inference) {
        return forPhases(training, inference).stream().map(Formula::header).toList();
    }
}
