package io.ridgeline.engine.sweep;

import io.ridgeline.engine.spec.SpecNode;
import io.ridgeline.engine.spec.SpecNode.ListNode;
import io.ridgeline.engine.spec.SpecNode.MapNode;
import io.ridgeline.engine.spec.SpecNode.Scalar;
import io.ridgeline.engine.spec.Resources;
import io.ridgeline.engine.spec.SpecTreeReader;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The sweep vocabulary's reference file, {@code sweeps/reference.yaml} (in the engine jar as
 * {@code ridgeline/reference.yaml}): which keys each section takes and their literal defaults, in the manner of
 * Caffeine's reference.conf. A key a spec leaves out is read from here with the same typed readers; a key that is not
 * here is unknown. A {@code ~} value has no literal default (required, or computed; the readers say which).
 */
final class Reference {
    static final String RESOURCE = "ridgeline/reference.yaml";
    private static final Supplier<Reference> BUNDLED = Resources.once(
            () -> new Reference((MapNode) SpecTreeReader.parse(RESOURCE, Resources.text(RESOURCE))));

    private final MapNode root;

    private Reference(MapNode root) {
        this.root = root;
    }

    /** The bundled reference, parsed once. */
    static Reference bundled() {
        return BUNDLED.get();
    }

    /** The node at a dotted path ("parallelism.tp"), or null when the reference writes {@code ~} there. */
    SpecNode at(String path) {
        SpecNode n = root;
        for (String key : path.split("\\.")) {
            if (!(n instanceof MapNode m) || !m.values().containsKey(key)) {
                throw new IllegalStateException("sweeps/reference.yaml has no key " + path);
            }
            n = m.get(key);
        }
        return n instanceof Scalar s && s.kind() == Scalar.Kind.NULL ? null : n;
    }

    /** The keys of the mapping at a path ("" = the document), in file order: what that section takes. */
    List<String> keys(String path) {
        SpecNode n = path.isEmpty() ? root : at(path);
        if (n instanceof ListNode l) {
            List<String> out = new ArrayList<>();
            for (SpecNode item : l.items()) {
                for (String k : ((MapNode) item).values().keySet()) {
                    if (!out.contains(k)) {
                        out.add(k);
                    }
                }
            }
            return out;
        }
        return List.copyOf(((MapNode) n).values().keySet());
    }

    /** The keys of a section whose default is a list: the axes a search crosses ("parallelism" -> tp, pp, ...). */
    List<String> listKeys(String path) {
        List<String> out = new ArrayList<>();
        for (String k : keys(path)) {
            if (at(path + "." + k) instanceof ListNode) {
                out.add(k);
            }
        }
        return out;
    }
}
