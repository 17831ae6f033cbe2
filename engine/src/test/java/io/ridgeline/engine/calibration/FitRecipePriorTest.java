package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.InvalidInputException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The prior range a recipe constant states, which a fold that cannot identify it uses ({@link FitUncertainty}). */
class FitRecipePriorTest {
    private static String recipe(String prior) {
        return """
                fits:
                  - id: host
                    description: host time per kernel
                    cases:
                      files: [validation/cases-dev-vtrain.csv]
                    parameters:
                      stacks.megatron-lm@2021.training.host_us_per_kernel:
                        start: 20
                        start_source: "assumption"
                        digits: 2
                """ + prior;
    }

    @Test
    void aStatedPriorRangeIsKeptWithItsSource() {
        FitRecipe.RecipeParameter p = FitRecipe.parse("test", recipe("""
                        prior: [5, 50]
                        prior_source: "published dispatch costs"
                """)).entries().get(0).parameters().get(0);
        assertEquals(5, p.priorLow(), 0);
        assertEquals(50, p.priorHigh(), 0);
        assertEquals("published dispatch costs", p.priorSource());
    }

    @Test
    void withoutAPriorTheParametersBoundsAreTheRange() {
        FitRecipe.RecipeParameter p = FitRecipe.parse("test", recipe("")).entries().get(0).parameters().get(0);
        ParameterKind kind = ParameterRegistry.kindOf(p.path());
        assertEquals(kind.lower(), p.priorLow(), 0);
        assertEquals(kind.upper(), p.priorHigh(), 0);
    }

    @Test
    void aRangeOutsideTheBoundsOrUpsideDownIsAnError() {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> FitRecipe.parse("test", recipe("""
                        prior: [50, 5]
                        prior_source: "x"
                """)));
        assertTrue(e.getMessage().contains("prior"), e.getMessage());
        assertThrows(InvalidInputException.class, () -> FitRecipe.parse("test", recipe("""
                        prior: [0, 5000]
                        prior_source: "x"
                """)));
        assertThrows(InvalidInputException.class, () -> FitRecipe.parse("test", recipe("""
                        prior: [5, 50]
                """)));
    }

    @Test
    void everyShippedStartLiesInsideItsPriorRange() {
        for (FitRecipe.Entry e : FitRecipe.bundled().entries()) {
            for (FitRecipe.RecipeParameter p : e.parameters()) {
                assertTrue(p.priorLow() < p.start() && p.start() < p.priorHigh(),
                        p.path() + ": the start value lies inside its prior range");
            }
        }
    }
}
