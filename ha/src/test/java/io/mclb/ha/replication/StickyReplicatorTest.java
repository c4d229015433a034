package io.mclb.ha.replication;

import io.mclb.testing.TestPki;
import io.mclb.sticky.StickyChangeListener.RemoveReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class StickyReplicatorTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private Node node(String name) {
        Node n = new Node(dir.resolve(name));
        open.add(n);
        return n;
    }

    /** Starts {@code a} active and {@code b} standby with the same settings; returns the active's port. */
    private static int pair(Node a, Node b, ReplicationConfig c, ConfigReceiver receiver) throws Exception {
        InetSocketAddress bound = a.replicator.startActive(c);
        b.replicator.startStandby(c.withPort(bound.getPort()), receiver);
        return bound.getPort();
    }

    @Test
    void incrementalPutsAndRemovesArrive() throws Exception {
        Node a = node("a");
        Node b = node("b");
        pair(a, b, Node.config("casa-secret"), null);
        await().atMost(WAIT).until(a.replicator::connected);
        for (int i = 0; i < 500; i++) {
            a.put(i, 7);
        }
        for (int i = 0; i < 100; i++) {
            a.table.remove(Node.key(i), RemoveReason.DELETED);
        }
        a.put(499, 9);
        await().atMost(WAIT).until(() -> b.contents().equals(a.contents()));
        assertThat(b.table.size()).isEqualTo(400);
        assertThat(b.registry.get(ReplicationMetrics.LAG).tag("table", "gtp-imsi").timer().count()).isGreaterThanOrEqualTo(601);
        assertThat(a.counter(ReplicationMetrics.FRAMES, "direction", "sent")).isGreaterThanOrEqualTo(601);
        assertThat(b.counter(ReplicationMetrics.FRAMES, "direction", "received")).isGreaterThanOrEqualTo(601);
        assertThat(a.gauge(ReplicationMetrics.CONNECTED)).isEqualTo(1.0);
        assertThat(b.gauge(ReplicationMetrics.CONNECTED)).isEqualTo(1.0);
        // what the standby applied is not echoed back: the active sent, the standby only received
        assertThat(b.counter(ReplicationMetrics.FRAMES, "direction", "sent")).isEqualTo(1.0);
        await().atMost(WAIT).until(() -> a.gauge(ReplicationMetrics.BACKLOG) == 0.0);
    }

    @Test
    void queueOverflowIsCountedAndRepairedByAResync() throws Exception {
        Node a = new Node(dir.resolve("a"), 16);
        open.add(a);
        Node b = node("b");
        pair(a, b, Node.config("casa-secret"), null);
        await().atMost(WAIT).until(a.replicator::connected);
        Thread[] writers = new Thread[2];
        for (int t = 0; t < writers.length; t++) {
            int base = t * 100_000;
            writers[t] = new Thread(() -> {
                for (int i = 0; i < 20_000; i++) {
                    a.put(base + i % 5000, i);
                }
            });
            writers[t].start();
        }
        for (Thread w : writers) {
            w.join();
        }
        assertThat(a.counter(ReplicationMetrics.OVERFLOWS, null, null)).isPositive();
        await().atMost(WAIT).until(() -> b.contents().equals(a.contents()));
        assertThat(a.counter(ReplicationMetrics.RESYNCS, null, null)).isGreaterThanOrEqualTo(2.0);
    }

    @Test
    void lateStandbyGetsFullResyncAndStaleEntriesAreSwept() throws Exception {
        Node a = node("a");
        Node b = node("b");
        for (int i = 0; i < 5000; i++) {
            a.put(i, i % 3);
        }
        for (int i = 100_000; i < 100_050; i++) {
            b.put(i, 1); // the standby's leftovers from another life: not on the active
        }
        b.put(1, 99); // and a stale value of a live key
        pair(a, b, Node.config("casa-secret"), null);
        await().atMost(WAIT).until(() -> b.contents().equals(a.contents()));
        assertThat(a.counter(ReplicationMetrics.RESYNCS, null, null)).isEqualTo(1.0);
        assertThat(b.counter(ReplicationMetrics.RESYNCS, null, null)).isEqualTo(1.0);
    }

    @Test
    void aQueuedOldChangeDoesNotBeatTheResyncOfADroppedNewerOne() throws Exception {
        Node a = new Node(dir.resolve("a"), 16);
        open.add(a);
        Node b = node("b");
        pair(a, b, Node.config("casa-secret"), null);
        await().atMost(WAIT).until(() -> a.replicator.connected() && b.counter(ReplicationMetrics.RESYNCS, null, null) >= 1);
        a.put(0, 1);
        await().atMost(WAIT).until(() -> b.contents().equals(a.contents()));
        CountDownLatch release = new CountDownLatch(1);
        a.replicator.executeOnReplicationThreadForTest(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        a.put(0, 2); // queued
        for (int i = 1; i < 16; i++) {
            a.put(i, 1); // fills the ring
        }
        a.put(0, 3); // dropped: the ring is full, a resync is due
        assertThat(a.counter(ReplicationMetrics.OVERFLOWS, null, null)).isEqualTo(1.0);
        release.countDown();
        await().atMost(WAIT).until(() -> b.contents().equals(a.contents()));
        assertThat(a.counter(ReplicationMetrics.RESYNCS, null, null)).isEqualTo(2.0);
    }

    /** With the small queue the ring overflows over and over while snapshots run; the tables still end equal. */
    @ParameterizedTest(name = "queue of {0} changes")
    @ValueSource(ints = {1 << 14, 256})
    void resyncWhileChangesContinueEndsConsistent(int queue) throws Exception {
        Node a = new Node(dir.resolve("a"), queue);
        open.add(a);
        Node b = node("b");
        for (int i = 0; i < 30_000; i++) {
            a.put(i, 1);
        }
        AtomicBoolean run = new AtomicBoolean(true);
        Thread writer = new Thread(() -> {
            int round = 0;
            while (run.get()) {
                round++;
                for (int i = 0; i < 30_000; i += 7) {
                    if ((i + round) % 3 == 0) {
                        a.table.remove(Node.key(i), RemoveReason.DELETED);
                    } else {
                        a.put(i, round);
                    }
                }
            }
        });
        writer.start();
        try {
            pair(a, b, Node.config("casa-secret"), null);
            await().atMost(WAIT).until(() -> b.counter(ReplicationMetrics.RESYNCS, null, null) >= 1
                    && b.table.size() > 20_000);
        } finally {
            run.set(false);
            writer.join();
        }
        await().atMost(WAIT).until(() -> b.contents().equals(a.contents()));
        if (queue < 1000) {
            assertThat(a.counter(ReplicationMetrics.OVERFLOWS, null, null)).isPositive();
        }
    }

    @Test
    void wrongPasswordIsRefusedAndChangesNothing() throws Exception {
        Node a = node("a");
        Node b = node("b");
        a.put(1, 1);
        b.put(2, 2);
        InetSocketAddress bound = a.replicator.startActive(Node.config("casa-secret"));
        b.replicator.startStandby(Node.config("not-the-secret").withPort(bound.getPort()), null);
        await().atMost(WAIT).until(() -> a.counter(ReplicationMetrics.REFUSED, "reason", "bad_hmac") >= 2);
        assertThat(a.replicator.connected()).isFalse();
        assertThat(b.contents()).containsOnlyKeys(java.util.HexFormat.of().formatHex(Node.key(2).bytes()));
    }

    @Test
    void aPasswordChangedOnTheActiveFirstKeepsTheStandbyDuringTheRollOverThenTheStandbyFollows() throws Exception {
        Node a = node("a");
        Node b = node("b");
        int port = pair(a, b, Node.config("old-secret"), null);
        await().atMost(WAIT).until(() -> a.replicator.connected() && b.replicator.connected());

        a.replicator.rollOver("old-secret", Duration.ofSeconds(60));
        a.replicator.startActive(Node.config("new-secret").withPort(port));
        a.put(1, 1);
        await().atMost(WAIT).until(() -> b.contents().equals(a.contents()) && b.table.size() == 1);

        b.replicator.rollOver("old-secret", Duration.ofSeconds(60));
        b.replicator.startStandby(Node.config("new-secret").withPort(port), null);
        a.put(2, 2);
        await().atMost(WAIT).until(() -> b.contents().equals(a.contents()) && b.table.size() == 2);
        assertThat(a.counter(ReplicationMetrics.REFUSED, "reason", "bad_hmac")).isZero();
    }

    @Test
    void aStandbyChangedFirstFindsTheActiveWithThePreviousPassword() throws Exception {
        Node a = node("a");
        Node b = node("b");
        a.put(1, 1);
        InetSocketAddress bound = a.replicator.startActive(Node.config("old-secret"));
        b.replicator.rollOver("old-secret", Duration.ofSeconds(60));
        b.replicator.startStandby(Node.config("new-secret").withPort(bound.getPort()), null);
        await().atMost(WAIT).until(() -> b.contents().equals(a.contents()) && b.table.size() == 1);
        // its first attempt, with the new password, was refused; the next, with the old one, was not
        assertThat(a.counter(ReplicationMetrics.REFUSED, "reason", "bad_hmac")).isEqualTo(1.0);
    }

    @Test
    void thePreviousPasswordIsRefusedOnceTheRollOverEnds() throws Exception {
        Node a = node("a");
        Node b = node("b");
        int port = pair(a, b, Node.config("old-secret"), null);
        await().atMost(WAIT).until(() -> a.replicator.connected());
        a.replicator.rollOver("old-secret", Duration.ofMillis(1500));
        a.replicator.startActive(Node.config("new-secret").withPort(port));
        await().atMost(WAIT).until(() -> a.replicator.connected());
        // the window closes: the old-keyed stream is cut, and every new attempt is refused
        await().atMost(WAIT).until(() -> a.counter(ReplicationMetrics.REFUSED, "reason", "bad_hmac") >= 2);
        assertThat(a.replicator.connected()).isFalse();
        a.put(9, 9);
        assertThat(b.table.size()).isZero();
    }

    @Test
    void unknownPeerIsRefused() throws Exception {
        Node a = node("a");
        Node b = node("b");
        a.put(1, 1);
        ReplicationConfig c = Node.config("casa-secret");
        ReplicationConfig onlyOther = new ReplicationConfig(c.listenAddress(), InetAddress.getByName("127.0.0.2"), 0,
                c.interval(), c.password(), c.passwordTimeout(), null, c.queueCapacity(), c.reconnectDelay());
        InetSocketAddress bound = a.replicator.startActive(onlyOther);
        b.replicator.startStandby(c.withPort(bound.getPort()), null);
        await().atMost(WAIT).until(() -> a.counter(ReplicationMetrics.REFUSED, "reason", "unknown_peer") >= 1);
        assertThat(b.table.size()).isZero();
    }

    @Test
    void stateItemsAndConfigurationAreDelivered() throws Exception {
        Node a = node("a");
        Node b = node("b");
        List<String> configs = new CopyOnWriteArrayList<>();
        List<String> heard = new CopyOnWriteArrayList<>();
        b.state.addListener((k, v) -> heard.add(k + "=" + v[0]));
        a.state.put("gtp.recovery", new byte[] {5});
        a.replicator.startActive(Node.config("casa-secret")); // re-bound below with the port
        a.replicator.pushConfig("ip slb vserver V\n inservice\n");
        a.replicator.stop();
        a.replicator.startActive(Node.config("casa-secret"));
        pair(a, b, Node.config("casa-secret"), configs::add);
        a.replicator.pushConfig("ip slb vserver V\n inservice\n");
        await().atMost(WAIT).until(() -> !configs.isEmpty() && b.state.get("gtp.recovery") != null);
        assertThat(b.state.get("gtp.recovery")).containsExactly(5);
        a.state.put("gtp.recovery", new byte[] {6});
        String big = "!\n".repeat(100_000);
        a.replicator.pushConfig(big);
        await().atMost(WAIT).until(() -> b.state.get("gtp.recovery")[0] == 6 && configs.contains(big));
        assertThat(heard).containsSubsequence("gtp.recovery=5", "gtp.recovery=6");
        assertThat(configs.get(0)).isEqualTo("ip slb vserver V\n inservice\n");
    }

    @Test
    void streamCutMidFrameLeavesTableConsistentAndResyncs() throws Exception {
        Node a = node("a");
        Node b = node("b");
        pair(a, b, Node.config("casa-secret"), null);
        await().atMost(WAIT).until(a.replicator::connected);
        a.put(1, 1);
        await().atMost(WAIT).until(() -> b.table.size() == 1);
        a.replicator.cutMidFrameForTest();
        a.put(2, 2);
        // the half frame is never applied; the standby reconnects and the resync brings key 2
        await().atMost(WAIT).until(() -> b.counter(ReplicationMetrics.RESYNCS, null, null) >= 2
                && b.contents().equals(a.contents()));
        assertThat(a.counter(ReplicationMetrics.RESYNCS, null, null)).isGreaterThanOrEqualTo(2.0);
    }

    @Test
    void losingThePeerKeepsLocalState() throws Exception {
        Node a = node("a");
        Node b = node("b");
        pair(a, b, Node.config("casa-secret"), null);
        for (int i = 0; i < 200; i++) {
            a.put(i, 3);
        }
        await().atMost(WAIT).until(() -> b.contents().equals(a.contents()));
        var before = a.contents();
        a.replicator.stop();
        await().atMost(WAIT).until(() -> b.gauge(ReplicationMetrics.CONNECTED) == 0.0);
        assertThat(b.contents()).isEqualTo(before);
        assertThat(a.contents()).isEqualTo(before);
        // roles swap (failover): the former standby serves and streams back to the former active
        b.put(1000, 4);
        b.replicator.stop();
        InetSocketAddress bound = b.replicator.startActive(Node.config("casa-secret"));
        a.replicator.startStandby(Node.config("casa-secret").withPort(bound.getPort()), null);
        await().atMost(WAIT).until(() -> a.contents().equals(b.contents()) && a.table.size() == 201);
    }

    @Test
    void mutualTlsWorksAndAWrongCaIsRefused() throws Exception {
        TestPki pki = new TestPki(dir, "pair");
        TestPki rogue = new TestPki(dir, "rogue");
        Node a = node("a");
        Node b = node("b");
        Node c = node("c");
        a.put(1, 1);
        ReplicationConfig base = Node.config("casa-secret");
        InetSocketAddress bound = a.replicator.startActive(base.withTls(tls(pki.leaf("node-a"))));
        c.replicator.startStandby(base.withTls(tls(rogue.leaf("intruder"))).withPort(bound.getPort()), null);
        await().atMost(WAIT).until(() -> a.counter(ReplicationMetrics.REFUSED, "reason", "tls")
                + c.counter(ReplicationMetrics.REFUSED, "reason", "tls") >= 1);
        c.replicator.stop();
        assertThat(c.table.size()).isZero();
        b.replicator.startStandby(base.withTls(tls(pki.leaf("node-b"))).withPort(bound.getPort()), null);
        a.put(2, 2);
        await().atMost(WAIT).until(() -> b.contents().equals(a.contents()) && b.table.size() == 2);
        assertThat(new String(java.nio.file.Files.readAllBytes(pki.caFile()), StandardCharsets.US_ASCII))
                .startsWith("-----BEGIN CERTIFICATE-----");
    }

    private static ReplicationConfig.TlsFiles tls(TestPki.Leaf leaf) {
        return new ReplicationConfig.TlsFiles(leaf.cert(), leaf.key(), leaf.ca());
    }
}
