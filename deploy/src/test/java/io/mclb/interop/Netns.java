package io.mclb.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A private network namespace for one interop test: its own loopback (all of 127.0.0.0/8 is
 * bindable on {@code lo} without adding addresses), so peers, mclb and captures never touch the
 * host's interfaces or collide with another test run.
 *
 * <p>Life cycle: {@link #create(Path)} makes {@code mclb-it-<random>} and brings {@code lo} up;
 * {@link #start} runs background programs inside it, logging to the test's directory;
 * {@link #close()} stops them (SIGTERM, then SIGKILL), kills whatever else still runs inside
 * this namespace (only this test can have started it: the name is random), and deletes the
 * namespace, which also removes the tun devices osmo-ggsn made in it. Every command is bounded by
 * a timeout. A JVM shutdown hook does the same clean-up if the test JVM is stopped mid-test.
 *
 * <p>Needs root (or CAP_SYS_ADMIN + CAP_NET_ADMIN) and {@code ip} from iproute2.
 */
public final class Netns implements AutoCloseable {
    private static final Duration CMD_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final String name;
    private final Path dir;
    private final List<NsProcess> started = Collections.synchronizedList(new ArrayList<>());
    private final Thread hook;
    private boolean closed;

    private Netns(String name, Path dir) {
        this.name = name;
        this.dir = dir;
        this.hook = new Thread(this::closeQuietly, "netns-cleanup-" + name);
    }

    /** Creates the namespace with {@code lo} up; logs of started programs go under {@code dir}. */
    public static Netns create(Path dir) throws IOException, InterruptedException {
        byte[] r = new byte[4];
        new SecureRandom().nextBytes(r);
        Netns ns = new Netns("mclb-it-" + HexFormat.of().formatHex(r), dir);
        Files.createDirectories(dir);
        host(CMD_TIMEOUT, "ip", "netns", "add", ns.name).check("ip netns add");
        Runtime.getRuntime().addShutdownHook(ns.hook);
        try {
            host(CMD_TIMEOUT, "ip", "-n", ns.name, "link", "set", "lo", "up").check("ip link set lo up");
        } catch (RuntimeException | IOException | InterruptedException e) {
            ns.close();
            throw e;
        }
        return ns;
    }

    public String name() {
        return name;
    }

    public Path dir() {
        return dir;
    }

    /** Runs a command inside the namespace to completion (at most {@code timeout}), output captured. */
    public Result exec(Duration timeout, String... cmd) throws IOException, InterruptedException {
        return host(timeout, inside(List.of(cmd)).toArray(String[]::new));
    }

    /**
     * A veth pair from this namespace ({@code here}) to {@code peer} ({@code there}), both ends up
     * with their addresses ({@code 10.0.0.1/24}, {@code fd00::1/64}: IPv6 without duplicate address
     * detection, so it is usable at once). Deleted with either namespace.
     */
    public void linkTo(Netns peer, String here, List<String> hereAddresses, String there, List<String> thereAddresses)
            throws IOException, InterruptedException {
        host(CMD_TIMEOUT, "ip", "link", "add", here, "netns", name, "type", "veth", "peer", "name", there, "netns",
                peer.name).check("ip link add veth");
        for (String a : hereAddresses) {
            address(this, here, a);
        }
        for (String a : thereAddresses) {
            address(peer, there, a);
        }
        host(CMD_TIMEOUT, "ip", "-n", name, "link", "set", here, "up").check("ip link set up");
        host(CMD_TIMEOUT, "ip", "-n", peer.name, "link", "set", there, "up").check("ip link set up");
    }

    private static void address(Netns ns, String dev, String cidr) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip", "-n", ns.name, "addr", "add", cidr, "dev", dev));
        if (cidr.contains(":")) {
            cmd.add("nodad");
        }
        host(CMD_TIMEOUT, cmd.toArray(String[]::new)).check("ip addr add " + cidr);
    }

    /** Starts {@code cmd} in the background inside the namespace; output to {@code <dir>/<logName>.log}. */
    public NsProcess start(String logName, List<String> cmd) throws IOException {
        Path log = dir.resolve(logName + ".log");
        Process p = new ProcessBuilder(inside(cmd)).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        NsProcess np = new NsProcess(logName, p, log);
        started.add(np);
        return np;
    }

    /**
     * Waits until every {@code ADDR:PORT} in {@code endpoints} has a UDP socket bound inside the
     * namespace ({@code ss -ulpn}), or fails with the socket list after {@code timeout}; also fails
     * early if {@code owner} exits meanwhile.
     */
    public void awaitUdpListening(NsProcess owner, Duration timeout, String... endpoints) throws IOException, InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (true) {
            last = exec(CMD_TIMEOUT, "ss", "-H", "-ulpn").output();
            boolean all = true;
            for (String e : endpoints) {
                if (!last.contains(" " + e + " ")) {
                    all = false;
                }
            }
            if (all) {
                return;
            }
            if (!owner.isAlive()) {
                throw new IllegalStateException(owner + " exited before binding " + List.of(endpoints) + "; log:\n" + owner.tail(30));
            }
            if (System.nanoTime() > end) {
                throw new IllegalStateException(owner + " did not bind " + List.of(endpoints) + " within " + timeout
                        + "; sockets:\n" + last + "\nlog:\n" + owner.tail(30));
            }
            Thread.sleep(200);
        }
    }

    /**
     * Runs a test body; if it fails, prints the tail of every started program's log first (the
     * temporary directory may be gone by the time anyone looks), then rethrows.
     */
    public void run(Body body) throws Exception {
        try {
            body.run();
        } catch (Throwable t) {
            printLogTails(40);
            throw t;
        }
    }

    /** A test body that may throw. */
    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }

    public void printLogTails(int lines) {
        List<NsProcess> copy;
        synchronized (started) {
            copy = List.copyOf(started);
        }
        StringBuilder sb = new StringBuilder();
        for (NsProcess p : copy) {
            sb.append("==== ").append(p).append(p.isAlive() ? " (running)" : " (exited)").append('\n')
                    .append(p.tail(lines)).append('\n');
        }
        System.err.println(sb);
    }

    /** Stops everything started here, kills leftovers in the namespace and deletes it. */
    @Override
    public synchronized void close() throws InterruptedException, IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // called from the hook itself
        }
        List<NsProcess> copy;
        synchronized (started) {
            copy = new ArrayList<>(started);
        }
        Collections.reverse(copy);
        for (NsProcess p : copy) {
            p.stop(STOP_GRACE);
        }
        // anything still running in this namespace (children we did not track) is ours by construction
        Result pids = host(CMD_TIMEOUT, "ip", "netns", "pids", name);
        for (String pid : pids.output().split("\\s+")) {
            if (!pid.isBlank()) {
                ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
        host(CMD_TIMEOUT, "ip", "netns", "del", name).check("ip netns del " + name);
    }

    private void closeQuietly() {
        try {
            close();
        } catch (Exception e) {
            System.err.println("netns " + name + ": clean-up failed: " + e);
        }
    }

    private List<String> inside(List<String> cmd) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", name));
        full.addAll(cmd);
        return full;
    }

    /** Runs a command in the test's own namespace; output (stdout + stderr) captured, bounded. */
    static Result host(Duration timeout, String... cmd) throws IOException, InterruptedException {
        Path out = Files.createTempFile("netns-cmd", ".out");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                return new Result(List.of(cmd), -1, Files.readString(out, StandardCharsets.UTF_8) + "\n(timed out after " + timeout + ")");
            }
            return new Result(List.of(cmd), p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** A finished command: its exit code (-1 on timeout) and combined output. */
    public record Result(List<String> cmd, int exit, String output) {
        /** Throws with the command and its output unless it exited 0. */
        public Result check(String what) {
            if (exit != 0) {
                throw new IllegalStateException(what + " failed (exit " + exit + "): " + String.join(" ", cmd) + "\n" + output);
            }
            return this;
        }
    }
}
