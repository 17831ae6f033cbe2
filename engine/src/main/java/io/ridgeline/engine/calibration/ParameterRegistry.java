package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;

import java.util.ArrayList;
import java.util.List;

/**
 * Every constant a calibration may fit, declared once. Adding a parameter is one line here, provided its catalogue
 * value is overridable (numeric columns of families.csv and the model columns of scaleout.csv; every numeric value of
 * stacks.yaml). Bounds are physical limits or generous ranges around published values, never fitted themselves; they
 * lie inside what each catalogue accepts.
 */
public final class ParameterRegistry {
    /** The declarations, in the order reports list them. */
    public static final List<ParameterKind> KINDS = List.of(
            new ParameterKind("families", "gemm_peak_fraction", "fraction",
                    "sustained fraction of the dense tensor peak a large, well-tiled GEMM reaches", 0.30, 1.0, true),
            new ParameterKind("families", "gemm_low_precision_fraction", "fraction",
                    "as gemm_peak_fraction for FP8 GEMMs, of the dense FP8 peak", 0.30, 1.0, true),
            new ParameterKind("families", "dram_fraction", "fraction",
                    "sustained (STREAM) DRAM bandwidth over the datasheet bandwidth", 0.30, 1.0, true),
            new ParameterKind("families", "flash_fraction", "fraction",
                    "fused-attention forward throughput over the dense peak", 0.10, 1.0, true),
            new ParameterKind("families", "fused_attention_fraction", "fraction",
                    "forward throughput of the generation's own fused attention (FlashAttention-3, cuDNN) over the "
                            + "dense 16-bit peak", 0.10, 1.0, true),
            new ParameterKind("families", "kernel_launch_us", "us",
                    "GPU-side fixed cost per kernel (launch and tail)", 0.5, 30, true),
            new ParameterKind("families", "l2_fraction", "fraction",
                    "achievable fraction of the catalogue L2 bandwidth", 0.30, 1.0, false),
            new ParameterKind("families", "tile_overhead_cycles", "cycles",
                    "prologue/epilogue cycles per GEMM output tile", 0, 20000, false),
            new ParameterKind("families", "overlap_exponent", "1",
                    "soft-roofline exponent p: an operator takes (compute^p + memory^p)^(1/p)", 1.0, 10, false),
            new ParameterKind("scaleout", "efficiency", "fraction",
                    "sustained collective bus bandwidth over the network's line rate", 0.30, 1.0, true),
            new ParameterKind("scaleout", "latency_us", "us",
                    "one collective step across the scale-out network", 0.5, 50, false),
            new ParameterKind("stacks", "training.host_us_per_kernel", "us",
                    "host time to dispatch one kernel of the training loop (eager PyTorch)", 1, 200, true),
            new ParameterKind("families", "fp4_gemm_fraction", "fraction",
                    "sustained share of the dense fp4 peak block-scaled NVFP4 GEMMs reach", 0.10, 1.0, false),
            new ParameterKind("stacks", "serving.request_overhead_ms", "ms",
                    "host time per request or runtime call outside the forward passes", 0, 50, false));

    private ParameterRegistry() {
    }

    /** The declared kind of a path, or null. */
    public static ParameterKind kindOf(String path) {
        for (ParameterKind k : KINDS) {
            if (k.entryOf(path) != null) {
                return k;
            }
        }
        return null;
    }

    /**
     * The parameter a path names in these catalogues.
     *
     * @throws InvalidInputException naming {@code source} and {@code field} when the path matches no declaration or
     *                               names an entry the catalogues lack
     */
    public static Parameter parameter(String path, Catalogs catalogs, String source, String field) {
        ParameterKind kind = kindOf(path);
        if (kind == null || !catalogs.values().containsKey(path)) {
            throw new InvalidInputException(InputError.of(source, field, "a calibratable catalogue value: "
                    + Names.expectedOneOf(path, paths(catalogs)), "'" + path + "'"));
        }
        return new Parameter(path, kind.entryOf(path), kind);
    }

    /** Every calibratable path the catalogues have, in declaration order. */
    public static List<String> paths(Catalogs catalogs) {
        List<String> out = new ArrayList<>();
        for (ParameterKind k : KINDS) {
            for (String path : catalogs.values().keySet()) {
                if (k.entryOf(path) != null) {
                    out.add(path);
                }
            }
        }
        return out;
    }
}
