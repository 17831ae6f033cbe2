package io.ridgeline.engine.training;

import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ModelFlopsTest {

    @ParameterizedTest
    @ValueSource(strings = {"megatron-22b", "megatron-175b", "megatron-530b", "megatron-1t", "gpt3-175b"})
    void gptModelFlopsMatchKorthikantiEquation7(String name) {
        ModelSpec m = ModelCatalog.bundled().model(name);
        long batch = 64;
        int s = 2048;
        double l = m.layers();
        double h = m.hidden();
        double v = m.vocab();
        // Korthikanti et al. 2022 App. A eq. 7
        double expected = 72 * batch * s * l * h * h * (1 + s / (6 * h) + v / (12 * l * h));
        // The catalogue counts K/V/Q/O and MLP weights exactly; eq. 7 ignores biases and norms, as we do.
        assertEquals(expected, ModelFlops.perStep(m, s, batch), expected * 1e-9);
    }
}
