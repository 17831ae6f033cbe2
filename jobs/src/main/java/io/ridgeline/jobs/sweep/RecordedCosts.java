package io.ridgeline.jobs.sweep;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.engine.cost.TcoParameters;
import io.ridgeline.engine.cost.NetworkCapex;
import io.ridgeline.engine.sweep.PricedFabric;
import io.ridgeline.engine.sweep.SweepSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * A run's cost inputs as the runs manifest records them (columns {@code cost_*}, ResultsSchema.RUNS): the resolved
 * {@code cost:} section and every priced fabric. Written by the sweep job, read back by {@code export}, so the
 * workbook prices each row with exactly the numbers the sweep used.
 *
 * @param tokens the run's token budget (cost.tokens); 0 = none
 */
public record RecordedCosts(TcoParameters parameters, double tokens, List<PricedFabric> fabrics) {
    /** The manifest columns, in schema order. */
    public static final List<String> COLUMNS = List.of("cost_server_overhead_factor", "cost_interconnect_fraction",
            "cost_amortization_years", "cost_server_power_factor", "cost_load_fraction", "cost_pue",
            "cost_usd_per_kwh", "cost_availability_fraction", "cost_tokens", "cost_fabrics_json");
    private static final ObjectMapper JSON = new ObjectMapper();

    public RecordedCosts {
        fabrics = List.copyOf(fabrics);
    }

    public static RecordedCosts of(SweepSpec spec) {
        return new RecordedCosts(spec.cost().parameters(), spec.cost().tokens(), PricedFabric.of(spec));
    }

    /** The values of {@link #COLUMNS}, in order. */
    public Object[] values() {
        TcoParameters p = parameters;
        return new Object[]{p.serverOverheadFactor(), p.interconnectFraction(), p.amortizationYears(),
                p.serverPowerFactor(), p.loadFraction(), p.pue(), p.usdPerKwh(), p.availabilityFraction(), tokens,
                fabricsJson()};
    }

    /**
     * Reads the columns back; {@code values} in {@link #COLUMNS} order as a manifest row holds them (numbers and
     * text). Returns null when the run predates these columns (any of them null).
     */
    public static RecordedCosts read(Object[] values) {
        for (Object v : values) {
            if (v == null) {
                return null;
            }
        }
        double[] n = new double[9];
        for (int i = 0; i < n.length; i++) {
            n[i] = ((Number) values[i]).doubleValue();
        }
        return new RecordedCosts(new TcoParameters(n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7]), n[8],
                parseFabrics(values[9].toString()));
    }

    /** The fabric of a row, or null when the row has no priced topology. */
    public PricedFabric fabric(String topology, String scaleOut, int scaleUpDomain, int gpuCount) {
        for (PricedFabric f : fabrics) {
            if (f.topology().equals(topology) && f.scaleOut().equals(scaleOut) && f.scaleUpDomain() == scaleUpDomain
                    && f.gpuCount() == gpuCount) {
                return f;
            }
        }
        return null;
    }

    String fabricsJson() {
        ArrayNode a = JSON.createArrayNode();
        for (PricedFabric f : fabrics) {
            NetworkCapex c = f.capex();
            ObjectNode o = a.addObject();
            o.put("topology", f.topology()).put("scale_out", f.scaleOut()).put("scale_up_domain", f.scaleUpDomain())
                    .put("gpu_count", f.gpuCount()).put("switches", c.switchCount()).put("optics", c.opticCount())
                    .put("cables", c.cableCount()).put("nics", c.nicCount()).put("switch_usd", c.switchUsd())
                    .put("optic_usd", c.opticUsd()).put("cable_usd", c.cableUsd()).put("nic_usd", c.nicUsd())
                    .put("switch_w", c.switchWatts());
        }
        return a.toString();
    }

    static List<PricedFabric> parseFabrics(String json) {
        try {
            List<PricedFabric> out = new ArrayList<>();
            for (JsonNode o : JSON.readTree(json)) {
                out.add(new PricedFabric(o.get("topology").asText(), o.get("scale_out").asText(),
                        o.get("scale_up_domain").asInt(), o.get("gpu_count").asInt(), new NetworkCapex(
                        o.get("switches").asInt(), o.get("optics").asInt(), o.get("cables").asInt(),
                        o.get("nics").asInt(), o.get("switch_usd").asDouble(), o.get("optic_usd").asDouble(),
                        o.get("cable_usd").asDouble(), o.get("nic_usd").asDouble(), o.get("switch_w").asDouble())));
            }
            return out;
        } catch (JsonProcessingException | NullPointerException e) {
            throw new IllegalStateException("unreadable cost_fabrics_json in the runs manifest: " + json, e);
        }
    }
}
