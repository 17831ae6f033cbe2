package io.ridgeline.engine.network;

import io.ridgeline.engine.hardware.CollectiveCurve;
import io.ridgeline.engine.hardware.ScaleOutNetwork;

/**
 * Collective times on a system (MODEL.md sec. 4). Inside a scale-up domain: the measured nccl-tests curve scaled to the
 * link bandwidth ({@link CollectiveCurve}). Across domains: alpha-beta with the scale-out network's per-GPU bandwidth
 * and efficiency. Groups spanning several domains run hierarchically: intra-domain reduce-scatter, inter-domain
 * all-reduce of 1/k of the data on all k NICs in parallel, intra-domain all-gather. Latency takes the better of ring
 * (2(p-1) steps) and tree (2 log2 p steps), as NCCL picks, except that a reduce-scatter or all-gather across domains
 * pays its flat ring's steps (NCCL has no tree for them; {@link #ringLatencyShortfall}). When the system names a
 * scale-out {@link Topology}, the inter-domain parts take its bandwidth and hop latency for the group's placement
 * (bisection, oversubscription).
 */
public final class CollectiveModel {
    /** In-switch reduction (NVLS) lifts all-reduce only; reduce-scatter/all-gather/all-to-all stay at ring rates. */
    private static final double RING_EFFICIENCY_CAP = 0.80;

    private final CollectiveCurve curve;
    private final double upBytesPerSecond;
    private final double upStepSeconds;
    private final ScaleOutNetwork out;
    private final double outBytesPerSecond;
    /** Null for a full-bisection scale-out network; otherwise bisection and oversubscription apply. */
    private final TopologyCollectives fabric;

    /**
     * Direct-mapped memo of {@link CollectiveCurve#efficiency} (a log and a table walk) by message size: a plan search
     * or sweep asks for the same few sizes millions of times. Exact (a hit returns the stored value for the identical
     * size). Per instance, so per thread like the model itself.
     */
    private static final int MEMO_SLOTS = 256;
    private final double[] memoBytes;
    private final double[] memoEfficiency;

    /**
     * Wire-byte meter for the energy model: every collective adds the bytes one rank sends (ring/alpha-beta volume),
     * split by link. Callers read differences around the calls they want to count; {@link #repeat} charges a call that
     * stands for several identical ones. Plain fields: no allocation on the hot path.
     */
    private double scaleUpBytes;
    private double scaleOutBytes;
    private double callUpBytes;
    private double callOutBytes;

    public CollectiveModel(SystemSpec system, CollectiveCurve curve) {
        this(system, curve, null);
    }

    /**
     * A model for {@code system} that keeps {@code previous}'s memo of curve lookups when both read the same curve
     * (a sweep moving to another network or GPU count of the same chip).
     */
    public CollectiveModel(SystemSpec system, CollectiveCurve curve, CollectiveModel previous) {
        this.curve = curve;
        if (previous != null && previous.curve == curve) {
            this.memoBytes = previous.memoBytes;
            this.memoEfficiency = previous.memoEfficiency;
        } else {
            this.memoBytes = new double[MEMO_SLOTS];
            java.util.Arrays.fill(memoBytes, Double.NaN);
            this.memoEfficiency = new double[MEMO_SLOTS];
        }
        this.upBytesPerSecond = system.scaleUpBytesPerSecond();
        this.upStepSeconds = system.scaleUpStepLatencySeconds();
        this.out = system.scaleOut();
        this.outBytesPerSecond = out.bytesPerSecond() * out.efficiency();
        this.fabric = system.scaleOutTopology() == null ? null
                : new TopologyCollectives(system.scaleOutTopology(), out.efficiency());
    }

    /** All-reduce of {@code bytes} per rank. */
    public double allReduce(double bytes, Group g) {
        return hierarchical(bytes, g, true);
    }

    /** Reduce-scatter of a {@code bytes} buffer (each rank keeps bytes / size). */
    public double reduceScatter(double bytes, Group g) {
        return hierarchical(bytes, g, false);
    }

    /**
     * The hierarchical schedule (class comment) of an all-reduce ({@code allReduce}) or a reduce-scatter: inside one
     * domain the whole group's collective; across domains the same collective of 1/k of the data between domains on
     * all k NICs, after an intra-domain reduce-scatter (and, for an all-reduce, before an intra-domain all-gather).
     */
    private double hierarchical(double bytes, Group g, boolean allReduce) {
        startCall();
        if (g.size() == 1 || bytes <= 0) {
            return 0;
        }
        if (!g.crossesDomains()) {
            return allReduce ? intraAllReduce(bytes, g.size()) : intraHalf(bytes, g.size());
        }
        int k = g.perDomain();
        double inter = allReduce ? interAllReduce(bytes / k, g.domains(), g.interDomainStride())
                : interHalf(bytes / k, g.domains(), g.interDomainStride());
        if (k == 1) {
            return allReduce ? inter : inter + ringLatencyShortfall(g);
        }
        double intra = intraHalf(bytes, k); // reduce-scatter
        if (allReduce) {
            intra += intraHalf(bytes, k); // all-gather
            return intra + inter;
        }
        return intra + inter + ringLatencyShortfall(g);
    }

    /**
     * Latency a reduce-scatter or all-gather across domains pays beyond the hierarchical schedule's: NCCL runs them as
     * one flat ring over all p ranks (Ring is their only algorithm across nodes before PAT, NCCL 2.23; no tree), whose
     * latency is (p - N) scale-up steps plus (N - 1) network steps over N domains (NVIDIA/nccl src/graph/tuning.cc
     * @01afd20, ncclTopoTuneModel: only Ring is tuned for collectives other than all-reduce, and its latency is
     * (nsteps - nInterSteps) x intraLat + nInterSteps x interLat with nsteps = p - 1, nInterSteps = N - 1). The step
     * latencies are this model's own (the measured curve's floor per step, the network's step). The schedule
     * above already counts tree-like steps ({@link #latencySteps} / 2 per level); only the excess is added, so small
     * rings change little and a ring of hundreds of ranks pays its hundreds of steps. No fabric: a topology's
     * collectives keep their own hop latency.
     */
    private double ringLatencyShortfall(Group g) {
        if (fabric != null) {
            return 0;
        }
        int p = g.size();
        int n = g.domains();
        double ring = (p - n) * upStepSeconds + (n - 1) * out.stepLatencySeconds();
        // latencySteps(q) / 2 = ceil(log2 q) (the tree's steps), in integer arithmetic: no log on the hot path.
        double counted = ceilLog2(g.perDomain()) * upStepSeconds + ceilLog2(n) * out.stepLatencySeconds();
        return Math.max(0, ring - counted);
    }

    private static int ceilLog2(int q) {
        return 32 - Integer.numberOfLeadingZeros(q - 1);
    }

    /** All-gather producing a {@code bytes} buffer on each rank. Same wire traffic as reduce-scatter. */
    public double allGather(double bytes, Group g) {
        return reduceScatter(bytes, g);
    }

    /** All-to-all where each rank sends {@code bytes} in total, spread evenly over the group. */
    public double allToAll(double bytes, Group g) {
        startCall();
        if (g.size() == 1 || bytes <= 0) {
            return 0;
        }
        int p = g.size();
        double wire = bytes * (p - 1) / p;
        if (!g.crossesDomains()) {
            meter(wire, 0);
            double eff = Math.min(efficiency(bytes), RING_EFFICIENCY_CAP);
            return Math.max((p - 1) * upStepSeconds / 2, wire / (eff * upBytesPerSecond));
        }
        // The share bound for other domains crosses the scale-out network.
        double remote = bytes * (p - g.perDomain()) / p;
        double local = wire - remote;
        meter(local, remote);
        double eff = Math.min(efficiency(bytes), RING_EFFICIENCY_CAP);
        return Math.max(local / (eff * upBytesPerSecond), remoteSeconds(remote, g));
    }

    /**
     * Hierarchical all-to-all across scale-up domains (DeepSeek-V3 sec. 3.2.2, DeepEP and HybridEP internode
     * kernels): a rank sends {@code remoteBytes} over the scale-out network, each item once per destination domain
     * to the rank of the same local index there, which forwards it over the scale-up links to the ranks that need
     * it; the scale-up links carry the whole exchange ({@code bytes} spread over the group) on one side or the other.
     */
    public double hierarchicalAllToAll(double bytes, double remoteBytes, Group g) {
        if (!g.crossesDomains()) {
            return allToAll(bytes, g);
        }
        startCall();
        if (bytes <= 0) {
            return 0;
        }
        double wire = bytes * (g.size() - 1) / g.size();
        meter(wire, remoteBytes);
        double eff = Math.min(efficiency(bytes), RING_EFFICIENCY_CAP);
        return Math.max(wire / (eff * upBytesPerSecond), remoteSeconds(remoteBytes, g));
    }

    /** Seconds for each rank to send {@code remote} bytes spread over the group's other domains. */
    private double remoteSeconds(double remote, Group g) {
        return fabric == null
                ? remote / outBytesPerSecond + (g.domains() - 1) * out.stepLatencySeconds()
                : fabric.allToAllSeconds(remote * g.domains() / (g.domains() - 1.0), g.domains(),
                g.interDomainStride());
    }

    /** One point-to-point transfer (pipeline activations); {@code crossDomain} picks the link. */
    public double sendRecv(double bytes, boolean crossDomain) {
        return sendRecv(bytes, crossDomain, 1);
    }

    /** A point-to-point transfer between ranks {@code stride} GPUs apart (the topology decides the path). */
    public double sendRecv(double bytes, boolean crossDomain, int stride) {
        startCall();
        if (bytes <= 0) {
            return 0;
        }
        if (crossDomain) {
            meter(0, bytes);
            return fabric == null ? out.stepLatencySeconds() + bytes / outBytesPerSecond
                    : fabric.sendRecvSeconds(bytes, stride);
        }
        meter(bytes, 0);
        double eff = Math.min(efficiency(bytes), RING_EFFICIENCY_CAP);
        return upStepSeconds + bytes / (eff * upBytesPerSecond);
    }

    private double intraAllReduce(double bytes, int p) {
        double wire = 2.0 * (p - 1) / p * bytes;
        meter(wire, 0);
        return Math.max(latencySteps(p) * upStepSeconds, wire / (efficiency(bytes) * upBytesPerSecond));
    }

    private double intraHalf(double bytes, int p) {
        double wire = (double) (p - 1) / p * bytes;
        meter(wire, 0);
        double eff = Math.min(efficiency(bytes), RING_EFFICIENCY_CAP);
        return Math.max(latencySteps(p) / 2 * upStepSeconds, wire / (eff * upBytesPerSecond));
    }

    private double interAllReduce(double bytes, int p, int stride) {
        meter(0, 2.0 * (p - 1) / p * bytes);
        if (fabric != null) {
            return fabric.allReduceSeconds(bytes, p, stride);
        }
        return latencySteps(p) * out.stepLatencySeconds() + 2.0 * (p - 1) / p * bytes / outBytesPerSecond;
    }

    private double interHalf(double bytes, int p, int stride) {
        meter(0, (double) (p - 1) / p * bytes);
        if (fabric != null) {
            return fabric.reduceScatterSeconds(bytes, p, stride);
        }
        return latencySteps(p) / 2 * out.stepLatencySeconds() + (double) (p - 1) / p * bytes / outBytesPerSecond;
    }

    /**
     * {@code times} runs of the collective just called, whose time is {@code seconds}: returns {@code times x seconds}
     * and meters the extra runs' wire bytes (a layer's two identical TP all-reduces, a pipeline's 2v sends).
     */
    public double repeat(double times, double seconds) {
        scaleUpBytes += (times - 1) * callUpBytes;
        scaleOutBytes += (times - 1) * callOutBytes;
        return times * seconds;
    }

    /** Bytes one rank has sent over scale-up links through this model since it was built (a running meter). */
    public double meteredScaleUpBytes() {
        return scaleUpBytes;
    }

    /** Bytes one rank has sent over the scale-out network through this model since it was built. */
    public double meteredScaleOutBytes() {
        return scaleOutBytes;
    }

    private void startCall() {
        callUpBytes = 0;
        callOutBytes = 0;
    }

    private void meter(double upBytes, double outBytes) {
        scaleUpBytes += upBytes;
        scaleOutBytes += outBytes;
        callUpBytes += upBytes;
        callOutBytes += outBytes;
    }

    private static double latencySteps(int p) {
        return CollectiveCurve.latencySteps(p);
    }

    private double efficiency(double bytes) {
        long h = Double.doubleToRawLongBits(bytes) * 0x9E3779B97F4A7C15L;
        int slot = (int) (h >>> 56); // top byte: the multiply pushes the mantissa and exponent bits up there
        if (memoBytes[slot] == bytes) {
            return memoEfficiency[slot];
        }
        double e = curve.efficiency(bytes);
        memoBytes[slot] = bytes;
        memoEfficiency[slot] = e;
        return e;
    }
}
