package io.ridgeline.engine.sensitivity;

import io.ridgeline.engine.energy.ChipEnergy;
import io.ridgeline.engine.evaluation.Evaluator;
import io.ridgeline.engine.evaluation.PlanResult;
import io.ridgeline.engine.evaluation.PointStatus;
import io.ridgeline.engine.evaluation.Resource;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.evaluation.RowAnalysis;
import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.sweep.DerivedDesign;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.technology.ChipBuilder;
import io.ridgeline.engine.technology.DieCost;
import io.ridgeline.engine.technology.TechnologyCatalog;
import io.ridgeline.engine.workload.ModelCatalog;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The analysis columns of every emitted row (docs/SENSITIVITY.md): the energy split always, and with {@code
 * output.sensitivity} the speed-up of tokens/s (and of TPOT on inference rows) from +10% of each {@link Resource},
 * holding the row's plan ({@link Evaluator#evaluatePlan}) and re-searching it (the sweep's own selection on the
 * improved hardware), per kUSD and per kW of what the +10% costs ({@link ResourcePrices}), and the resource to buy
 * first.
 *
 * <p>Each resource has its own {@link Evaluator} over the same spec whose systems are {@link Perturbation}s of the
 * originals, built once per hardware point and cached there, with its own engines and caches, so alternating between
 * resources never rebuilds a GEMM model or evicts a shape cache. FLOPS has one per precision (its perturbation is the
 * peak of the plan's format). Per row: 7 plan-fixed evaluations and 7 searches.
 */
public final class SensitivityAnalysis implements RowAnalysis {
    /** The service entry ({@code META-INF/services}). */
    public static final class Provider implements RowAnalysis.Provider {
        @Override
        public RowAnalysis create(SweepSpec spec, ModelCatalog models, HardwareCatalog hardware,
                                  StackCatalog stacks) {
            return new SensitivityAnalysis(spec, models, hardware, stacks);
        }
    }

    private static final Resource[] RESOURCES = Resource.values();
    private static final Metric[] SENSITIVITY_COLUMNS = sensitivityColumns();
    private static final Precision[] PRECISIONS = Precision.values();
    private static final String[] PRECISION_IDS = java.util.Arrays.stream(PRECISIONS).map(Precision::id)
            .toArray(String[]::new);
    private final SweepSpec spec;
    private final ModelCatalog models;
    private final HardwareCatalog hardware;
    private final StackCatalog stacks;
    private final TechnologyCatalog tech = TechnologyCatalog.bundled();
    private final Evaluator[] evaluators = new Evaluator[RESOURCES.length];
    private final Evaluator[] flopsByPrecision = new Evaluator[Precision.values().length];
    private final double[] scratch = new double[Metric.values().length];
    private final Map<SystemSpec, ChipEnergy> energies = new IdentityHashMap<>();
    private final Map<SystemSpec, ResourcePrices> prices = new IdentityHashMap<>();
    private final Map<Chip, GemmModel> gemms = new HashMap<>();
    private final EnergyColumns energyColumns = new EnergyColumns();
    /** Safety margin on the 1.1x bound of {@link #search} (rounding; queueing terms of online serving). */
    static final double BOUND_MARGIN = 0.02;
    private final boolean explicit;

    SensitivityAnalysis(SweepSpec spec, ModelCatalog models, HardwareCatalog hardware, StackCatalog stacks) {
        this.spec = spec;
        this.models = models;
        this.hardware = hardware;
        this.stacks = stacks;
        this.explicit = spec.parallelism().mode() == SweepSpec.Mode.EXPLICIT;
    }

    @Override
    public long analyse(Evaluator source, ResultRow row, PlanResult result, SystemSpec system) {
        EnergyColumns.clear(row);
        for (Metric m : SENSITIVITY_COLUMNS) {
            row.set(m, Double.NaN);
        }
        if (result == null || Double.isNaN(row.metric(Metric.ENERGY_PER_TOKEN_J))) {
            return 0; // not timed
        }
        Precision p = precision(row.text(ResultRow.Text.PRECISION));
        if (p == null) {
            return 0; // a phase that writes no math format: no coefficients to split by
        }
        energyColumns.fill(result, system, energy(system), p, row);
        if (!spec.sensitivity() || row.status() != PointStatus.OK) {
            return 0;
        }
        return sensitivities(source, row, system, p);
    }

    private long sensitivities(Evaluator source, ResultRow row, SystemSpec system, Precision p) {
        long evaluations = 0;
        double rate = row.metric(Metric.TOKENS_PER_S);
        double tpot = row.metric(Metric.TPOT_S);
        ResourcePrices price = prices(system);
        Resource first = null;
        Resource firstPerWatt = null;
        double best = 0;
        double bestPerWatt = 0;
        for (Resource r : RESOURCES) {
            Evaluator ev = evaluator(r, p);
            long before = ev.evaluations();
            boolean eligible = ev.evaluatePlan(row.pointIndex(), row.planIndex(), scratch);
            double fixedRate = scratch[Metric.TOKENS_PER_S.ordinal()];
            row.set(r.fixedPlan(), fixedRate / rate - 1);
            row.set(r.tpot(), tpot / scratch[Metric.TPOT_S.ordinal()] - 1);
            double searched = search(source, ev, r, row, eligible ? fixedRate : Double.NaN) / rate - 1;
            evaluations += ev.evaluations() - before;
            row.set(r.searched(), searched);
            double perKiloUsd = searched / (price.usd(r) / 1e3);
            double watts = price.watts(r);
            double perKiloWatt = watts > 0 ? searched / (watts / 1e3) : Double.NaN;
            row.set(r.perKiloUsd(), perKiloUsd);
            row.set(r.perKiloWatt(), perKiloWatt);
            if (searched > 0 && perKiloUsd > best) {
                best = perKiloUsd;
                first = r;
            }
            if (searched > 0 && perKiloWatt > bestPerWatt) {
                bestPerWatt = perKiloWatt;
                firstPerWatt = r;
            }
        }
        row.set(ResultRow.Text.INVEST_FIRST, first == null ? null : first.id());
        row.set(ResultRow.Text.INVEST_FIRST_PER_W, firstPerWatt == null ? null : firstPerWatt.id());
        return evaluations;
    }

    /**
     * The highest tokens/s of an eligible plan of the row's point on {@code r}'s improved hardware, starting from the
     * row's own plan there ({@code fixedRate}, NaN when it is not eligible). +10% of one resource speeds no plan up by
     * more than 1.1x (every time term scales with at most one resource, as 1/resource; discrete choices take the best
     * of such terms), so a plan whose rate on the original hardware x 1.1 cannot beat the best so far is not re-run
     * ({@link #BOUND_MARGIN} on top). Capacity changes what fits and how much is recomputed: every plan that ran or
     * missed only memory is re-run.
     */
    private double search(Evaluator source, Evaluator ev, Resource r, ResultRow row, double fixedRate) {
        if (explicit) {
            return fixedRate;
        }
        double best = fixedRate;
        double limit = (1 + Resource.STEP_FRACTION) * (1 + BOUND_MARGIN);
        int own = row.planIndex();
        for (int i = 0; i < source.lastPlans(); i++) {
            if (i == own) {
                continue;
            }
            double base = source.planRate(i);
            boolean candidate = r == Resource.HBM_CAPACITY ? !Double.isNaN(base) || source.planMissedMemory(i)
                    : base * limit > best || (Double.isNaN(best) && !Double.isNaN(base));
            if (candidate && ev.evaluatePlan(row.pointIndex(), i, scratch)) {
                double v = scratch[Metric.TOKENS_PER_S.ordinal()];
                if (!(v <= best)) {
                    best = v;
                }
            }
        }
        return best;
    }

    /** The evaluator of {@code r}'s improved hardware (FLOPS: of format {@code p}), made on first use. */
    private Evaluator evaluator(Resource r, Precision p) {
        Evaluator[] slots = r == Resource.FLOPS ? flopsByPrecision : evaluators;
        int slot = r == Resource.FLOPS ? p.ordinal() : r.ordinal();
        Evaluator ev = slots[slot];
        if (ev == null) {
            ev = new Evaluator(spec, models, hardware, stacks, s -> Perturbation.improve(r, s, p));
            slots[slot] = ev;
        }
        return ev;
    }

    /** The energy coefficients the engines used for this system (ChipEnergy.of with the chip's GEMM model). */
    private ChipEnergy energy(SystemSpec system) {
        ChipEnergy e = energies.get(system);
        if (e == null) {
            GemmModel gemm = gemms.computeIfAbsent(system.chip(), GemmModel::new);
            e = ChipEnergy.of(system, tech, gemm);
            energies.put(system, e);
        }
        return e;
    }

    private ResourcePrices prices(SystemSpec system) {
        ResourcePrices pr = prices.get(system);
        if (pr == null) {
            Chip chip = system.chip();
            String node = hardware.logicNode(chip.id());
            double dieMm2 = ResourcePrices.PRESET_DIE_MM2;
            double markup = ChipBuilder.DEFAULT_PRICE_MARKUP;
            for (DerivedDesign d : spec.derived()) {
                if (d.id().equals(chip.id())) {
                    node = d.node();
                    dieMm2 = d.dieAreaMm2();
                    DieCost cost = d.derive(tech).cost();
                    markup = cost.priceUsd() / cost.manufacturingUsd();
                }
            }
            pr = new ResourcePrices(system, tech, node, dieMm2, markup, energy(system));
            prices.put(system, pr);
        }
        return pr;
    }

    /** The row's precision cell as a format (null when it has none), without Names.parse's per-call array copy (this runs per row). */
    private static Precision precision(String id) {
        for (int i = 0; i < PRECISION_IDS.length; i++) {
            if (PRECISION_IDS[i].equals(id)) {
                return PRECISIONS[i];
            }
        }
        return null;
    }

    private static Metric[] sensitivityColumns() {
        int n = 0;
        for (Metric m : Metric.values()) {
            n += m.sensitivity() ? 1 : 0;
        }
        Metric[] out = new Metric[n];
        int i = 0;
        for (Metric m : Metric.values()) {
            if (m.sensitivity()) {
                out[i++] = m;
            }
        }
        return out;
    }
}
