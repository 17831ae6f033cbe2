package io.ridgeline.jobs.sweep;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The process that holds a run id: pid, host, when that process started (to tell a reused pid apart) and when the run
 * began. Written into the run's lock file as {@code key=value} lines and read back by the next run to decide whether
 * the holder is alive.
 *
 * @param processStart the owner process's start as the OS reports it; null where the platform does not say
 * @param staging      name of the owner's staging directory under {@code _staging}
 */
public record RunOwner(long pid, String host, Instant processStart, Instant startedAt, String staging) {

    /** This JVM, starting a run now with the given staging directory. */
    public static RunOwner current(String staging) {
        ProcessHandle self = ProcessHandle.current();
        return new RunOwner(self.pid(), localHost(), self.info().startInstant().orElse(null), Instant.now(), staging);
    }

    static String localHost() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            String env = System.getenv("HOSTNAME");
            return env == null || env.isBlank() ? "unknown-host" : env;
        }
    }

    /** The lock file's text. */
    String toText() {
        return "pid=" + pid + "\nhost=" + host + "\nprocess_start=" + (processStart == null ? "" : processStart)
                + "\nstarted_at=" + startedAt + "\nstaging=" + staging + "\n";
    }

    /** Parses {@link #toText()}; empty for text that is not a complete owner record (a lock cut short by a crash). */
    static Optional<RunOwner> parse(String text) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                kv.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
            }
        }
        try {
            String ps = kv.get("process_start");
            return Optional.of(new RunOwner(Long.parseLong(kv.get("pid")), require(kv.get("host")),
                    ps == null || ps.isEmpty() ? null : Instant.parse(ps), Instant.parse(kv.get("started_at")),
                    require(kv.get("staging"))));
        } catch (NumberFormatException | DateTimeParseException | NullPointerException e) {
            return Optional.empty();
        }
    }

    private static String require(String s) {
        if (s == null || s.isEmpty()) {
            throw new NullPointerException("missing");
        }
        return s;
    }

    /**
     * True only when this owner certainly no longer runs: it is on this host and its pid is gone, or the pid now
     * belongs to a process that started at another time (the pid was reused). Other hosts are never judged here.
     */
    boolean provablyDeadOnThisHost() {
        if (!host.equals(localHost())) {
            return false;
        }
        Optional<ProcessHandle> p = ProcessHandle.of(pid);
        if (p.isEmpty() || !p.get().isAlive()) {
            return true;
        }
        Optional<Instant> start = p.get().info().startInstant();
        return processStart != null && start.isPresent() && !start.get().equals(processStart);
    }

    /** How the holder reads in a message: "pid 1234 on host h since 2026-01-01T00:00:00Z". */
    String describe() {
        return "pid " + pid + " on host " + host + " since " + startedAt;
    }
}
