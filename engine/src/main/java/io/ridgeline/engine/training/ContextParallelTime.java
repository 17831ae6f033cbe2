package io.ridgeline.engine.training;

import io.ridgeline.engine.network.CollectiveModel;
import io.ridgeline.engine.software.ContextParallelExchange;

/**
 * Communication of context parallelism for one layer and micro-batch, as the stack exchanges K/V (and dK/dV) between
 * the cp ranks of a sequence (TrainingBehaviour.cpExchange):
 * <ul>
 *   <li>ring (Transformer Engine p2p): cp - 1 K/V sends per pass, overlapped with the layer's compute; backward passes
 *       K/V and dK/dV;</li>
 *   <li>allgather (PyTorch 2.6 context_parallel, eager): one all-gather of every rank's K/V chunk per attention call,
 *       hidden only behind the first sub-attention; backward all-gathers K/V again and sends the fp32 dK/dV
 *       accumulators cp times around the ring, each hidden behind the next step's backward, the last one exposed;</li>
 *   <li>allgather_compiled: the same collectives, each waited where it is issued (torch.compile), all exposed.</li>
 * </ul>
 * Recomputation re-runs the forward and with it its exchange (LayerTime.backward).
 */
final class ContextParallelTime {
    private static final double ACT_BYTES = 2; // 16-bit K/V
    private static final double FP32_BYTES = 4; // PyTorch accumulates dK/dV in fp32 (convert_to_f32) and sends them so

    private final CollectiveModel collectives;

    ContextParallelTime(CollectiveModel collectives) {
        this.collectives = collectives;
    }

    /**
     * Exposed forward exchange; {@code attentionSeconds} is the attention core's forward (cp sub-attentions of equal
     * work under load balancing), {@code layerGemmSeconds} all of the layer's GEMMs (what a ring hides behind).
     */
    double forward(LayerShape s, double attentionSeconds, double layerGemmSeconds) {
        if (s.cp().size() == 1) {
            return 0;
        }
        return switch (s.plan().software().cpExchange()) {
            case RING -> Math.max(0, ring(s) - layerGemmSeconds);
            case ALLGATHER -> Math.max(0, gather(s) - attentionSeconds / s.cp().size());
            case ALLGATHER_COMPILED -> gather(s);
        };
    }

    /** Exposed backward exchange; {@code attentionSeconds} is the attention core's backward. */
    double backward(LayerShape s, double attentionSeconds, double layerGemmSeconds) {
        int c = s.cp().size();
        if (c == 1) {
            return 0;
        }
        ContextParallelExchange x = s.plan().software().cpExchange();
        if (x == ContextParallelExchange.RING) {
            // K/V and dK/dV both travel the ring, each hidden behind half the backward GEMMs.
            return 2 * Math.max(0, ring(s) - layerGemmSeconds / 2);
        }
        double gather = gather(s);
        double send = collectives.sendRecv(kvChunkBytes(s) * FP32_BYTES / ACT_BYTES, s.cp().crossesDomains());
        double sends = collectives.repeat(c, send); // one dK/dV send per step (metered once each, in either mode)
        if (x == ContextParallelExchange.ALLGATHER_COMPILED) {
            return gather + sends;
        }
        double step = attentionSeconds / c;
        return Math.max(0, gather - step) + (c - 1) * Math.max(0, send - step) + send;
    }

    /** One all-gather of every cp rank's K/V chunk (PyTorch _AllGatherRotater). */
    private double gather(LayerShape s) {
        return collectives.allGather(s.cp().size() * kvChunkBytes(s), s.cp());
    }

    /** cp - 1 point-to-point K/V sends (Transformer Engine p2p). */
    private double ring(LayerShape s) {
        return collectives.repeat(s.cp().size() - 1, collectives.sendRecv(kvChunkBytes(s), s.cp().crossesDomains()));
    }

    /**
     * One rank's K and V for a micro-batch in 16 bits: its s/cp positions at the K/V width per TP rank, or at the
     * query width when the model code expands grouped K/V to every query head before attention.
     */
    static double kvChunkBytes(LayerShape s) {
        return s.microBatch() * s.querySeq() * 2.0 * kvWidth(s) * ACT_BYTES;
    }

    /** Width of K (or V) per TP rank as the attention kernel and the exchange see it. */
    static double kvWidth(LayerShape s) {
        return s.plan().software().expandedKvHeads() ? s.qWidth() : (double) s.model().kvWidth() / s.plan().tp();
    }
}
