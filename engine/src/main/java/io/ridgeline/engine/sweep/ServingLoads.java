package io.ridgeline.engine.sweep;

import io.ridgeline.engine.spec.Names;
import io.ridgeline.engine.spec.SpecNode;
import io.ridgeline.engine.spec.SpecNode.MapNode;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How an inference phase entry loads its replicas (docs/INFERENCE.md, "Serving modes"): the product of {@code mode}
 * x ({@code batch} for static) x the load ({@code concurrency} or {@code requests_per_s}) x {@code disaggregation}.
 * <ul>
 *   <li>static: {@code batch} required; {@code concurrency} (the serving-throughput field) defaults to the batch;</li>
 *   <li>saturated: no batch; {@code concurrency} caps the requests in flight per (decode) replica, none by default;
 *   </li>
 *   <li>online: no batch; {@code concurrency} clients per replica or {@code requests_per_s} per replica, one of them.
 *   </li>
 * </ul>
 * {@code disaggregation} is {@code none} or {@code P:D} prefill:decode replicas of one deployment unit; a split runs
 * at saturation (mode saturated), the only steady state {@code inference.DisaggregatedServing} models.
 */
final class ServingLoads {
    static final List<String> MODES = List.of("static", "saturated", "online");
    /** Replicas per pool of one disaggregated deployment unit: at most this many (a sanity bound, not a limit). */
    private static final int MAX_POOL_REPLICAS = 64;
    private static final Pattern SPLIT = Pattern.compile("([0-9]+):([0-9]+)");

    /**
     * One serving setting.
     *
     * @param batch       static batch; 0 in the continuous modes
     * @param concurrency static: requests for the serving-throughput field; saturated: cap per replica (0 none);
     *                    online: clients per replica (0 when a rate is given)
     * @param prefill     prefill replicas of a deployment unit, 0 = aggregated
     * @param decode      decode replicas of a deployment unit, 0 = aggregated
     */
    record Load(String mode, int batch, int concurrency, double requestsPerSecond, int prefill, int decode) {
        /** Loads of one group share mode and batch: the phase iterates lengths between groups and loads inside. */
        boolean sameGroup(Load o) {
            return mode.equals(o.mode) && batch == o.batch;
        }
    }

    private final SweepReader r;

    ServingLoads(SweepReader r) {
        this.r = r;
    }

    /** The loads of the inference entry {@code m} at {@code path}, in mode order; errors go to the reader. */
    List<Load> read(MapNode m, String path) {
        List<String> modes = r.list(r.value(m, "phases.inference", "mode"), path + ".mode", this::mode);
        boolean isStatic = modes.contains("static");
        boolean online = modes.contains("online");
        SpecNode batchNode = m.get("batch");
        List<Integer> batches = List.of();
        if (isStatic) {
            batches = r.list(r.required(m, path, "batch", "a list of static batch sizes (requests), as mode static "
                    + "takes"), path + ".batch", (n, p) -> r.integer(n, p, 1, 1_000_000, "an integer in [1, 1000000]"));
        } else if (batchNode != null) {
            r.error(batchNode, path + ".batch", "no batch in mode " + modes + " (a static batch belongs to mode "
                    + "static; continuous batching takes concurrency: a cap (saturated) or clients (online))",
                    batchNode.describe());
        }
        SpecNode cNode = m.get("concurrency");
        SpecNode rateNode = m.get("requests_per_s");
        List<Integer> concurrency = cNode == null ? null : r.list(cNode, path + ".concurrency",
                (n, p) -> r.integer(n, p, 1, 100_000_000, "an integer in [1, 100000000]"));
        List<Double> rates = rateNode == null ? null : r.list(rateNode, path + ".requests_per_s",
                (n, p) -> r.number(n, p, 0, 1e9, false));
        if (rateNode != null && !online) {
            r.error(rateNode, path + ".requests_per_s", "requests_per_s only in mode online (requests arriving per "
                    + "second per replica)", "mode " + modes);
        } else if (rateNode != null && cNode != null) {
            r.error(rateNode, path + ".requests_per_s", "either concurrency (clients) or requests_per_s in mode "
                    + "online, not both", "both");
        } else if (online && cNode == null && rateNode == null) {
            r.error(m, path + ".concurrency", "concurrent clients per replica (concurrency) or a request rate "
                    + "(requests_per_s) for mode online", "neither");
        }
        List<int[]> splits = r.list(r.value(m, "phases.inference", "disaggregation"), path + ".disaggregation",
                this::split);
        boolean disaggregated = false;
        for (int[] s : splits) {
            disaggregated |= s[0] > 0;
        }
        SpecNode splitNode = m.get("disaggregation");
        if (disaggregated && (isStatic || online)) {
            r.error(splitNode, path + ".disaggregation", "a prefill:decode split with mode saturated only "
                    + "(disaggregated serving is modelled in steady state at saturation; concurrency caps each "
                    + "decode replica)", "mode " + modes);
        }
        List<Load> out = new ArrayList<>();
        for (String mode : modes) {
            switch (mode) {
                case "static" -> {
                    for (int b : batches) {
                        for (int c : concurrency == null ? List.of(b) : concurrency) {
                            out.add(new Load(mode, b, c, 0, 0, 0));
                        }
                    }
                }
                case "saturated" -> {
                    for (int c : concurrency == null ? List.of(0) : concurrency) {
                        for (int[] s : splits) {
                            out.add(new Load(mode, 0, c, 0, s[0], s[1]));
                        }
                    }
                }
                default -> {
                    if (rates != null) {
                        for (double rate : rates) {
                            out.add(new Load(mode, 0, 0, rate, 0, 0));
                        }
                    } else if (concurrency != null) {
                        for (int c : concurrency) {
                            out.add(new Load(mode, 0, c, 0, 0, 0));
                        }
                    }
                }
            }
        }
        return out;
    }

    private String mode(SpecNode n, String p) {
        String s = n instanceof SpecNode.Scalar sc ? sc.text() : null;
        if (s == null || !MODES.contains(s)) {
            r.error(n, p, Names.expectedOneOf(s == null ? "" : s, MODES), n.describe());
            return null;
        }
        return s;
    }

    /** {@code none} = {0, 0}; {@code P:D} = {P, D}, each in [1, 64]. Lists compare by identity: one array per value. */
    private int[] split(SpecNode n, String p) {
        String s = n instanceof SpecNode.Scalar sc ? sc.text() : null;
        if ("none".equals(s)) {
            return NONE;
        }
        Matcher x = s == null ? null : SPLIT.matcher(s.trim());
        if (x != null && x.matches()) {
            int prefill = parse(x.group(1));
            int decode = parse(x.group(2));
            if (prefill >= 1 && prefill <= MAX_POOL_REPLICAS && decode >= 1 && decode <= MAX_POOL_REPLICAS) {
                for (int[] known : seen) {
                    if (known[0] == prefill && known[1] == decode) {
                        return known; // the same array: the list reports it as a repeated value
                    }
                }
                int[] v = {prefill, decode};
                seen.add(v);
                return v;
            }
        }
        r.error(n, p, "none or prefill:decode replicas of one deployment unit, each in [1, " + MAX_POOL_REPLICAS
                + "] (e.g. \"1:3\")", n.describe());
        return null;
    }

    private static final int[] NONE = {0, 0};
    private final List<int[]> seen = new ArrayList<>();

    private static int parse(String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
