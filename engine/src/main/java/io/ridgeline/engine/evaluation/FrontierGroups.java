package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.sweep.Grid;
import io.ridgeline.engine.sweep.GroupColumn;
import io.ridgeline.engine.sweep.SweepSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * Maps a grid point to the number of its frontier group: a mixed-radix key over the sweep's group-by columns, from
 * grid coordinates only (no strings in the hot loop). Columns that share the workload axis (phase, seq_len,
 * global_batch and the inference settings) map each workload to the id of its distinct value.
 */
public final class FrontierGroups {
    private final int[] axes;
    private final int[][] valueIds;
    private final long[] radices;

    public FrontierGroups(SweepSpec spec) {
        List<GroupColumn> cols = spec.groupBy();
        axes = new int[cols.size()];
        valueIds = new int[cols.size()][];
        radices = new long[cols.size()];
        long[] axisSizes = {spec.models().size(), spec.workloads().size(), spec.chips().size(),
                spec.scaleOuts().size(), spec.scaleOutGbitPerSecond().size(), spec.scaleUpDomains().size(),
                spec.topologies().size(), spec.gpuCounts().size()};
        for (int i = 0; i < cols.size(); i++) {
            GroupColumn g = cols.get(i);
            axes[i] = g.axis();
            if (g.axis() == Grid.WORKLOAD) {
                List<Object> distinct = new ArrayList<>();
                int[] ids = new int[spec.workloads().size()];
                for (int w = 0; w < ids.length; w++) {
                    SweepSpec.Workload wl = spec.workloads().get(w);
                    Object v = switch (g) {
                        case PHASE -> wl.phase();
                        case SEQ_LEN -> wl.seqLen();
                        case INPUT_TOKENS -> wl.inputTokens();
                        case OUTPUT_TOKENS -> wl.outputTokens();
                        case CONCURRENCY -> wl.concurrency();
                        case WEIGHT_PRECISION -> String.valueOf(wl.weightPrecision());
                        case KV_CACHE_PRECISION -> String.valueOf(wl.kvCachePrecision());
                        case CUDA_GRAPHS -> wl.inference() ? wl.cudaGraphs() : "none";
                        case SOFTWARE -> wl.software();
                        case SERVING_MODE -> wl.servingMode();
                        case DISAGGREGATION -> wl.inference() ? wl.disaggregation() : "";
                        default -> wl.globalBatch();
                    };
                    int at = distinct.indexOf(v);
                    if (at < 0) {
                        at = distinct.size();
                        distinct.add(v);
                    }
                    ids[w] = at;
                }
                valueIds[i] = ids;
                radices[i] = distinct.size();
            } else {
                radices[i] = axisSizes[g.axis()];
            }
        }
    }

    /** The group number of a point; 0 for every point when there are no group columns. */
    public long key(ResultRow p) {
        long key = 0;
        for (int i = 0; i < axes.length; i++) {
            int c = p.coord(axes[i]);
            key = key * radices[i] + (valueIds[i] == null ? c : valueIds[i][c]);
        }
        return key;
    }
}
