package io.ridgeline.jobs.cli;

import io.ridgeline.engine.calibration.SweepCalibration;
import io.ridgeline.engine.evaluation.Evaluator;
import io.ridgeline.engine.evaluation.PointStatus;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.sweep.PointLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code ridgeline eval}: one point, a one-point sweep. The point file is a sweep file of one point (same keys,
 * types, defaults and messages; sweeps/reference.yaml) and each flag sets one of its keys, named after it; flags win.
 * A plan that cannot run at the point is refused with the shape rules' messages, where a sweep would write a row with
 * its status. {@code --phase gemm} times one GEMM instead ({@link GemmEval}).
 */
@Command(name = "eval", mixinStandardHelpOptions = true, sortOptions = false, abbreviateSynopsis = true,
        modelTransformer = EvalCommand.Flags.class,
        description = {"Evaluate one point and print its time, memory and bottleneck breakdown.",
                "The point is a one-point sweep: --file takes a sweep file's keys (sweeps/reference.yaml, docs/"
                        + "SWEEPS.md) and each flag sets the key it is named after (--gpu-count = cluster.gpu_count, "
                        + "--tp = parallelism.plans[0].tp, ...). Flags win over the file; a plan flag makes the "
                        + "plan explicit (no search). --phase gemm times one GEMM (-m x -k by -k x -n) on --chip "
                        + "at --precision.",
                "--json prints the result row as one JSON object keyed by points-table column."})
public final class EvalCommand implements Callable<Integer> {
    /** A flag, the key it sets (null: not a sweep key) and its help; {@code optional}: a switch that may take a value. */
    private record Flag(String name, String key, String help, boolean optional) {
    }

    /** Keys of one section that flags set, with what the help adds to each (the phase or plan it applies to). */
    private record Keys(String prefix, String note, String... names) {
    }

    private static final String PLAN = "parallelism.plans[0].";
    /** The keys flags set, in the point file's key order; sweeps/reference.yaml says what each takes. */
    private static final List<Keys> KEYS = List.of(new Keys("phases[0].", "", "phase", "software"),
            new Keys("phases[0].", " (training)", "seq_len", "global_batch"),
            new Keys("phases[0].", " (inference)", "mode", "batch", "input_tokens", "output_tokens", "concurrency",
                    "requests_per_s", "disaggregation", "weight_precision", "activation_precision",
                    "kv_cache_precision", "cuda_graphs"),
            new Keys("network.", "", "scale_out", "scale_out_gbit_s", "scale_up_domain", "topology"),
            new Keys("cluster.", "", "gpu_count"),
            new Keys(PLAN, "", "tp", "pp", "dp", "ep", "sp", "precision"),
            new Keys(PLAN, " (training)", "cp", "vpp", "zero", "micro_batch", "recompute"),
            new Keys("output.", " (the ranked +10% table)", "sensitivity"));
    /** Every flag: --model and --chip, then each key's last name with '-' for '_', then the GEMM's dimensions. */
    private static final List<Flag> FLAGS = flags();

    private static List<Flag> flags() {
        List<Flag> out = new ArrayList<>();
        out.add(new Flag("--model", "models", "", false));
        out.add(new Flag("--chip", "hardware.presets", "", false));
        for (Keys k : KEYS) {
            for (String name : k.names()) {
                boolean isSwitch = name.equals("sp") || name.equals("cuda_graphs") || name.equals("sensitivity");
                out.add(new Flag("--" + name.replace('_', '-'), k.prefix() + name, k.note(), isSwitch));
            }
        }
        for (String[] d : new String[][]{{"-m", "rows of A and C"}, {"-n", "columns of B and C"},
            {"-k", "the inner dimension"}}) {
            out.add(new Flag(d[0], null, "--phase gemm: " + d[1], false));
        }
        return List.copyOf(out);
    }

    @Option(names = "--file", paramLabel = "YAML", description = "A point: a sweep file with one point.")
    Path file;
    @Mixin
    JsonOutput json = new JsonOutput();
    @Mixin
    CalibrationOption calibration = new CalibrationOption();
    @Spec
    CommandSpec spec;

    /** Adds the {@link #FLAGS} to the command: each a string option whose help names its key. */
    static final class Flags implements IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec command) {
            for (Flag f : FLAGS) {
                // picocli formats descriptions (String.format), so a literal '%' must be doubled.
                String help = (f.key() == null ? f.help() : f.key() + f.help()).replace("%", "%%");
                OptionSpec.Builder b = OptionSpec.builder(f.name()).type(String.class).paramLabel("VALUE")
                        .description(help);
                if (f.optional()) {
                    b.arity("0..1").fallbackValue("true");
                }
                command.addOption(b.build());
            }
            return command;
        }
    }

    @Override
    public Integer call() {
        Map<String, String> given = given();
        calibration.catalogs(); // a bad profile fails first, before the point is read
        if ("gemm".equals(given.get("--phase"))) {
            return GemmEval.run(calibration.catalogs().hardware(), given.get("--chip"), given.get("-m"),
                    given.get("-n"), given.get("-k"), given.get("--precision"), json.on);
        }
        Map<String, String> keys = new LinkedHashMap<>();
        for (Flag f : FLAGS) {
            if (f.key() != null && given.containsKey(f.name())) {
                keys.put(f.key(), given.get(f.name()));
            }
        }
        if (calibration.file != null) {
            keys.put("calibration", calibration.file.toAbsolutePath().toString()); // eval's point = a one-point sweep
        }
        PointLoader.Point point = PointLoader.read(file, keys);
        Evaluator evaluator = SweepCalibration.evaluator(point.spec());
        List<InputError> problems = new ArrayList<>();
        for (InputError e : evaluator.problems(0)) {
            problems.add(point.locate(e));
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        ResultRow row = evaluator.evaluate(0).get(0);
        if (row.status() == PointStatus.PLAN_SHAPE || row.status() == PointStatus.GPU_COUNT
                || row.status() == PointStatus.NO_VALID_PLAN) {
            // a rule the problem list does not cover (a format the chip lacks): the row says which
            throw new InvalidInputException(point.locate(InputError.of("plan", "plan", "a plan that runs on "
                    + row.chip().id(), row.detail())));
        }
        System.out.print(json.on ? EvalReport.json(row, calibration) : EvalReport.text(row, calibration));
        return row.status() == PointStatus.OK ? 0 : 3;
    }

    /** The value of every flag that was given, by flag name. */
    private Map<String, String> given() {
        ParseResult parsed = spec.commandLine().getParseResult();
        Map<String, String> out = new LinkedHashMap<>();
        for (Flag f : FLAGS) {
            String v = parsed.matchedOptionValue(f.name(), (String) null);
            if (v != null) {
                out.put(f.name(), v);
            }
        }
        return out;
    }
}
