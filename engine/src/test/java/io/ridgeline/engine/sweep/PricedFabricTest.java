package io.ridgeline.engine.sweep;

import io.ridgeline.engine.evaluation.Evaluator;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.cost.GpuHourCost;
import io.ridgeline.engine.cost.TcoModel;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.workload.ModelCatalog;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fabrics a sweep records are exactly those its rows were priced with. */
class PricedFabricTest {
    private static final SweepLoader LOADER = new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled());

    @Test
    void everyRowOnATopologyIsPricedWithItsRecordedFabric() {
        SweepSpec spec = LOADER.parse("f.yaml", String.join("\n", "name: f", "models: [llama2-7b]",
                "phases: [{phase: training, seq_len: [2048], global_batch: [512]}]",
                "hardware: {presets: [a100-80g, h100-sxm]}",
                "network: {scale_out: [default, eth400], scale_up_domain: [default, 4],",
                "          topology: [none, {kind: fat-tree, oversubscription: 2}, {kind: rail-optimized}]}",
                "cluster: {gpu_count: [64, 128]}", "parallelism: {tp: [1, 2], pp: [1]}",
                "cost: {usd_per_kwh: 0.3, pue: 1.4}", ""));
        List<PricedFabric> fabrics = PricedFabric.of(spec);
        Map<String, PricedFabric> byKey = new HashMap<>();
        for (PricedFabric f : fabrics) {
            assertTrue(byKey.put(key(f.topology(), f.scaleOut(), f.scaleUpDomain(), f.gpuCount()), f) == null,
                    "fabrics are distinct");
        }
        TcoModel tco = new TcoModel(spec.cost().parameters());
        Evaluator ev = new Evaluator(spec);
        int[] priced = {0};
        for (long i = 0; i < ev.grid().size(); i++) {
            ev.evaluate(i, p -> {
                PricedFabric f = byKey.get(key(p.text(ResultRow.Text.TOPOLOGY), p.text(ResultRow.Text.SCALE_OUT),
                        p.count(ResultRow.Count.SCALE_UP_DOMAIN), p.gpuCount()));
                double fabricUsd = p.metric(Metric.FABRIC_CAPEX_USD);
                if ("none".equals(p.text(ResultRow.Text.TOPOLOGY))) {
                    assertTrue(f == null && Double.isNaN(fabricUsd));
                    return;
                }
                assertEquals(f.capex().totalUsd(), fabricUsd, 0.0);
                GpuHourCost c = tco.gpuHour(p.chip().priceUsd(), p.chip().tdpWatts(), f.capex(), p.gpuCount());
                assertEquals(c.usdPerGpuHour(), p.metric(Metric.USD_PER_GPU_HOUR), 0.0);
                priced[0]++;
            });
        }
        // 2 chips x 2 networks x 2 domains x 2 topologies x 2 sizes, at most one fabric per key
        assertEquals(32, priced[0]);
        assertTrue(fabrics.size() >= 8 && fabrics.size() <= 32, "fabrics: " + fabrics.size());
    }

    @Test
    void aSweepWithoutTopologiesRecordsNoFabric() {
        SweepSpec spec = LOADER.parse("n.yaml", String.join("\n", "name: n", "models: [llama2-7b]",
                "phases: [{phase: training, seq_len: [2048], global_batch: [512]}]",
                "hardware: {presets: [a100-80g]}", "cluster: {gpu_count: [64]}", "parallelism: {tp: [8], pp: [1]}", ""));
        assertEquals(List.of(), PricedFabric.of(spec));
    }

    private static String key(String topology, String scaleOut, int domain, int gpus) {
        return topology + "/" + scaleOut + "/" + domain + "/" + gpus;
    }
}
