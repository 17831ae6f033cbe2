package io.ridgeline.jobs.sweep;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** What produced a run: catalogue contents, code version. Recorded in the runs manifest. */
public final class Versions {
    /** The bundled catalogue files (engine resources) whose bytes define the catalogue version. */
    static final List<String> CATALOG_FILES = List.of("/catalog/chips.csv", "/catalog/families.csv",
            "/catalog/models.csv", "/catalog/nccl_allreduce_8gpu.csv", "/catalog/scaleout.csv");

    private Versions() {
    }

    /** SHA-256 over the bundled catalogue files, in a fixed order. */
    public static String catalogSha256() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (String f : CATALOG_FILES) {
                try (InputStream in = Versions.class.getResourceAsStream(f)) {
                    if (in == null) {
                        throw new IllegalStateException("missing bundled catalogue " + f);
                    }
                    md.update(f.getBytes(StandardCharsets.UTF_8));
                    md.update(in.readAllBytes());
                }
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException | IOException e) {
            throw new IllegalStateException("cannot hash the catalogue", e);
        }
    }

    /**
     * Project version plus git commit: from {@code -Dridgeline.git.commit} (the launcher sets it), else from git in
     * the working directory, else "unknown". A "-dirty" suffix marks uncommitted changes.
     */
    public static String codeVersion() {
        String version = Versions.class.getPackage().getImplementationVersion();
        String commit = System.getProperty("ridgeline.git.commit");
        if (commit == null || commit.isBlank()) {
            commit = git("rev-parse", "--short=12", "HEAD");
            if (commit != null) {
                String status = git("status", "--porcelain", "--untracked-files=no");
                if (status != null && !status.isBlank()) {
                    commit += "-dirty";
                }
            }
        }
        return (version == null ? "dev" : version) + "+" + (commit == null ? "unknown" : commit);
    }

    private static String git(String... args) {
        try {
            String[] cmd = new String[args.length + 1];
            cmd[0] = "git";
            System.arraycopy(args, 0, cmd, 1, args.length);
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return null;
            }
            return out;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
