package io.ridgeline.engine.software;

import io.ridgeline.engine.spec.CsvTable;

import java.util.ArrayList;
import java.util.List;

/**
 * A framework's own per-workload performance presets (catalog/recipe-presets.csv): what Megatron-Bridge's
 * scripts/performance workload base configs set for one model, GPU and precision in one release, beyond what its stack
 * profile holds: the MoE token dispatcher and the CUDA graph scope. A preset applies to a run of that framework version,
 * model, GPU and precision whose stated layout (GPUs, TP, PP, VP, EP, micro-batch, global batch) is the preset's:
 * such a run is that preset, and what it leaves unstated is what the preset sets. Keyed as the framework's own files key
 * them, never on a case or a source; every row names its file and tag.
 */
public final class RecipePresets {
    private static final String RESOURCE = "/catalog/recipe-presets.csv";
    private static RecipePresets bundled;

    /** One preset: its keys, the layout it runs, and the settings it makes (null: not set, or not one value). */
    record Preset(String framework, String model, String gpu, String precision, int[] layout,
                  MoeDispatcher dispatcher, CudaGraphScope scope, String source) {
    }

    /** The layout a run states; 0 where the run leaves a value unstated (it then matches any preset's). */
    public record Layout(int gpus, int tp, int pp, int vpp, int ep, int microBatch, int globalBatch) {
        int[] values() {
            return new int[] {gpus, tp, pp, vpp, ep, microBatch, globalBatch};
        }
    }

    private final List<Preset> presets;

    private RecipePresets(List<Preset> presets) {
        this.presets = List.copyOf(presets);
    }

    /** The bundled catalogue, read once. */
    public static synchronized RecipePresets bundled() {
        if (bundled == null) {
            bundled = read(CsvTable.readResource(RESOURCE));
        }
        return bundled;
    }

    static RecipePresets read(CsvTable t) {
        String[] layout = {"num_gpus", "tp", "pp", "vpp", "ep", "micro_batch", "global_batch"};
        t.requireColumns("framework", "model", "gpu", "precision", "num_gpus", "tp", "pp", "vpp", "ep", "micro_batch",
                "global_batch", "moe_dispatcher", "cuda_graph_scope", "source");
        List<Preset> out = new ArrayList<>();
        for (CsvTable.Row r : t.rows()) {
            int[] values = new int[layout.length];
            for (int i = 0; i < layout.length; i++) {
                values[i] = (int) r.integer(layout[i]);
            }
            String precision = r.string("precision");
            if (!precision.equals("bf16") && !precision.equals("fp8") && !precision.equals("fp4")) {
                throw r.error("precision", "bf16, fp8 or fp4", "'" + precision + "'");
            }
            out.add(new Preset(r.string("framework"), r.string("model"), r.string("gpu"), precision, values,
                    r.isEmpty("moe_dispatcher") ? null : choice(r, "moe_dispatcher", MoeDispatcher.values()),
                    r.isEmpty("cuda_graph_scope") ? null : choice(r, "cuda_graph_scope", CudaGraphScope.values()),
                    r.string("source")));
        }
        return new RecipePresets(out);
    }

    private static <E extends Enum<E> & io.ridgeline.engine.spec.LowerCaseId> E choice(CsvTable.Row r, String column,
                                                                                      E[] all) {
        String s = r.string(column);
        for (E e : all) {
            if (e.id().equals(s)) {
                return e;
            }
        }
        throw r.error(column, "one of " + java.util.Arrays.stream(all).map(e -> e.id()).toList(), "'" + s + "'");
    }

    /**
     * The behaviour a run of {@code framework} (as the run states it, e.g. megatron-bridge@26.02) takes: {@code base}
     * with the settings of the one preset of that version, catalogued model, GPU and precision whose layout the run's
     * stated layout matches; {@code base} itself when there is none.
     */
    public TrainingBehaviour apply(TrainingBehaviour base, String framework, String model, String gpu,
                                   String precision, Layout layout) {
        Preset p = find(framework, model, gpu, precision, layout);
        if (p == null) {
            return base;
        }
        return base.withRecipe(p.dispatcher() == null ? base.moeDispatcher() : p.dispatcher(),
                p.scope() == null ? base.cudaGraphScope() : p.scope());
    }

    /** Where the preset a run matches comes from ("" when none matches). */
    public String source(String framework, String model, String gpu, String precision, Layout layout) {
        Preset p = find(framework, model, gpu, precision, layout);
        return p == null ? "" : p.source();
    }

    private Preset find(String framework, String model, String gpu, String precision, Layout layout) {
        int[] stated = layout.values();
        for (Preset p : presets) {
            if (p.framework().equals(framework) && p.model().equals(model) && p.gpu().equals(gpu)
                    && p.precision().equals(precision) && matches(p.layout(), stated)) {
                return p;
            }
        }
        return null;
    }

    private static boolean matches(int[] preset, int[] stated) {
        for (int i = 0; i < preset.length; i++) {
            if (stated[i] != 0 && stated[i] != preset[i]) {
                return false;
            }
        }
        return true;
    }
}
