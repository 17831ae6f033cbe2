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
                        r.string("source"), detail(r)));
            } catch (IllegalArgumentException e) {
                throw r.error("name", "a consistent architecture", e.getMessage());
            }
        }
        return out;
    }

    /**
     * The optional architecture columns (head_dim, dense_layers, sliding_window, sliding_layer_share, mla_*,
     * activation, dropout, rope, expert_bias, expert_format); null
     * when the file lacks them or the row leaves them empty.
     */
    static ArchitectureDetail detail(CsvTable.Row r) {
        MlaSpec mla = null;
        if (!r.isEmpty("mla_q_lora_rank")) {
            mla = new MlaSpec((int) r.integer("mla_q_lora_rank"), (int) r.integer("mla_kv_lora_rank"),
                    (int) r.integer("mla_qk_nope_dim"), (int) r.integer("mla_qk_rope_dim"),
                    (int) r.integer("mla_v_head_dim"));
        }
        String activation = r.stringOr("activation", "");
        if (!activation.isEmpty() && !activation.equals("squared_relu") && !activation.equals("clamped_swiglu")) {
            throw r.error("activation", "squared_relu, clamped_swiglu or empty", "'" + activation + "'");
        }
        if (!r.isEmpty("dropout") && r.number("dropout") != 0) {
            throw r.error("dropout", "0 (the model trains without dropout) or empty", "'" + r.raw("dropout") + "'");
        }
        String rope = r.stringOr("rope", "");
        if (!rope.isEmpty() && !rope.equals("yarn")) {
            throw r.error("rope", "yarn or empty", "'" + rope + "'");
        }
        String bias = r.stringOr("expert_bias", "");
        if (!bias.isEmpty() && !bias.equals("true")) {
            throw r.error("expert_bias", "true or empty", "'" + bias + "'");
        }
        String experts = r.stringOr("expert_format", "");
        if (!experts.isEmpty() && !experts.equals("mxfp4")) {
            throw r.error("expert_format", "mxfp4 or empty (the checkpoint's format of the routed experts)",
                    "'" + experts + "'");
        }
        ArchitectureDetail d = new ArchitectureDetail((int) r.integerOr("head_dim", 0),
                (int) r.integerOr("dense_layers", 0), (int) r.integerOr("sliding_window", 0),
                r.numberOr("sliding_layer_share", 0), mla, activation.equals("squared_relu"), !r.isEmpty("dropout"),
                !rope.isEmpty(), !bias.isEmpty(), !experts.isEmpty(), activation.equals("clamped_swiglu"));
        return d.isEmpty() ? null : d;
    }

    /**
     * A catalogued model whose public configuration completes a shape the case format cannot fully express: same
     * layers, hidden, heads, KV heads, MLP type, vocabulary, experts and top-k, and the same MLP width (the routed
     * experts' for MoE). Null unless exactly one catalogued model with architecture detail matches. Matching is on the
     * shape alone, never on a name.
     */
    public ModelSpec completing(ModelSpec shape) {
        ModelSpec found = null;
        for (ModelSpec c : models.values()) {
            if (c.detail() == null || !sameShape(shape, c)) {
                continue;
            }
            if (found != null) {
                return null;
            }
            found = c;
        }
        return found;
    }

    private static boolean sameShape(ModelSpec s, ModelSpec c) {
        if (s.layers() != c.layers() || s.hidden() != c.hidden() || s.heads() != c.heads()
                || s.kvHeads() != c.kvHeads() || s.mlp() != c.mlp() || s.vocab() != c.vocab()
                || (s.moe() == null) != (c.moe() == null)) {
            return false;
        }
        if (s.moe() == null) {
            return s.ffn() == c.ffn();
        }
        return s.moe().experts() == c.moe().experts() && s.moe().topK() == c.moe().topK()
                && s.moe().expertFfn() == c.moe().expertFfn();
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
