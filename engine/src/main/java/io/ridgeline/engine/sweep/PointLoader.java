package io.ridgeline.engine.sweep;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.SpecNode;
import io.ridgeline.engine.spec.Utf8Text;
import io.ridgeline.engine.spec.SpecNode.ListNode;
import io.ridgeline.engine.spec.SpecNode.MapNode;
import io.ridgeline.engine.spec.SpecNode.Scalar;
import io.ridgeline.engine.spec.SpecTreeReader;
import io.ridgeline.engine.workload.ModelCatalog;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An {@code eval} point: a one-point sweep, with the same keys, types, defaults and messages as sweep files
 * (sweeps/reference.yaml), read from an optional file with command-line values on top. A value is set by its key path,
 * as a flag names it: {@code models}, {@code phases[0].seq_len}, {@code parallelism.plans[0].tp}; a plan value makes
 * the parallelism explicit. {@code name} is optional (a point is not a run). Errors at a command-line value name the
 * command line; errors at the file's lines name the file.
 */
public final class PointLoader {
    public static final String COMMAND_LINE = "command line";
    private static final String PLAN = "parallelism.plans[0]";

    /** A valid one-point spec and where its plan was written (for errors about the plan). */
    public record Point(SweepSpec spec, String file, MapNode plan, Set<SpecNode> flags) {
        /**
         * A problem of the plan ({@code plan.tp} ...) at the place it was written: the plan key in the file or the
         * flag, e.g. {@code command line: parallelism.plans[0].tp: expected ..., found 5}.
         */
        public InputError locate(InputError e) {
            String key = e.fieldPath().startsWith("plan.") ? e.fieldPath().substring("plan.".length()) : "";
            SpecNode at = plan == null ? null : key.isEmpty() || plan.get(key) == null ? plan : plan.get(key);
            boolean flag = at == null || flags.contains(at);
            String where = plan == null ? "parallelism" : key.isEmpty() ? PLAN : PLAN + "." + key;
            return new InputError(flag ? COMMAND_LINE : file, flag ? 0 : at.line(), flag ? 0 : at.column(), where,
                    e.expected(), e.found());
        }
    }

    private PointLoader() {
    }

    /**
     * Reads a point.
     *
     * @param file   a point file (a sweep file of one point), or null
     * @param values key path to the text of a command-line value, in order
     * @throws InvalidInputException with every problem, or when the spec has more than one point
     */
    public static Point read(Path file, Map<String, String> values) {
        Set<SpecNode> flags = Collections.newSetFromMap(new IdentityHashMap<>());
        String source = file == null ? COMMAND_LINE : file.toString();
        MapNode root = file == null ? map(flags) : fileRoot(file);
        for (Map.Entry<String, String> v : values.entrySet()) {
            if (v.getKey().startsWith("parallelism.plans[")) {
                set(root, "parallelism.mode", scalar("explicit", flags), flags);
            }
            set(root, v.getKey(), scalar(v.getValue(), flags), flags);
        }
        if (root.get("name") == null) {
            set(root, "name", scalar("eval", flags), flags); // a point is not a run: its name is optional
        }
        SweepReader r = new SweepReader(source, ModelCatalog.bundled(), HardwareCatalog.bundled()) {
            @Override
            public void error(SpecNode at, String path, String expected, String found) {
                if (flags.contains(at)) {
                    errors.add(InputError.of(COMMAND_LINE, path, expected, found));
                } else {
                    super.error(at, path, expected, found);
                }
            }
        };
        SweepSpec spec = new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled()).read(r, root,
                SweepLoader.sha256(root.toString().getBytes(StandardCharsets.UTF_8)));
        if (spec.grid().size() != 1) {
            r.error(root, "(grid)", "one point (eval evaluates one; a sweep runs grids)", spec.grid().size()
                    + " points: " + axes(spec));
            r.throwIfErrors();
        }
        MapNode plan = null;
        if (at(root, "parallelism") instanceof MapNode par && par.get("plans") instanceof ListNode l
                && l.items().get(0) instanceof MapNode m) {
            plan = m;
        }
        return new Point(spec, source, plan, flags);
    }

    private static MapNode fileRoot(Path file) {
        String text = new String(Utf8Text.readBytes(file, "point file"), StandardCharsets.UTF_8);
        SpecNode root = SpecTreeReader.parse(file.toString(), text);
        if (root instanceof MapNode m) {
            return m;
        }
        throw new InvalidInputException(new InputError(file.toString(), root.line(), root.column(), "(document)",
                "a mapping (key: value lines)", root.describe()));
    }

    /** Which axes have more than one value, as the sweep header names them. */
    private static String axes(SweepSpec s) {
        List<String> out = new ArrayList<>();
        String[] names = {"models", "phase settings", "chips", "scale-out networks", "rates", "domains",
            "topologies", "cluster sizes", "plans"};
        for (int a = 0; a < names.length; a++) {
            if (s.grid().radix(a) > 1) {
                out.add(s.grid().radix(a) + " " + names[a]);
            }
        }
        return String.join(" x ", out);
    }

    /** A command-line value typed as YAML would type it ("8" an integer, "true" a boolean, "bf16" a string). */
    private static SpecNode scalar(String text, Set<SpecNode> flags) {
        SpecNode parsed;
        try {
            parsed = SpecTreeReader.parse(COMMAND_LINE, text);
        } catch (InvalidInputException e) {
            parsed = null;
        }
        Scalar s = parsed instanceof Scalar p ? new Scalar(0, 0, p.kind(), p.text())
                : new Scalar(0, 0, Scalar.Kind.STRING, text);
        flags.add(s);
        return s;
    }

    private static MapNode map(Set<SpecNode> flags) {
        MapNode m = new MapNode(0, 0, new LinkedHashMap<>(), new HashMap<>());
        flags.add(m);
        return m;
    }

    /** Puts a value at a key path, making the maps and one-element lists on the way ("a.b[0].c"). */
    private static void set(MapNode root, String path, SpecNode value, Set<SpecNode> flags) {
        String[] keys = path.split("\\.");
        MapNode m = root;
        for (int i = 0; i < keys.length; i++) {
            String key = keys[i];
            boolean item = key.endsWith("[0]");
            String name = item ? key.substring(0, key.length() - 3) : key;
            if (i == keys.length - 1) {
                put(m, name, value);
                return;
            }
            SpecNode next = m.get(name);
            if (item) {
                if (!(next instanceof ListNode l) || l.items().isEmpty()) {
                    next = new ListNode(0, 0, new ArrayList<>(List.of(map(flags))));
                    flags.add(next);
                    put(m, name, next);
                }
                next = ((ListNode) next).items().get(0);
            }
            if (!(next instanceof MapNode)) {
                next = map(flags);
                put(m, name, next);
            }
            m = (MapNode) next;
        }
    }

    private static void put(MapNode m, String key, SpecNode value) {
        if (!m.values().containsKey(key)) {
            m.keyPositions().put(key, new int[]{value.line(), value.column()});
        }
        m.values().put(key, value);
    }

    private static SpecNode at(MapNode m, String key) {
        return m == null ? null : m.get(key);
    }
}
