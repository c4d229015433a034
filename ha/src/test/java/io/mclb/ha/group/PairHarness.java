package io.mclb.ha.group;

import io.mclb.time.ManualClock;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;

/**
 * Two {@link StandbyGroup}s on a simulated segment driven by a {@link ManualClock}: messages sent in
 * one step are delivered in the next; links can be cut per direction, and a node can be "killed"
 * (neither ticks nor receives). PROBEs reach the node that is Active (the virtual address owner)
 * unless the VIP path is cut.
 */
final class PairHarness {
    static final int HELLO_MS = 100;
    static final int HOLD_MS = 300;

    final ManualClock clock = new ManualClock();
    final Node a;
    final Node b;
    boolean vipPathUp = true;

    final class Node implements StandbyGroup.Outbox {
        final String label;
        final LinkState.Fixed links = new LinkState.Fixed();
        final List<String> transitions = new ArrayList<>();
        final List<String> reasons = new ArrayList<>();
        /** Types of the messages this node sent, in order. */
        final List<Hello.Type> sentTypes = new ArrayList<>();
        final FakeInterfaceTestIo tests = new FakeInterfaceTestIo();
        final List<String> withheld = new ArrayList<>();
        final Queue<Hello> outQueue = new ArrayDeque<>();
        StandbyGroup group;
        GroupConfig cfg;
        boolean alive;
        boolean linkOut = true;
        boolean linkIn = true;

        boolean linkIn() {
            return linkIn;
        }
        long bootId;
        Node other;

        Node(String label, GroupConfig cfg) {
            this.label = label;
            this.cfg = cfg;
        }

        void boot() {
            bootId++;
            group = new StandbyGroup(cfg, links, tests, bootId, this);
            alive = true;
            outQueue.clear();
            group.start(clock.nanoTime());
        }

        void kill() {
            alive = false;
            outQueue.clear();
        }

        HsrpState state() {
            return group.state();
        }

        @Override
        public void send(Hello h) {
            sentTypes.add(h.type());
            outQueue.add(h);
        }

        @Override
        public void probe(Hello probe) {
            outQueue.add(probe);
        }

        @Override
        public void transitioned(StandbyGroup g, HsrpState from, HsrpState to, String reason, long nowNs) {
            transitions.add(to.name());
            reasons.add(reason);
        }

        @Override
        public void withheld(StandbyGroup g, String reason) {
            withheld.add(reason);
        }
    }

    PairHarness(GroupConfig ca, GroupConfig cb) {
        a = new Node("A", ca);
        b = new Node("B", cb);
        a.other = b;
        b.other = a;
    }

    /** Advances time in 5 ms steps, ticking live nodes and delivering what they sent. */
    void run(long ms) {
        for (long t = 0; t < ms; t += 5) {
            clock.advanceMillis(5);
            long now = clock.nanoTime();
            for (Node n : List.of(a, b)) {
                if (n.alive) {
                    n.group.tick(now);
                }
            }
            for (Node n : List.of(a, b)) {
                Hello h;
                while ((h = n.outQueue.poll()) != null) {
                    deliver(n, h, now);
                }
            }
        }
    }

    private void deliver(Node from, Hello h, long now) {
        Node to = from.other;
        if (!to.alive) {
            return;
        }
        if (h.type() == Hello.Type.PROBE) {
            // the probe goes to the peer's address (heartbeat path) and to the VIP (service path)
            boolean reaches = (from.linkOut && to.linkIn()) || (vipPathUp && to.state() == HsrpState.ACTIVE);
            if (reaches) {
                Hello reply = to.group.probeReply(now);
                from.group.onProbeReply(reply, now);
            }
            return;
        }
        if (from.linkOut && to.linkIn()) {
            to.group.onHello(h, now);
        }
    }

    static GroupConfig config(String address, int priority, boolean preempt, long delayMs,
                              List<GroupConfig.Track> tracks) {
        try {
            return new GroupConfig("eth0", InetAddress.getByName(address), 24, 2, 100, "SLB-HA",
                    InetAddress.getByName("10.0.0.100"), priority, preempt, delayMs, HELLO_MS, HOLD_MS, null, tracks,
                    List.of());
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
