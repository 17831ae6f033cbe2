package io.ridgeline.engine.sweep;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.engine.spec.SpecNode;
import io.ridgeline.engine.spec.SpecNode.MapNode;
import io.ridgeline.engine.spec.SpecNode.Scalar;
import io.ridgeline.engine.spec.SpecReader;
import io.ridgeline.engine.technology.TechnologyCatalog;
import io.ridgeline.engine.workload.ModelCatalog;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One validation pass over a sweep file, shared by the section readers ({@link PhasesReader}, {@link HardwareReader},
 * {@link NetworkReader}, {@link ParallelismReader}, {@link GoalsReader}): the generic typed readers of
 * {@link SpecReader}, the sweep's own value types (recompute, precision, names), the catalogues names resolve
 * against, and the {@link Reference} defaults. Every reader records errors and returns a placeholder, so later fields
 * are still checked and one pass reports every problem.
 */
class SweepReader extends SpecReader {
    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    static final String NAME_RULE = "a lower-case name of letters, digits, '.', '_' or '-'";
    static final int MAX_PARALLEL = 65_536;
    static final int MAX_GPUS = 16_777_216;

    final ModelCatalog models;
    final HardwareCatalog hardware;
    final TechnologyCatalog technology = TechnologyCatalog.bundled();
    final Reference reference = Reference.bundled();
    /** Phases of the sweep's workloads and whether cost.tokens is set: which columns every row fills. */
    final EnumSet<SweepSpec.Phase> phases = EnumSet.noneOf(SweepSpec.Phase.class);
    boolean tokensBudget;

    SweepReader(String source, ModelCatalog models, HardwareCatalog hardware) {
        super(source);
        this.models = models;
        this.hardware = hardware;
    }

    /** The file (or "command line") errors name. */
    String source() {
        return source;
    }

    /** The spec's value of {@code key}, else the reference default of {@code section.key}; null when neither. */
    SpecNode value(MapNode m, String section, String key) {
        SpecNode own = m == null ? null : m.get(key);
        return own != null ? own : reference.at(section.isEmpty() ? key : section + "." + key);
    }

    /** Unknown keys of a mapping: the keys the reference lists for {@code section}, "" for the document. */
    void knownKeys(MapNode m, String path, String section) {
        keys(m, path, reference.keys(section));
    }

    /** A name that becomes part of ids: lower case, digits and {@code . _ -}. */
    String name(SpecNode n, String path, String rule) {
        String s = string(n, path);
        if (s != null && !NAME.matcher(s).matches()) {
            error(n, path, rule, "'" + s + "'");
        }
        return s;
    }

    /** A list of parallel sizes, each in [1, 65536]. */
    List<Integer> sizes(SpecNode n, String path) {
        return list(n, path, (x, p) -> integer(x, p, 1, MAX_PARALLEL, "an integer in [1, " + MAX_PARALLEL + "]"));
    }

    Recompute recompute(SpecNode n, String path) {
        return choice(n, path, Recompute.class);
    }

    Precision precision(SpecNode n, String path) {
        return choice(n, path, Precision.class);
    }

    /** An enum constant by its id, any case; an error listing the ids (and the closest) otherwise. */
    private <E extends Enum<E>> E choice(SpecNode n, String path, Class<E> type) {
        String s = n instanceof Scalar sc ? sc.text() : null;
        E v = s == null ? null : Names.parse(type, s);
        if (v == null) {
            error(n, path, Names.expectedOneOf(s == null ? "" : s, Arrays.stream(type.getEnumConstants())
                    .map(Names::id).toList()), n.describe());
        }
        return v;
    }

    /** A storage format: tf32 is a math mode, not a format a tensor is stored in. */
    Precision storageFormat(SpecNode n, String path) {
        Precision v = precision(n, path);
        if (v == Precision.TF32) {
            error(n, path, "a storage format, one of [bf16, fp16, fp32, fp4, fp8] (tf32 is a math mode)",
                    n.describe());
            return null;
        }
        return v;
    }

    /**
     * Why a metric would be null on some rows of this sweep (a phase-specific column while the sweep has the other
     * phase, run_cost_usd without cost.tokens), or null when every row fills it. A null objective or bound would put
     * rows on frontiers or mark them as constraint misses for no reason.
     */
    String unfilled(Metric metric) {
        for (SweepSpec.Phase phase : phases) {
            if (!metric.filledBy(phase)) {
                return metric.column() + " is null on " + phase.id() + " rows";
            }
        }
        if (metric == Metric.RUN_COST_USD && !tokensBudget) {
            return "run_cost_usd needs cost.tokens, the tokens of one run";
        }
        return null;
    }
}
