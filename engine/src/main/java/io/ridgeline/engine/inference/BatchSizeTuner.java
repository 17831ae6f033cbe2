package io.ridgeline.engine.inference;

/**
 * TensorRT-LLM's dynamic batch-size tuner (ServingBehaviour {@code batch_size_tuning}): the TensorRT engine executor
 * sets its runtime batch size from the batch the KV cache holds at the recent requests' mean lengths
 * ({@code KVCacheManager::getMaxCapacityBatchSize}: primary blocks / blocks per sequence) through
 * {@code DynamicBatchTuner::getRuntimeBatchSize}: the first entry of {@code DynamicBatchConfig::kDefaultBatchSizeTable}
 * whose limit exceeds the capacity gives the batch size; above the table the capacity is rounded down to a multiple
 * of 512 when it lies within 128 of one ({@code kBatchSizeFallbackGranularity}, {@code kBatchSizeFallbackThreshold}).
 * A table entry above the capacity changes nothing (GUARANTEED_NO_EVICT still admits only what the blocks hold); one
 * below it caps the requests in flight.
 */
final class BatchSizeTuner {
    /** kDefaultBatchSizeTable: {capacity limit, runtime batch size}, ascending. */
    private static final int[][] TABLE = {{144, 128}, {336, 256}, {672, 512}, {832, 768}, {1280, 1024},
            {1664, 1536}};
    private static final int FALLBACK_GRANULARITY = 512;
    private static final int FALLBACK_THRESHOLD = 128;

    private BatchSizeTuner() {
    }

    /** The runtime batch size the tuner sets for a KV capacity of {@code capacity} requests. */
    static int runtimeBatchSize(int capacity) {
        for (int[] entry : TABLE) {
            if (capacity < entry[0]) {
                return entry[1];
            }
        }
        int threshold = capacity / FALLBACK_GRANULARITY * FALLBACK_GRANULARITY;
        return capacity < threshold + FALLBACK_THRESHOLD ? threshold : capacity;
    }
}
