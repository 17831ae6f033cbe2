package io.ridgeline.engine.spec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Text files shipped in the engine jar (catalogues, the sweep reference). A missing one is a packaging bug. */
public final class Resources {
    private Resources() {
    }

    /** The UTF-8 text of a classpath resource ("catalog/stacks.yaml", no leading slash). */
    public static String text(String resource) {
        try (InputStream in = Resources.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing bundled resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read bundled resource " + resource, e);
        }
    }
}
