package io.mclb.ha.group;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * LocalDirector's failover layer over one {@link StandbyGroup} (seed 000): whether monitoring of the
 * peer has started ({@code Waiting} until {@value #HELLOS_TO_MONITOR} hellos were heard in a row, as
 * the seed's unit waits for six), the interface tests run when the peer's hellos stop
 * ({@link InterfaceTestRun}), and {@code Failed}: a node whose own tests failed, with the cause, until
 * the link returns (the seed's autorecovery after a lost signal) or {@code failover reset} finds the
 * cause gone.
 *
 * <p>Confined to the group's thread; the public getters may be read from any thread.
 */
public final class FailoverMonitor {
    /** The seed: "Failover does not start monitoring the network interfaces until it hears six hello packets". */
    static final int HELLOS_TO_MONITOR = 6;
    /**
     * The network activity test listens for one hello period, as the seed's tests listen 5 s with
     * hellos every 5 s, within 0.1..5 s: the hold time has passed already, and on a live segment a
     * longer window only delays the takeover.
     */
    static final long MIN_WINDOW_MS = 100;
    static final long MAX_WINDOW_MS = 5000;
    /**
     * ARP and the broadcast ping listen at least half a second. Their stimulus is a process
     * (arping, ping) that a loaded box may take tens of milliseconds to start, and a reply that
     * misses the broadcast ping's window would fail a healthy interface.
     */
    static final long MIN_REPLY_WINDOW_MS = 500;

    private final InterfaceTestIo io;
    private volatile int hellosInRow;
    private InterfaceTestRun run;
    private volatile String failedReason;
    private InterfaceTestRun.Stage failedStage;
    private long failedRx;
    private volatile String lastTests;

    FailoverMonitor(InterfaceTestIo io) {
        this.io = io;
    }

    /** A hello from the peer: hellos flow, so any test run is over. */
    void heard() {
        if (hellosInRow < HELLOS_TO_MONITOR) {
            hellosInRow++;
        }
        run = null;
    }

    /**
     * The active peer answered our probe of the virtual address: the interface receives, so a test run
     * started by the same silence is over; the hello count is kept (the heartbeat path is still cut).
     */
    void probeAnswered() {
        run = null;
    }

    /** The peer is gone (stopped, or its silence was diagnosed): back to Waiting. */
    void peerLost() {
        hellosInRow = 0;
        run = null;
    }

    /** LocalDirector's Waiting: monitoring of the peer has not started (fewer than six hellos heard in a row). */
    public boolean waiting() {
        return hellosInRow < HELLOS_TO_MONITOR;
    }

    /**
     * Runs (or goes on running) the interface tests: the peer's hellos are missing. While Waiting (the
     * seed suspends hello monitoring until six were heard) only the link test applies.
     */
    InterfaceTestRun.Verdict diagnose(GroupConfig cfg, InetAddress peer, long nowNs) {
        if (run == null) {
            List<InetAddress> known = new ArrayList<>(cfg.peers());
            if (peer != null && !known.contains(peer)) {
                known.add(0, peer);
            }
            long windowMs = Math.max(MIN_WINDOW_MS, Math.min(MAX_WINDOW_MS, cfg.helloMs()));
            run = new InterfaceTestRun(cfg.iface(), known, broadcast(cfg), windowMs * StandbyGroup.MS,
                    Math.max(MIN_REPLY_WINDOW_MS, windowMs) * StandbyGroup.MS, io, waiting());
        }
        InterfaceTestRun.Verdict v = run.step(nowNs);
        if (v != InterfaceTestRun.Verdict.RUNNING) {
            lastTests = run.reason();
        }
        return v;
    }

    /** The run that just failed makes this node Failed. */
    void fail(String iface) {
        failedReason = run.reason();
        failedStage = run.stage();
        failedRx = io.receivedPackets(iface);
        run = null;
        hellosInRow = 0;
    }

    public boolean failed() {
        return failedReason != null;
    }

    /** Why this node is Failed, or null. */
    public String failedReason() {
        return failedReason;
    }

    /** The outcome of the last finished test run, or null. */
    public String lastTests() {
        return lastTests;
    }

    /** The seed's autorecovery: a node failed by a lost link recovers when the link is back. */
    boolean linkRecovered(String iface) {
        return failedStage == InterfaceTestRun.Stage.LINK && io.linkUp(iface);
    }

    /** What still keeps this node Failed (null: the cause is gone): the link, or no traffic since it failed. */
    String causeRemains(String iface) {
        if (!io.linkUp(iface)) {
            return "link down on " + iface;
        }
        if (failedStage != InterfaceTestRun.Stage.LINK && io.receivedPackets(iface) <= failedRx) {
            return "no traffic received on " + iface + " since the interface tests failed";
        }
        return null;
    }

    void clear() {
        failedReason = null;
        failedStage = null;
        run = null;
    }

    /** The IPv4 subnet broadcast of the group's address; IPv6 pings all-nodes instead (any v6 address will do). */
    private static InetAddress broadcast(GroupConfig cfg) {
        InetAddress a = cfg.address();
        if (!(a instanceof Inet4Address)) {
            return a;
        }
        byte[] b = a.getAddress();
        int bits = ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
        int host = cfg.prefix() >= 32 ? 0 : -1 >>> cfg.prefix();
        int bc = bits | host;
        try {
            return InetAddress.getByAddress(new byte[] {(byte) (bc >>> 24), (byte) (bc >>> 16), (byte) (bc >>> 8),
                    (byte) bc});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
