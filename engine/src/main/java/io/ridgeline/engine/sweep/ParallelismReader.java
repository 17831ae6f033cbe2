package io.ridgeline.engine.sweep;

import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.SpecNode;
import io.ridgeline.engine.spec.SpecNode.MapNode;
import io.ridgeline.engine.sweep.SweepSpec.ExplicitPlan;
import io.ridgeline.engine.sweep.SweepSpec.Parallelism;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code parallelism} section: search lists (their cross product, filtered to valid shapes per point) or explicit
 * plans (a grid axis). Defaults come from the reference file.
 */
final class ParallelismReader {
    private static final String SECTION = "parallelism";
    private static final String PLAN = "parallelism.plans";
    /** Keys of earlier sweep files that the software stack replaced: a located error names the new home. */
    private static final List<String> SOFTWARE_KEYS = List.of("overlap_grad", "flash_attention");
    /** What an inference replica is made of: tp x ep x pp GPUs, dp replicas. */
    private static final List<String> INFERENCE_PLAN_KEYS = List.of("tp", "pp", "ep", "dp");

    private final SweepReader r;

    ParallelismReader(SweepReader r) {
        this.r = r;
    }

    Parallelism read(SpecNode node) {
        MapNode m = r.map(node, SECTION);
        if (m == null) {
            return null;
        }
        for (String old : SOFTWARE_KEYS) {
            if (m.get(old) != null) {
                r.errors().add(new InputError(r.source(), m.keyLine(old), m.keyColumn(old), "parallelism." + old,
                        "the phase's software stack instead (phases[].software, catalog/stacks.yaml: "
                                + (old.equals("overlap_grad") ? "its grad_reduce_overlap" : "its attention kernel")
                                + "; default " + SweepSpec.defaultSoftware(SweepSpec.Phase.TRAINING) + ")",
                        "'" + old + "'"));
            }
        }
        List<String> known = new ArrayList<>(r.reference.keys(SECTION));
        known.addAll(SOFTWARE_KEYS);
        r.keys(m, SECTION, known);
        SweepSpec.Mode mode = r.enumValue(r.value(m, SECTION, "mode"), "parallelism.mode", SweepSpec.Mode.class);
        List<Integer> none = List.of();
        if (mode == SweepSpec.Mode.EXPLICIT) {
            for (String k : r.reference.listKeys(SECTION)) {
                if (m.get(k) != null) {
                    r.error(m.get(k), "parallelism." + k, "no search list in explicit mode (put " + k
                            + " inside each of parallelism.plans)", m.get(k).describe());
                }
            }
            if (m.get("keep") != null) {
                r.error(m.get("keep"), "parallelism.keep", "no 'keep' in explicit mode (it applies to search)",
                        m.get("keep").describe());
            }
            List<ExplicitPlan> plans = r.list(r.required(m, SECTION, "plans", "a list of plans"), PLAN, this::plan);
            return new Parallelism(mode, SweepSpec.Keep.BEST, none, none, none, none, none, none, none, List.of(),
                    List.of(), List.of(), plans);
        }
        if (m.get("plans") != null) {
            r.error(m.get("plans"), PLAN, "no explicit plans in search mode (set mode: explicit)",
                    m.get("plans").describe());
        }
        SweepSpec.Keep keep = r.enumValue(r.value(m, SECTION, "keep"), "parallelism.keep", SweepSpec.Keep.class);
        return new Parallelism(mode == null ? SweepSpec.Mode.SEARCH : mode, keep == null ? SweepSpec.Keep.BEST : keep,
                sizes(m, "tp"), sizes(m, "pp"), sizes(m, "cp"), sizes(m, "ep"), sizes(m, "vpp"),
                sizes(m, "micro_batch"),
                r.list(r.value(m, SECTION, "zero"), "parallelism.zero",
                        (n, p) -> r.integer(n, p, 0, 3, "an integer in [0, 3]")),
                r.list(r.value(m, SECTION, "sp"), "parallelism.sp", r::bool),
                r.list(r.value(m, SECTION, "recompute"), "parallelism.recompute", r::recompute),
                r.list(r.value(m, SECTION, "precision"), "parallelism.precision", r::precision), List.of());
    }

    private List<Integer> sizes(MapNode m, String key) {
        return r.sizes(r.value(m, SECTION, key), "parallelism." + key);
    }

    /**
     * One explicit plan; dp 0 = whatever fills the cluster, sp defaults to tp > 1. A sweep of inference phases only
     * takes the keys an inference plan has: the others would be silently ignored.
     */
    private ExplicitPlan plan(SpecNode node, String path) {
        MapNode m = r.map(node, path);
        if (m == null) {
            return null;
        }
        r.knownKeys(m, path, PLAN);
        if (!r.phases.contains(SweepSpec.Phase.TRAINING) && !r.phases.isEmpty()) {
            for (String k : m.values().keySet()) {
                if (r.reference.keys(PLAN).contains(k) && !INFERENCE_PLAN_KEYS.contains(k)) {
                    r.errors().add(new InputError(r.source(), m.keyLine(k), m.keyColumn(k), path + "." + k,
                            "no '" + k + "' in a plan of an inference phase (it takes " + String.join(", ",
                                    INFERENCE_PLAN_KEYS) + "; precisions are phase settings)", "'" + k + "'"));
                }
            }
        }
        int tp = size(m, path, "tp", 1);
        int pp = size(m, path, "pp", 1);
        int dp = m.get("dp") == null ? 0 : size(m, path, "dp", 1);
        int cp = size(m, path, "cp", 1);
        int ep = size(m, path, "ep", 1);
        int vpp = size(m, path, "vpp", 1);
        int mb = size(m, path, "micro_batch", 1);
        int zero = orElse(r.integer(r.value(m, PLAN, "zero"), path + ".zero", 0, 3, "an integer in [0, 3]"), 1);
        boolean sp = m.get("sp") == null ? tp > 1 : r.bool(m.get("sp"), path + ".sp");
        Recompute rc = r.recompute(r.value(m, PLAN, "recompute"), path + ".recompute");
        Precision pr = r.precision(r.value(m, PLAN, "precision"), path + ".precision");
        return new ExplicitPlan(tp, pp, dp, cp, ep, sp, vpp, zero, mb, rc == null ? Recompute.SELECTIVE : rc,
                pr == null ? Precision.BF16 : pr);
    }

    private int size(MapNode m, String path, String key, int min) {
        return orElse(r.integer(r.value(m, PLAN, key), path + "." + key, min, SweepReader.MAX_PARALLEL,
                "an integer in [" + min + ", " + SweepReader.MAX_PARALLEL + "]"), 1);
    }

    private static int orElse(Integer v, int fallback) {
        return v == null ? fallback : v;
    }
}
