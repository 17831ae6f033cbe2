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
        SweepSpec t = SweepLoader.load(dir.resolve("technology.yaml"));
        assertEquals(24, t.derived().size());
        assertEquals(26, t.chips().size());
    }

    @Test
    void reportsSyntaxErrorsWithTheParserPosition() {
        assertEquals("t.yaml:3:7: (syntax): expected valid YAML, found while parsing a flow sequence",
                only("name: t\nmodels: [gpt3-175b\nphases: x\n"));
    }

    @Test
    void suggestsTheClosestKeyForAMisspeltKey() {
        assertEquals("t.yaml:2:1: modles: expected a known key: one of [cluster, constraints, description, frontier, "
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

    @Test
    void saysTheInferencePhaseIsNotAvailableYet() {
        assertEquals("t.yaml:4:12: phases[0].phase: expected one of [training] (the inference phase arrives with "
                + "the inference model), found 'inference'", only(VALID.replace("phase: training",
                "phase: inference")));
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
