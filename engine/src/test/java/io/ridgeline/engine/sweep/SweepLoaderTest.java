package io.ridgeline.engine.sweep;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.workload.ModelCatalog;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Each class of malformed sweep file has its own exact message, with file:line:column and the field path. */
class SweepLoaderTest {
    static final String VALID = String.join("\n",
            "name: t",
            "models: [gpt3-175b, llama2-70b]",
            "phases:",
            "  - phase: training",
            "    seq_len: [2048]",
            "    global_batch: [1536]",
            "hardware:",
            "  presets: [a100-80g, h100-sxm]",
            "network:",
            "  scale_out: [default, ndr]",
            "cluster:",
            "  gpu_count: [512, 1024]",
            "parallelism:",
            "  mode: search",
            "  tp: [1, 2, 4, 8]",
            "objectives:",
            "  - max: tokens_per_s",
            "  - min: cost_usd",
            "");

    private final SweepLoader loader = new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled());

    private List<String> errors(String yaml) {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> loader.parse("t.yaml", yaml));
        return e.errors().stream().map(InputError::message).toList();
    }

    private String only(String yaml) {
        List<String> errors = errors(yaml);
        assertEquals(1, errors.size(), errors.toString());
        return errors.get(0);
    }

    @Test
    void readsAValidSweepWithDefaults() {
        SweepSpec s = loader.parse("t.yaml", VALID);
        assertEquals(List.of("gpt3-175b", "llama2-70b"), s.models());
        assertEquals(2 * 2 * 2 * 2, s.grid().size());
        assertEquals(SweepSpec.Keep.BEST, s.parallelism().keep());
        assertEquals(SweepSpec.PointsPolicy.FEASIBLE, s.points());
        assertEquals(List.of(GroupColumn.MODEL, GroupColumn.PHASE, GroupColumn.SEQ_LEN, GroupColumn.GLOBAL_BATCH),
                s.groupBy());
        assertEquals(64, s.specSha256().length());
    }

    @Test
    void readsTheShippedSweeps() {
        Path dir = Path.of(System.getProperty("ridgeline.project.dir", "..")).resolve("sweeps");
        SweepSpec q = SweepLoader.load(dir.resolve("quickstart.yaml"));
        assertEquals("quickstart", q.name());
        SweepSpec i = SweepLoader.load(dir.resolve("inference.yaml"));
        assertEquals(5 * 16 * 4 * 1, i.grid().size());
        SweepLoader.load(dir.resolve("quickstart.yaml"));
        SweepSpec t = SweepLoader.load(dir.resolve("technology.yaml"));
        assertEquals(24, t.derived().size());
        assertEquals(26, t.chips().size());
    }

    @Test
    void reportsSyntaxErrorsWithTheParserPosition() {
        assertEquals("t.yaml:3:7: (syntax): expected valid YAML, found expected ',' or ']', but got : (while parsing a "
                + "flow sequence that starts at line 2, column 9)",
                only("name: t\nmodels: [gpt3-175b\nphases: x\n"));
    }

    @Test
    void suggestsTheClosestKeyForAMisspeltKey() {
        assertEquals("t.yaml:2:1: modles: expected a known key: one of [calibration, cluster, constraints, cost, description, frontier, "
                + "hardware, models, name, network, objectives, output, parallelism, phases] (did you mean "
                + "'models'?), found an unknown key", errors(VALID.replace("models:", "modles:")).get(0));
    }

    @Test
    void namesAMissingRequiredKey() {
        assertEquals("t.yaml:1:1: cluster: expected a mapping with gpu_count, found no 'cluster' key",
                only(VALID.replace("cluster:\n  gpu_count: [512, 1024]\n", "")));
    }

    @Test
    void rejectsAWrongType() {
        assertEquals("t.yaml:12:20: cluster.gpu_count[1]: expected an integer in [1, 16777216], found 'many'",
                only(VALID.replace("[512, 1024]", "[512, many]")));
    }

    @Test
    void rejectsAnOutOfRangeValue() {
        assertEquals("t.yaml:16:10: parallelism.zero[0]: expected an integer in [0, 3], found 5",
                only(VALID.replace("  tp: [1, 2, 4, 8]\n", "  tp: [1, 2, 4, 8]\n  zero: [5]\n")));
    }

    @Test
    void suggestsTheClosestModel() {
        String m = only(VALID.replace("gpt3-175b,", "gpt3-175,"));
        assertEquals(true, m.startsWith("t.yaml:2:10: models[0]: expected one of ["), m);
        assertEquals(true, m.endsWith("] (did you mean 'gpt3-175b'?), found 'gpt3-175'"), m);
    }

    @Test
    void suggestsTheClosestChip() {
        String m = only(VALID.replace("h100-sxm]", "h100-sx]"));
        assertEquals(true, m.startsWith("t.yaml:8:23: hardware.presets[1]: expected one of [a100-40g, a100-80g, "), m);
        assertEquals(true, m.endsWith(" (did you mean 'h100-sxm'?), found 'h100-sx'"), m);
    }

    @Test
    void rejectsAnUnknownNetwork() {
        assertEquals("t.yaml:10:24: network.scale_out[1]: expected one of [default, eth1600, eth400, eth800, hdr, "
                + "ndr, xdr] (did you mean 'ndr'?), found 'ndr2'", only(VALID.replace("ndr]", "ndr2]")));
    }

    @Test
    void suggestsTheClosestObjectiveColumn() {
        String m = only(VALID.replace("max: tokens_per_s", "max: tokens_per_sec"));
        assertEquals(true, m.startsWith("t.yaml:17:10: objectives[0].max: expected one of [activation_bytes, "), m);
        assertEquals(true, m.endsWith("(did you mean 'tokens_per_s'?), found 'tokens_per_sec'"), m);
    }

    @Test
    void rejectsAnUnknownChoice() {
        assertEquals("t.yaml:20:11: output.points: expected one of [all, feasible, none] (did you mean 'all'?), "
                + "found 'al'", only(VALID + "output:\n  points: al\n"));
    }

    @Test
    void rejectsRepeatedAxisValues() {
        assertEquals("t.yaml:12:26: cluster.gpu_count[2]: expected distinct values, found 512 again",
                only(VALID.replace("[512, 1024]", "[512, 1024, 512]")));
    }

    @Test
    void rejectsEmptyAxes() {
        assertEquals("t.yaml:12:14: cluster.gpu_count: expected a non-empty list, found an empty list",
                only(VALID.replace("[512, 1024]", "[]")));
    }

    @Test
    void rejectsSequencesLongerThanAModelsContext() {
        assertEquals("t.yaml:5:15: phases[0].seq_len[0]: expected at most 2048 (max_seq_len of gpt3-175b), "
                + "found 4096", only(VALID.replace("[2048]", "[4096]")));
    }

    static final String INFERENCE = String.join("\n",
            "name: t",
            "models: [llama2-7b]",
            "phases:",
            "  - phase: inference",
            "    batch: [1, 8]",
            "    input_tokens: [1024]",
            "    output_tokens: [256]",
            "hardware:",
            "  presets: [h100-sxm]",
            "cluster:",
            "  gpu_count: [8]",
            "parallelism:",
            "  tp: [1, 2, 4, 8]",
            "  pp: [1]",
            "");

    @Test
    void readsAnInferencePhase() {
        SweepSpec s = loader.parse("t.yaml", INFERENCE.replace("    output_tokens: [256]\n",
                "    output_tokens: [256]\n    kv_cache_precision: [bf16, fp8]\n    cuda_graphs: [false, true]\n"
                        + "    software: none\n"));
        assertEquals(2 * 2 * 2, s.workloads().size());
        SweepSpec.Workload w = s.workloads().get(0);
        assertEquals(SweepSpec.Phase.INFERENCE, w.phase());
        assertEquals(1024 + 256, w.seqLen());
        assertEquals(1, w.globalBatch());
        assertEquals(1, w.concurrency());
        assertEquals(io.ridgeline.engine.hardware.Precision.BF16, w.weightPrecision());
        assertEquals(List.of(TopologyAxis.NONE), s.topologies());
    }

    @Test
    void rejectsTrainingKeysInAnInferencePhase() {
        assertEquals("t.yaml:6:5: phases[0].seq_len: expected no 'seq_len' in an inference phase (it takes mode, "
                + "batch or concurrency, input_tokens and output_tokens), found 'seq_len'", only(INFERENCE.replace("    batch: [1, 8]\n",
                "    batch: [1, 8]\n    seq_len: [2048]\n")));
    }

    @Test
    void rejectsInferenceKeysInATrainingPhase() {
        assertEquals("t.yaml:7:5: phases[0].batch: expected no 'batch' in a training phase (it takes seq_len and "
                + "global_batch), found 'batch'", only(VALID.replace("    global_batch: [1536]\n",
                "    global_batch: [1536]\n    batch: [8]\n")));
    }

    @Test
    void suggestsTheClosestInferenceKey() {
        assertEquals("t.yaml:7:5: phases[0].output_token: expected a known key: one of [activation_precision, batch, "
                + "concurrency, cuda_graphs, disaggregation, input_tokens, kv_cache_precision, mode, output_tokens, "
                + "phase, requests_per_s, software, weight_precision]"
                + " (did you mean 'output_tokens'?), found an unknown key",
                errors(INFERENCE.replace("output_tokens: [256]", "output_token: [256]")).get(0));
    }

    @Test
    void namesAMissingInferenceBatch() {
        assertEquals("t.yaml:4:5: phases[0].batch: expected a list of static batch sizes (requests), as mode static "
                + "takes, found no 'batch' key", only(INFERENCE.replace("    batch: [1, 8]\n", "")));
    }

    @Test
    void rejectsTf32AsAStorageFormat() {
        assertEquals("t.yaml:8:31: phases[0].kv_cache_precision[1]: expected a storage format, one of [bf16, fp16, "
                + "fp32, fp4, fp8] (tf32 is a math mode), found 'tf32'", only(INFERENCE.replace(
                "    output_tokens: [256]\n", "    output_tokens: [256]\n    kv_cache_precision: [fp8, tf32]\n")));
    }

    @Test
    void rejectsAContextLongerThanTheModels() {
        assertEquals("t.yaml:7:20: phases[0].output_tokens: expected input_tokens + output_tokens at most 4096 "
                + "(max_seq_len of llama2-7b), found 1024 + 3584 = 4608",
                only(INFERENCE.replace("output_tokens: [256]", "output_tokens: [3584]")));
    }

    @Test
    void rejectsAZeroBatch() {
        assertEquals("t.yaml:5:16: phases[0].batch[1]: expected an integer in [1, 1000000], found 0",
                only(INFERENCE.replace("batch: [1, 8]", "batch: [1, 0]")));
    }

    @Test
    void readsTopologiesAndCost() {
        SweepSpec s = loader.parse("t.yaml", withTopology("[none, {kind: fat-tree, oversubscription: 4}, "
                + "{kind: rail-optimized, name: rails}, dragonfly]") + "cost:\n  usd_per_kwh: 0.12\n  tokens: 3.0e11\n");
        assertEquals(List.of("none", "fat-tree-4:1", "rails", "dragonfly"),
                s.topologies().stream().map(TopologyAxis::id).toList());
        assertEquals(2 * 2 * 2 * 4 * 2, s.grid().size());
        assertEquals(0.12, s.cost().parameters().usdPerKwh());
        assertEquals(3.0e11, s.cost().tokens());
        assertEquals(io.ridgeline.engine.cost.TcoParameters.DEFAULT_PUE, s.cost().parameters().pue());
    }

    private static String withTopology(String entry) {
        return VALID.replace("  scale_out: [default, ndr]\n", "  scale_out: [default, ndr]\n  topology: " + entry
                + "\n");
    }

    @Test
    void rejectsAnUnknownTopologyKindListingTheKnownOnes() {
        assertEquals("t.yaml:11:14: network.topology[0]: expected one of [dragonfly, fat-tree, none, rail-optimized, "
                + "ring, torus] (did you mean 'fat-tree'?), found 'fat_tree'", only(withTopology("[fat_tree]")));
    }

    @Test
    void rejectsAKeyOfAnotherTopologyKind() {
        assertEquals("t.yaml:11:27: network.topology[0].tiers: expected a key of a ring topology: one of [kind, link, "
                + "links_per_neighbour, name] ('tiers' belongs to another kind), found an unknown key",
                only(withTopology("[{kind: ring, tiers: 2}]")));
    }

    @Test
    void rejectsAnOversubscriptionBelowOne() {
        assertEquals("t.yaml:11:49: network.topology[0].oversubscription: expected a number in [1, 1024], found 0.5",
                only(withTopology("[{kind: fat-tree, oversubscription: 0.5}]")));
    }

    @Test
    void rejectsATopologyThatCannotConnectTheCluster() {
        assertEquals("t.yaml:11:14: network.topology[0]: expected a fat-tree that can connect 1024 GPUs on hdr "
                + "(fatTree.endpoints: 1 to 800 for 2 tiers of radix 40 (use 3 tiers)), found 1024",
                only(withTopology("[{kind: fat-tree, tiers: 2, oversubscription: 1}]")));
    }

    @Test
    void rejectsAScaleOutRateOverrideBesideAFabric() {
        String yaml = withTopology("[none, fat-tree]").replace("  scale_out: [default, ndr]\n",
                "  scale_out: [default, ndr]\n  scale_out_gbit_s: [100]\n");
        assertEquals("t.yaml:11:21: network.scale_out_gbit_s: expected no per-GPU rate override when network.topology "
                + "names a fabric (its links set the scale-out rate), found an override beside topology 'fat-tree'",
                only(yaml));
        // Without a fabric the override is the axis it always was.
        loader.parse("t.yaml", withTopology("[none]").replace("  scale_out: [default, ndr]\n",
                "  scale_out: [default, ndr]\n  scale_out_gbit_s: [100]\n"));
    }

    @Test
    void rejectsTheSameTopologyTwice() {
        assertEquals("t.yaml:11:24: network.topology[1]: expected distinct values, found 'fat-tree' again",
                only(withTopology("[fat-tree, fat-tree]")));
    }

    @Test
    void rejectsAnInferenceObjectiveInATrainingSweep() {
        assertEquals("t.yaml:18:10: objectives[1].min: expected a column every row of the sweep fills (tpot_s is "
                + "null on training rows), found 'tpot_s'", only(VALID.replace("min: cost_usd", "min: tpot_s")));
    }

    @Test
    void rejectsATrainingConstraintInAnInferenceSweep() {
        assertEquals("t.yaml:15:21: constraints.min.mfu_fraction: expected a column every row of the sweep fills "
                + "(mfu_fraction is null on inference rows), found 'mfu_fraction'",
                only(INFERENCE + "constraints: {min: {mfu_fraction: 0.3}}\n"));
    }

    @Test
    void rejectsRunCostWithoutATokenBudget() {
        assertEquals("t.yaml:18:10: objectives[1].min: expected a column every row of the sweep fills (run_cost_usd "
                + "needs cost.tokens, the tokens of one run), found 'run_cost_usd'",
                only(VALID.replace("min: cost_usd", "min: run_cost_usd")));
        loader.parse("t.yaml", VALID.replace("min: cost_usd", "min: run_cost_usd") + "cost: {tokens: 1.0e9}\n");
    }

    @Test
    void rejectsCostParametersOutOfRange() {
        assertEquals("t.yaml:20:8: cost.pue: expected a number in [1, 10], found 0.9",
                only(VALID + "cost:\n  pue: 0.9\n"));
    }

    @Test
    void suggestsTheClosestCostKey() {
        assertEquals("t.yaml:20:3: cost.usd_per_kw: expected a known key: one of [amortization_years, "
                + "availability_fraction, interconnect_fraction, load_fraction, pue, server_overhead_factor, "
                + "server_power_factor, tokens, usd_per_kwh] (did you mean 'usd_per_kwh'?), found an unknown key",
                only(VALID + "cost:\n  usd_per_kw: 0.1\n"));
    }

    @Test
    void expandsDerivedDesignsAndListsTheOnesThatCannotExist() {
        SweepSpec s = loader.parse("t.yaml", VALID.replace("  presets: [a100-80g, h100-sxm]\n",
                "  presets: [h100-sxm]\n  derived:\n    - {name: study, node: [5nm, 3nm], dies: 2, die_area_mm2: 800,"
                        + " power_w: [1000, 60], dram: hbm3e, stacks: 8}\n"));
        assertEquals(List.of("h100-sxm", "study-blackwell-5nm-2x800mm2-1000w-hbm3ex8",
                "study-blackwell-3nm-2x800mm2-1000w-hbm3ex8"), s.chips());
        assertEquals(2, s.unbuildable().size(), s.unbuildable().toString());
        assertEquals(true, s.unbuildable().get(0).startsWith("study-blackwell-5nm-2x800mm2-60w-hbm3ex8: "
                + "chip.powerBudgetWatts: expected more than the "), s.unbuildable().get(0));
    }

    @Test
    void suggestsTheClosestLogicNodeOfADerivedDesign() {
        assertEquals("t.yaml:10:27: hardware.derived[0].node: expected one of [12nm, 1nm, 2nm, 3nm, 5nm, 7nm] "
                + "(did you mean '3nm'?), found '3n'", only(VALID.replace("  presets: [a100-80g, h100-sxm]\n",
                "  presets: [h100-sxm]\n  derived:\n    - {name: study, node: 3n, die_area_mm2: 800, power_w: 1000,"
                        + " dram: hbm3e, stacks: 8}\n")));
    }

    @Test
    void rejectsSearchListsInExplicitMode() {
        assertEquals("t.yaml:16:7: parallelism.tp: expected no search list in explicit mode (put tp inside each of "
                + "parallelism.plans), found a list", only(VALID.replace("mode: search",
                "mode: explicit\n  plans: [{tp: 8, pp: 8}]")));
    }

    @Test
    void rejectsDuplicateKeys() {
        assertEquals("t.yaml:2:1: name: expected each key once (first at line 1), found a duplicate key 'name'",
                only("name: t\n" + VALID));
    }

    @Test
    void rejectsTheSamePlanTwice() {
        assertEquals("t.yaml:15:20: parallelism.plans[1]: expected distinct values, found a mapping again",
                only(VALID.replace("mode: search\n  tp: [1, 2, 4, 8]", "mode: explicit\n  plans: [{tp: 8}, {tp: 8}]")));
    }

    @Test
    void rejectsTheSameObjectiveTwice() {
        assertEquals("t.yaml:18:5: objectives[1]: expected each column once (objectives[0] already uses it), "
                + "found 'tokens_per_s' again", only(VALID.replace("min: cost_usd", "min: tokens_per_s")));
    }

    @Test
    void rejectsNamesThatCannotBeRunIds() {
        assertEquals("t.yaml:1:7: name: expected a lower-case name of letters, digits, '.', '_' or '-' (it becomes "
                + "part of run ids), found 'My Sweep'", only(VALID.replace("name: t", "name: My Sweep")));
    }

    @Test
    void reportsAMissingFile() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> SweepLoader.load(Path.of("no/such.yaml")));
        assertEquals("no/such.yaml: (file): expected an existing sweep file, found no such file", e.getMessage());
    }

    @Test
    void reportsEveryErrorAtOnceInFileOrder() {
        List<String> errors = errors(VALID.replace("h100-sxm]", "h100-sx]").replace("[512, 1024]", "[0, 1024]")
                .replace("max: tokens_per_s", "max: tokens"));
        assertEquals(3, errors.size(), errors.toString());
        assertEquals(true, errors.get(0).startsWith("t.yaml:8:"), errors.toString());
        assertEquals("t.yaml:12:15: cluster.gpu_count[0]: expected an integer in [1, 16777216], found 0",
                errors.get(1));
        assertEquals(true, errors.get(2).startsWith("t.yaml:17:10: objectives[0].max"), errors.toString());
    }

    @Test
    void readsJsonToo() {
        SweepSpec s = loader.parse("t.json", "{\"name\": \"j\", \"models\": [\"llama2-7b\"], \"phases\": [{\"phase\": "
                + "\"training\", \"seq_len\": 4096, \"global_batch\": 1024}], \"hardware\": {\"presets\": "
                + "[\"h100-sxm\"]}, \"cluster\": {\"gpu_count\": [64]}, \"parallelism\": {\"mode\": \"explicit\", "
                + "\"plans\": [{\"tp\": 8}]}}");
        assertEquals(1, s.grid().size());
        assertEquals(8, s.parallelism().plans().get(0).tp());
    }
}
