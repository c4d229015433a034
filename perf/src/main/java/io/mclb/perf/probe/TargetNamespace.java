package io.mclb.perf.probe;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The targets of {@link ProbeCostBenchmark} behind a veth pair in a network namespace of their
 * own (root, iproute2, python3), so that their side is no longer this process's loopback: the
 * reals are 198.18.0.0/20 (RFC 2544's benchmarking range), all local to the namespace through one
 * {@code local} route, which answers ping from each of them and hands every TCP connect to one
 * wildcard listener ({@link TcpTarget}, its own process there). On a plain veth the kernel still
 * runs the receiving end's path in the sender's softirq, on this CPU; with {@code napi} both veth
 * ends get GRO, no TSO and threaded NAPI, so each end's receive path runs in its own kernel thread
 * ({@code napi/mbhPID-N} for the prober's host, {@code napi/mbtPID-N} for the targets) and what
 * stays in mclb's threads is mclb's own sending and reading. Removed on close.
 */
final class TargetNamespace implements AutoCloseable {
    static final int TCP_PORT = 7100;
    /**
     * ETHTOOL_SGRO on and ETHTOOL_STSO off through SIOCETHTOOL (this box has no ethtool binary):
     * veth has NAPI only with GRO on, and hands a packet to it only when the sending end has no
     * TSO (veth_skb_is_eligible_for_gro); otherwise it takes netif_rx, the sender's softirq.
     */
    private static final String NAPI_READY = "import ctypes,fcntl,socket,struct,sys\n"
            + "s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM)\n"
            + "for cmd,on in ((0x2c,1),(0x1f,0)):\n"
            + "  v=(ctypes.c_uint32*2)(cmd,on)\n"
            + "  fcntl.ioctl(s.fileno(),0x8946,struct.pack('16sP',sys.argv[1].encode(),ctypes.addressof(v)))\n";

    final String name;
    final String hostLink;
    final String targetLink;
    private final List<Process> processes = new ArrayList<>();
    private boolean closed;

    private TargetNamespace(String name, String hostLink, String targetLink) {
        this.name = name;
        this.hostLink = hostLink;
        this.targetLink = targetLink;
    }

    static TargetNamespace create(boolean threadedNapi) throws IOException, InterruptedException {
        long pid = ProcessHandle.current().pid();
        TargetNamespace ns = new TargetNamespace("mclbbench" + pid, "mbh" + pid, "mbt" + pid);
        Runtime.getRuntime().addShutdownHook(new Thread(ns::close, "netns-cleanup")); // also on SIGTERM
        try {
            ns.setUp(threadedNapi);
        } catch (IOException | InterruptedException | RuntimeException e) {
            ns.close();
            throw e;
        }
        return ns;
    }

    private void setUp(boolean threadedNapi) throws IOException, InterruptedException {
        run("ip", "netns", "add", name);
        run("ip", "link", "add", hostLink, "type", "veth", "peer", "name", targetLink, "netns", name);
        run("ip", "addr", "add", "198.19.255.1/30", "dev", hostLink);
        run("ip", "link", "set", hostLink, "up");
        run("ip", "-n", name, "link", "set", "lo", "up");
        run("ip", "-n", name, "addr", "add", "198.19.255.2/30", "dev", targetLink);
        run("ip", "-n", name, "link", "set", targetLink, "up");
        run("ip", "-n", name, "route", "add", "local", "198.18.0.0/20", "dev", "lo");
        run("ip", "route", "add", "198.18.0.0/20", "via", "198.19.255.2", "dev", hostLink);
        if (threadedNapi) {
            run("python3", "-c", NAPI_READY, hostLink);
            run("sh", "-c", "echo 1 > /sys/class/net/" + hostLink + "/threaded");
            run("ip", "netns", "exec", name, "python3", "-c", NAPI_READY, targetLink);
            run("ip", "netns", "exec", name, "sh", "-c", "echo 1 > /sys/class/net/" + targetLink + "/threaded");
        }
    }

    /** Real {@code i}'s address (up to 4,000). */
    static String address(int i) {
        return "198.18." + (i / 250) + "." + (1 + i % 250);
    }

    /** Starts {@link TcpTarget} in the namespace (this JVM, this class path) and waits until it listens. */
    void startTcpTarget() throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder("ip", "netns", "exec", name, java, "-cp", System.getProperty("java.class.path"),
                TcpTarget.class.getName(), Integer.toString(TCP_PORT)).redirectErrorStream(true).start();
        processes.add(p);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("listening")) {
            throw new IOException("the TCP target in " + name + " did not start: " + line);
        }
    }

    /** The CPU (utime + stime ticks) of the target processes, summed. */
    long targetTicks() {
        long n = 0;
        for (Process p : processes) {
            n += ProcCpu.ticksOfTree(p.pid());
        }
        return n;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Process p : processes) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        try {
            run("ip", "netns", "del", name); // takes the veth pair, and with it the host's route
        } catch (IOException | InterruptedException e) {
            System.err.println("cannot remove namespace " + name + ": " + e.getMessage());
        }
    }

    private static void run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: " + out.strip());
        }
    }
}
