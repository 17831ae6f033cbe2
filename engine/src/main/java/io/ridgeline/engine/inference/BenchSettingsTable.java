package io.ridgeline.engine.inference;

import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.spec.Resources;
import io.ridgeline.engine.workload.ModelSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * trtllm-bench's per-model settings table of the 0.12-0.14 era (catalog/trtllm_bench_settings.csv, from
 * {@code tensorrt_llm/bench/build/benchmark_config.yml}): the max batch size and max tokens per step its build uses
 * for a listed model at a TP/PP layout, whatever memory is left, with an entry per dataset sequence length where the
 * table has one and a "general" entry otherwise. Models are matched by shape, since the table keys Hugging Face names.
 */
final class BenchSettingsTable {
    /** One layout's limits; {@code maxSeqLen} 0 for the "general" entry. */
    record Entry(int tp, int pp, int maxSeqLen, int maxBatch, int maxTokens) {
    }

    /** A table row: the model's shape (the CSV's hf_model column names it for the reader) and its entry. */
    private record Row(int layers, int hidden, int heads, int kvHeads, long ffn, int vocab, int experts, Entry entry) {
        boolean matches(ModelSpec m) {
            int mExperts = m.isMoe() ? m.moe().experts() : 0;
            return m.layers() == layers && m.hidden() == hidden && m.heads() == heads && m.kvHeads() == kvHeads
                    && m.ffn() == ffn && m.vocab() == vocab && mExperts == experts;
        }
    }

    private static final Supplier<List<Row>> ROWS = Resources.once(BenchSettingsTable::load);
    /** No entries: a runtime without the table, or a model it does not list. */
    static final Entry[] NONE = new Entry[0];

    private BenchSettingsTable() {
    }

    /** The table's entries for a model's shape (empty when the table does not list it); once per replica. */
    static Entry[] entriesFor(ModelSpec m) {
        List<Entry> out = new ArrayList<>();
        for (Row r : ROWS.get()) {
            if (r.matches(m)) {
                out.add(r.entry);
            }
        }
        return out.isEmpty() ? NONE : out.toArray(NONE);
    }

    /**
     * The entry a run of {@code tp} x {@code pp} with sequences of {@code seqLen} tokens gets: the layout's entry for
     * that length, else its "general" entry, else null (the layout is not listed).
     */
    static Entry lookup(Entry[] entries, int tp, int pp, int seqLen) {
        Entry general = null;
        for (Entry e : entries) {
            if (e.tp() != tp || e.pp() != pp) {
                continue;
            }
            if (e.maxSeqLen() == seqLen) {
                return e;
            }
            if (e.maxSeqLen() == 0) {
                general = e;
            }
        }
        return general;
    }

    private static List<Row> load() {
        CsvTable t = CsvTable.readResource("/catalog/trtllm_bench_settings.csv");
        t.requireColumns("hf_model", "layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "moe_experts", "tp", "pp",
                "max_seq_len", "max_batch_size", "max_num_tokens");
        List<Row> rows = new ArrayList<>();
        for (CsvTable.Row r : t.rows()) {
            // Positive counts, or an error naming the file, line and column.
            Entry e = new Entry((int) r.positive("tp"), (int) r.positive("pp"),
                    r.isEmpty("max_seq_len") ? 0 : (int) r.positive("max_seq_len"),
                    (int) r.positive("max_batch_size"), (int) r.positive("max_num_tokens"));
            rows.add(new Row((int) r.integer("layers"), (int) r.integer("hidden"),
                    (int) r.integer("heads"), (int) r.integer("kv_heads"), r.integer("ffn"), (int) r.integer("vocab"),
                    (int) r.integerOr("moe_experts", 0), e));
        }
        return List.copyOf(rows);
    }
}
