package io.ridgeline.engine.spec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * What the engine jar ships (catalogues, the sweep reference): their text, and each loaded once on first use. A
 * missing file is a packaging bug.
 */
public final class Resources {
    private Resources() {
    }

    /**
     * A value computed on the first {@code get()}, once, whichever thread asks first (a bundled catalogue is parsed
     * when first needed, then shared).
     */
    public static <T> Supplier<T> once(Supplier<T> load) {
        return new Supplier<>() {
            private Supplier<T> pending = load;
            private volatile T value;

            @Override
            public T get() {
                T v = value;
                if (v == null) {
                    synchronized (this) {
                        v = value;
                        if (v == null) {
                            v = pending.get();
                            value = v;
                            pending = null;
                        }
                    }
                }
                return v;
            }
        };
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
