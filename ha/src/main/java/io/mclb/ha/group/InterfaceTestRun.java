package io.mclb.ha.group;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * One run of LocalDirector's failover interface tests on a group's interface, started when the
 * peer's hellos stop (seed 000, "Failover Interface Tests"), in the seed's order:
 * <ol>
 * <li><b>link</b>: the interface's line state; down fails the interface at once (and at any later step);</li>
 * <li><b>network activity</b>: the received-packet count is watched for one window;</li>
 * <li><b>ARP</b>: an ARP request to each known neighbour (the peer, then the ARP cache, at most
 *     {@value #MAX_NEIGHBOURS}), each followed by a reply window;</li>
 * <li><b>broadcast ping</b>: one echo request to the subnet's broadcast address, then a reply window.</li>
 * </ol>
 * Any packet received during a window passes the interface and ends the run. The seed then starts
 * over with ARP and lets the two units compare their counts over the failover cable; with the hellos
 * gone there is nobody to compare with, so one series that hears nothing is the verdict: a node
 * whose interface receives nothing at all cannot serve anyone.
 *
 * <p>Driven by {@link #step} with the time passed in; I/O only through {@link InterfaceTestIo}.
 * Confined to the group's thread.
 */
final class InterfaceTestRun {
    static final int MAX_NEIGHBOURS = 10;

    enum Verdict { RUNNING, PASSED, FAILED }

    enum Stage {
        LINK("link"), NETWORK_ACTIVITY("network activity"), ARP("ARP"), BROADCAST_PING("broadcast ping");

        final String label;

        Stage(String label) {
            this.label = label;
        }
    }

    private final String iface;
    private final InetAddress broadcast;
    private final List<InetAddress> known;
    private final long windowNs;
    private final long replyWindowNs;
    private final InterfaceTestIo io;
    private final boolean linkOnly;
    private List<InetAddress> neighbours;
    private Stage stage;
    private int nextNeighbour;
    private long baseline;
    private long deadlineNs;
    private Verdict verdict = Verdict.RUNNING;
    private String reason;

    /**
     * @param known     neighbours to ARP first (the peer's address); the ARP cache fills up the rest
     * @param broadcast the broadcast ping's destination, or null to skip that test
     * @param windowNs  how long the network activity test listens (the seed's 5 s, scaled to the hello period)
     * @param replyWindowNs how long each ARP and the broadcast ping listen; at least {@code windowNs}, and long
     *                  enough for the tool that sends the stimulus to start: only a late answer to the last one
     *                  has no later window to land in
     * @param linkOnly  only the link test: monitoring never started (Waiting), so there is no peer to compare
     *                  with and a quiet segment is no sign of a failure (a unit alone comes up active)
     */
    InterfaceTestRun(String iface, List<InetAddress> known, InetAddress broadcast, long windowNs, long replyWindowNs,
                     InterfaceTestIo io, boolean linkOnly) {
        this.linkOnly = linkOnly;
        this.iface = iface;
        this.known = List.copyOf(known);
        this.broadcast = broadcast;
        this.windowNs = windowNs;
        this.replyWindowNs = Math.max(windowNs, replyWindowNs);
        this.io = io;
    }

    /** Advances the run; once it is not {@link Verdict#RUNNING} it stays where it ended. */
    Verdict step(long nowNs) {
        if (verdict != Verdict.RUNNING) {
            return verdict;
        }
        if (!io.linkUp(iface)) {
            return end(Verdict.FAILED, Stage.LINK, "link down on " + iface);
        }
        if (linkOnly) {
            return end(Verdict.PASSED, Stage.LINK, "link up on " + iface + " (monitoring Waiting: only the link test)");
        }
        if (stage == null) {
            stage = Stage.NETWORK_ACTIVITY;
            listen(nowNs, windowNs);
        }
        while (true) {
            if (io.receivedPackets(iface) > baseline) {
                return end(Verdict.PASSED, stage, "link up and traffic received on " + iface + " during the "
                        + stage.label + " test");
            }
            if (nowNs < deadlineNs) {
                return Verdict.RUNNING;
            }
            if (!next(nowNs)) {
                return end(Verdict.FAILED, stage, "link up but no traffic received on " + iface
                        + " during the network activity, ARP (" + neighbours().size() + " neighbours) and "
                        + (broadcast == null ? "no broadcast ping" : "broadcast ping") + " tests");
            }
        }
    }

    /** Moves to the next stimulus and listens; false when the series is over. */
    private boolean next(long nowNs) {
        if (stage == Stage.NETWORK_ACTIVITY) {
            stage = Stage.ARP;
        }
        if (stage == Stage.ARP) {
            List<InetAddress> n = neighbours();
            if (nextNeighbour < n.size()) {
                listen(nowNs, replyWindowNs);
                io.arp(iface, n.get(nextNeighbour++));
                return true;
            }
            if (broadcast != null) {
                stage = Stage.BROADCAST_PING;
                listen(nowNs, replyWindowNs);
                io.broadcastPing(iface, broadcast);
                return true;
            }
        }
        return false;
    }

    private void listen(long nowNs, long forNs) {
        baseline = io.receivedPackets(iface);
        deadlineNs = nowNs + forNs;
    }

    private List<InetAddress> neighbours() {
        if (neighbours == null) {
            List<InetAddress> n = new ArrayList<>(known);
            for (InetAddress a : io.arpCache(iface, MAX_NEIGHBOURS)) {
                if (n.size() < MAX_NEIGHBOURS && !n.contains(a)) {
                    n.add(a);
                }
            }
            neighbours = List.copyOf(n);
        }
        return neighbours;
    }

    private Verdict end(Verdict v, Stage at, String why) {
        verdict = v;
        stage = at;
        reason = why;
        return v;
    }

    Verdict verdict() {
        return verdict;
    }

    /** The stage that decided the verdict: {@link Stage#LINK} when the link was down. */
    Stage stage() {
        return stage;
    }

    /** Why the run ended as it did; null while running. */
    String reason() {
        return reason;
    }
}
