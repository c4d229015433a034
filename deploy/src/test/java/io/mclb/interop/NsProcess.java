package io.mclb.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A background process started inside a {@link Netns}, its stdout and stderr in one log file.
 * {@code ip netns exec} (and {@code stdbuf}) exec the program in place, so {@link #pid()} is the
 * program's own pid: stopping it needs no name matching.
 *
 * <p>Contract: {@link #stop(Duration)} always leaves the process (and any children) dead, first
 * politely (SIGTERM, which lets sgsnemu delete its contexts and tshark flush its file), then by
 * SIGKILL; it is idempotent. The owning {@link Netns} stops every process it started on close.
 */
public final class NsProcess {
    private final String name;
    private final Process process;
    private final Path log;

    NsProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public Path log() {
        return log;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The exit code, waiting at most {@code timeout}; -1 if still running then. */
    public int waitFor(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    }

    /** The log as it is now (the process may still be writing). */
    public List<String> lines() {
        try {
            return Files.exists(log) ? List.of(Files.readString(log, StandardCharsets.UTF_8).split("\n", -1)) : List.of();
        } catch (IOException e) {
            return List.of("(unreadable log " + log + ": " + e.getMessage() + ")");
        }
    }

    /** The last {@code n} lines of the log, for failure messages. */
    public String tail(int n) {
        List<String> l = lines();
        return String.join("\n", l.subList(Math.max(0, l.size() - n), l.size()));
    }

    /**
     * Polls the log until {@code done} holds for its lines, the process exits, or {@code timeout}
     * passes; returns whether {@code done} held.
     */
    public boolean awaitLog(Predicate<List<String>> done, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            if (done.test(lines())) {
                return true;
            }
            if (!process.isAlive()) {
                return done.test(lines());
            }
            Thread.sleep(100);
        }
        return done.test(lines());
    }

    /** Sends SIGTERM only (no wait): for programs whose clean-up the test then watches in the log. */
    public void terminate() {
        process.toHandle().descendants().forEach(ProcessHandle::destroy);
        process.destroy();
    }

    /** SIGTERM, up to {@code grace} to exit, then SIGKILL to it and its children; bounded. */
    public void stop(Duration grace) throws InterruptedException {
        if (!process.isAlive()) {
            return;
        }
        List<ProcessHandle> children = process.toHandle().descendants().toList();
        process.destroy();
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
        for (ProcessHandle c : children) {
            if (c.isAlive()) {
                c.destroyForcibly();
            }
        }
    }

    @Override
    public String toString() {
        return name + "(pid " + pid() + ", log " + log + ")";
    }
}
