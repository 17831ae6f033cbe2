package io.ridgeline.engine.sweep;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.spec.SpecNode;
import io.ridgeline.engine.spec.SpecNode.MapNode;
import io.ridgeline.engine.spec.SpecTreeReader;
import io.ridgeline.engine.spec.Utf8Text;
import io.ridgeline.engine.sweep.SweepSpec.Bound;
import io.ridgeline.engine.sweep.SweepSpec.Objective;
import io.ridgeline.engine.sweep.SweepSpec.Parallelism;
import io.ridgeline.engine.sweep.SweepSpec.Workload;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Reads a sweep file into a {@link SweepSpec}, collecting every problem before failing: each error names the file,
 * line and column, the field path, what was expected and what was found, with "did you mean" for misspelt keys and
 * catalogue names. One reader per section ({@link PhasesReader}, {@link HardwareReader}, {@link NetworkReader},
 * {@link ParallelismReader}, {@link GoalsReader}) over one shared pass ({@link SweepReader}); the keys each section
 * takes and their defaults are in sweeps/reference.yaml ({@link Reference}).
 */
public final class SweepLoader {
    private final ModelCatalog modelCatalog;
    private final HardwareCatalog hardwareCatalog;

    public SweepLoader(ModelCatalog modelCatalog, HardwareCatalog hardwareCatalog) {
        this.modelCatalog = modelCatalog;
        this.hardwareCatalog = hardwareCatalog;
    }

    /** Loads a sweep against the bundled catalogues. */
    public static SweepSpec load(Path file) {
        return new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled()).read(file);
    }

    public SweepSpec read(Path file) {
        byte[] bytes = Utf8Text.readBytes(file, "sweep file");
        return parse(file.toString(), Utf8Text.decode(file.toString(), bytes), sha256(bytes));
    }

    public SweepSpec parse(String source, String text) {
        return parse(source, text, sha256(text.getBytes(StandardCharsets.UTF_8)));
    }

    private SweepSpec parse(String source, String text, String sha) {
        return read(new SweepReader(source, modelCatalog, hardwareCatalog), SpecTreeReader.parse(source, text), sha);
    }

    /** Reads a parsed tree with a reader of its own (eval's reader tells flags from file lines). */
    SweepSpec read(SweepReader r, SpecNode rootNode, String sha) {
        SweepSpec spec = sweep(r, rootNode, sha);
        r.throwIfErrors();
        return spec;
    }

    /**
     * The {@code calibration:} key: a profile file written by {@code ridgeline calibrate}, resolved against the sweep
     * file's directory (a command-line value, or a sweep given as text, against the working directory). Its text
     * is read here so that the spec carries it to the executors; its content is checked where it is applied
     * (engine.calibration.CalibrationProfile, before anything runs). "" = none.
     */
    private static SweepSpec.CalibrationFile calibration(SweepReader r, SpecNode node) {
        String given = node == null ? null : r.string(node, "calibration");
        if (given == null || given.isEmpty()) {
            return null;
        }
        Path sweepFile = Path.of(r.source());
        Path base = java.nio.file.Files.isRegularFile(sweepFile) && sweepFile.getParent() != null
                ? sweepFile.getParent() : Path.of("");
        Path file = base.resolve(given).normalize();
        if (!java.nio.file.Files.isRegularFile(file) || !java.nio.file.Files.isReadable(file)) {
            r.error(node, "calibration", "a readable calibration profile written by `ridgeline calibrate` (a path "
                    + "relative to the sweep file's directory)", "'" + given + "' (no such file: " + file + ")");
            return null;
        }
        byte[] bytes = Utf8Text.readBytes(file, "calibration profile");
        return new SweepSpec.CalibrationFile(file.toString(), Utf8Text.decode(file.toString(), bytes), sha256(bytes));
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }

    private static SweepSpec sweep(SweepReader r, SpecNode rootNode, String sha) {
        MapNode root = r.map(rootNode, "(document)");
        if (root == null) {
            return null;
        }
        r.knownKeys(root, "", "");
        SpecNode nameNode = r.required(root, "", "name", "a sweep name");
        String name = nameNode == null ? null : r.name(nameNode, "name", SweepReader.NAME_RULE
                + " (it becomes part of run ids)");
        String description = r.string(r.value(root, "", "description"), "description");
        List<String> models = r.list(r.required(root, "", "models", "a list of model names"), "models",
                (n, p) -> r.catalogueName(n, p, r.models.models().keySet()));
        List<ModelSpec> resolved = new ArrayList<>();
        for (String m : models) {
            resolved.add(r.models.model(m));
        }
        List<Workload> workloads = new PhasesReader(r).read(r.required(root, "", "phases", "a list of phases"),
                resolved);
        for (Workload w : workloads) {
            r.phases.add(w.phase());
        }
        HardwareReader.Hardware hw = new HardwareReader(r).read(r.required(root, "", "hardware",
                "a mapping with presets and/or derived"));
        NetworkReader networkReader = new NetworkReader(r);
        NetworkReader.Network net = networkReader.read(root);
        Parallelism par = new ParallelismReader(r).read(r.required(root, "", "parallelism",
                "a mapping (mode: search or explicit)"));
        GoalsReader goals = new GoalsReader(r);
        CostSpec cost = goals.cost(root.get("cost"));
        r.tokensBudget = cost.tokens() > 0;
        List<Bound> bounds = goals.constraints(root.get("constraints"));
        List<Objective> objectives = goals.objectives(root.get("objectives"));
        List<GroupColumn> groupBy = goals.groupBy(root.get("frontier"));
        SweepSpec.PointsPolicy points = goals.points(root.get("output"));
        boolean sensitivity = goals.sensitivity(root.get("output"));
        double coverage = goals.intervalCoverage(root.get("output"));
        SweepSpec.CalibrationFile calibration = calibration(r, r.value(root, "", "calibration"));
        if (r.errors().isEmpty()) {
            networkReader.checkTopologies(root, net, hw);
        }
        if (!r.errors().isEmpty()) {
            return null;
        }
        SweepSpec spec = new SweepSpec(r.source(), name, description == null ? "" : description, sha, models,
                workloads, hw.chips(), net.scaleOuts(), net.gbps(), net.domains(), net.gpus(), par,
                new SweepSpec.Constraints(bounds), objectives, groupBy, points, hw.designs(), hw.unbuildable(),
                net.topologies(), cost, sensitivity, calibration, coverage);
        try {
            spec.grid();
        } catch (ArithmeticException e) {
            r.error(root, "(grid)", "fewer than 2^63 points", "an overflowing product of axis sizes");
        }
        return spec;
    }
}
