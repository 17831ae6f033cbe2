package io.ridgeline.engine.sweep;

import io.ridgeline.engine.evaluation.GridRows;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.workload.ModelCatalog;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The software stack of a phase: a workload axis, its default, and what it sets in the plans. */
class SoftwareAxisTest {
    private static final SweepLoader LOADER = new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled());

    private static String training(String phaseExtra, String parallelismExtra) {
        return String.join("\n", "name: s", "models: [gpt3-175b]",
                "phases: [{phase: training, seq_len: [2048], global_batch: [1536]" + phaseExtra + "}]",
                "hardware: {presets: [a100-80g]}", "cluster: {gpu_count: [1024]}",
                "parallelism: {mode: explicit, plans: [{tp: 8, pp: 8}]" + parallelismExtra + "}", "");
    }

    private static String only(String yaml) {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> LOADER.parse("s.yaml", yaml));
        assertEquals(1, e.errors().size(), e.getMessage());
        return e.errors().get(0).message();
    }


    @Test
    void trainingDefaultsToTheCurrentProfileWithTheFlagsSweepsHadBefore() {
        SweepSpec s = LOADER.parse("s.yaml", training("", ""));
        assertEquals("megatron-bridge@25.11", s.workloads().get(0).software());
        assertEquals("megatron-bridge@25.11 (default)", s.describeSoftware());
        ResultRow r = GridRows.of(s).get(0);
        assertEquals("megatron-bridge@25.11", r.text(ResultRow.Text.SOFTWARE));
        TrainingPlan plan = (TrainingPlan) r.plan();
        // Earlier sweeps defaulted to overlap_grad: true and flash_attention: true; the default profile is both.
        assertTrue(plan.overlapGrad() && plan.flashAttention(), plan.toString());
    }

    @Test
    void aListOfStacksIsAnAxisAndEachSetsItsOwnMechanisms() {
        SweepSpec s = LOADER.parse("s.yaml", training(", software: [megatron-lm@2021, megatron-bridge@25.11]", ""));
        assertEquals(2, s.grid().size());
        assertEquals("megatron-lm@2021, megatron-bridge@25.11 (default)", s.describeSoftware());
        List<ResultRow> rows = GridRows.of(s);
        TrainingPlan old = (TrainingPlan) rows.get(0).plan();
        TrainingPlan current = (TrainingPlan) rows.get(1).plan();
        assertEquals("megatron-lm@2021", rows.get(0).text(ResultRow.Text.SOFTWARE));
        assertTrue(!old.overlapGrad() && !old.flashAttention(), old.toString());
        assertTrue(current.overlapGrad() && current.flashAttention(), current.toString());
        assertNotEquals(rows.get(0).metric(Metric.STEP_TIME_S), rows.get(1).metric(Metric.STEP_TIME_S));
    }

    @Test
    void anAliasReadsAsItsStackId() {
        SweepSpec s = LOADER.parse("s.yaml", training(", software: megatron-lm@2021", ""));
        assertEquals("megatron-lm@2021", s.workloads().get(0).software());
    }

    @Test
    void theKeysTheStackReplacedNameSoftware() {
        assertEquals("s.yaml:6:56: parallelism.overlap_grad: expected the phase's software stack instead "
                + "(phases[].software, catalog/stacks.yaml: its grad_reduce_overlap; default megatron-bridge@25.11), "
                + "found 'overlap_grad'", only(training("", ", overlap_grad: false")));
        assertEquals("s.yaml:6:56: parallelism.flash_attention: expected the phase's software stack instead "
                + "(phases[].software, catalog/stacks.yaml: its attention kernel; default megatron-bridge@25.11), "
                + "found 'flash_attention'", only(training("", ", flash_attention: false")));
    }

    @Test
    void aTrainingPhaseNeedsAStackThatTrains() {
        String m = only(training(", software: [vllm]", ""));
        assertTrue(m.startsWith("s.yaml:3:78: phases[0].software[0]: expected a stack that trains (a training section "
                + "in catalog/stacks.yaml): one of [deepspeed@2021, "), m);
        assertTrue(m.endsWith("], found 'vllm'"), m);
    }

    @Test
    void anInferencePhaseNeedsAStackThatServes() {
        String m = only(inference(", software: megatron-bridge@25.11"));
        assertTrue(m.startsWith("s.yaml:3:93: phases[0].software: expected a stack that serves (a serving section in "
                + "catalog/stacks.yaml): one of [nemo-inference@2023, "), m);
        assertTrue(m.endsWith("], found 'megatron-bridge@25.11'"), m);
    }

    @Test
    void anUnknownStackSuggestsTheClosest() {
        String m = only(training(", software: megatron-bridge@25.1", ""));
        assertTrue(m.endsWith("(did you mean 'megatron-bridge@25.11'?), found 'megatron-bridge@25.1'"), m);
    }

    private static String inference(String extra) {
        return String.join("\n", "name: s", "models: [llama2-7b]",
                "phases: [{phase: inference, batch: [1], input_tokens: [128], output_tokens: [16]" + extra + "}]",
                "hardware: {presets: [h100-sxm]}", "cluster: {gpu_count: [1]}", "parallelism: {tp: [1], pp: [1]}",
                "");
    }

    @Test
    void inferenceWithoutAStackUsesTheEngineConstantsAndAServingStackSetsCudaGraphs() {
        SweepSpec none = LOADER.parse("s.yaml", inference(", software: none"));
        assertEquals("", none.workloads().get(0).software());
        assertEquals("none", none.describeSoftware());
        assertNull(GridRows.of(none).get(0).text(ResultRow.Text.SOFTWARE));
        SweepSpec vllm = LOADER.parse("s.yaml", inference(", software: vllm"));
        assertTrue(vllm.workloads().get(0).cudaGraphs(), "vLLM decodes under CUDA graphs by default");
        assertEquals("vllm", GridRows.of(vllm).get(0).text(ResultRow.Text.SOFTWARE));
        assertTrue(GridRows.of(vllm).get(0).metric(Metric.TPOT_S) < GridRows.of(none).get(0).metric(Metric.TPOT_S));
    }

    @Test
    void cudaGraphsBesideAServingStackIsAnError() {
        assertEquals("s.yaml:3:112: phases[0].cuda_graphs: expected no cuda_graphs beside a serving stack (each "
                + "stack's profile says whether decode runs as CUDA graphs; software: none takes cuda_graphs), found "
                + "true",
                only(inference(", software: vllm, cuda_graphs: true")));
    }

    @Test
    void bothPhasesPrintTheirStacks() {
        String yaml = String.join("\n", "name: s", "models: [llama2-7b]",
                "phases: [{phase: training, seq_len: [2048], global_batch: [64]},",
                "         {phase: inference, batch: [1], input_tokens: [128], output_tokens: [16]}]",
                "hardware: {presets: [h100-sxm]}", "cluster: {gpu_count: [8]}", "parallelism: {tp: [1], pp: [1]}",
                "");
        assertEquals("training megatron-bridge@25.11 (default); inference trt-llm@1.0 (default)",
                LOADER.parse("s.yaml", yaml).describeSoftware());
    }
}
