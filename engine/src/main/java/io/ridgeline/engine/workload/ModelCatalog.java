package io.ridgeline.engine.workload;

import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.engine.spec.Resources;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/** Named model architectures from catalog/models.csv (and optional user files in the same format). */
public final class ModelCatalog {
    private static final Supplier<ModelCatalog> BUNDLED = Resources.once(
            () -> new ModelCatalog(parse(CsvTable.readResource("/catalog/models.csv"))));

    private final Map<String, ModelSpec> models;

    private ModelCatalog(Map<String, ModelSpec> models) {
        this.models = Collections.unmodifiableMap(models);
    }

    /** The models shipped in the engine jar. */
    public static ModelCatalog bundled() {
        return BUNDLED.get();
    }

    /** The bundled models plus those of a user file (user rows win on name clashes). */
    public ModelCatalog withFile(Path file) {
        Map<String, ModelSpec> all = new LinkedHashMap<>(models);
        all.putAll(parse(CsvTable.read(file)));
        return new ModelCatalog(all);
    }

    static Map<String, ModelSpec> parse(CsvTable t) {
        t.requireColumns("name", "layers", "hidden", "heads", "kv_heads", "ffn", "mlp", "vocab", "max_seq_len",
                "tied_embeddings", "moe_experts", "moe_topk", "moe_ffn", "moe_shared", "moe_capacity", "source");
        Map<String, ModelSpec> out = new LinkedHashMap<>();
        for (CsvTable.Row r : t.rows()) {
            String name = r.string("name");
            MlpType mlp = parseMlp(r);
            MoeSpec moe = null;
            if (!r.isEmpty("moe_experts")) {
                moe = new MoeSpec((int) r.integer("moe_experts"), (int) r.integer("moe_topk"), r.integer("moe_ffn"),
                        (int) r.integerOr("moe_shared", 0), r.numberOr("moe_capacity", 1.0));
            }
            String tied = r.string("tied_embeddings");
            if (!tied.equals("true") && !tied.equals("false")) {
                throw r.error("tied_embeddings", "true or false", "'" + tied + "'");
            }
            try {
                out.put(name, new ModelSpec(name, (int) r.integer("layers"), (int) r.integer("hidden"),
                        (int) r.integer("heads"), (int) r.integer("kv_heads"), r.integer("ffn"), mlp,
                        (int) r.integer("vocab"), (int) r.integer("max_seq_len"), Boolean.parseBoolean(tied), moe,
                        r.string("source")));
            } catch (IllegalArgumentException e) {
                throw r.error("name", "a consistent architecture", e.getMessage());
            }
        }
        return out;
    }

    /** Parses the {@code mlp} column: gelu or swiglu. */
    public static MlpType parseMlp(CsvTable.Row r) {
        String v = r.string("mlp").toLowerCase(Locale.ROOT);
        return switch (v) {
            case "gelu" -> MlpType.GELU;
            case "swiglu" -> MlpType.SWIGLU;
            default -> throw r.error("mlp", "gelu or swiglu", "'" + v + "'");
        };
    }

    public ModelSpec model(String name) {
        return Names.lookup(models, name, "model catalogue", "model");
    }

    public boolean has(String name) {
        return models.containsKey(name);
    }

    public Map<String, ModelSpec> models() {
        return models;
    }
}
