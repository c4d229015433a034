package io.mclb.ha.replication;

import io.mclb.binding.Binding;
import io.mclb.binding.BindingCodec;
import io.mclb.binding.BindingKind;
import io.mclb.binding.BindingTable;
import io.mclb.binding.Bindings;
import io.mclb.farm.RealConfigs;
import io.mclb.farm.RealServer;
import io.mclb.time.ManualClock;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Binding tables over the replication stream between two nodes on loopback: what the active opens
 * and closes reaches the standby with the same real, alias, module bytes and remaining idle time,
 * and holds the same per-real connection counts; a joining standby gets every binding in the
 * snapshot and ends its stale ones; a real the standby lacks is counted; a standby that predates
 * binding frames keeps getting sticky entries.
 */
class BindingReplicationTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final long IDLE_NS = 100_000_000_000L;

    /** A module's binding: the common fields plus a 4-byte tag its codec carries. */
    static final class TaggedBinding extends Binding {
        final int tag;

        TaggedBinding(long owner, int sub, RealServer real, long alias, int tag, long nowNs, long idleNs) {
            super(owner, sub, real, alias, nowNs, idleNs);
            this.tag = tag;
        }
    }

    static final BindingKind<TaggedBinding> KIND = BindingKind.<TaggedBinding>of("test-tagged")
            .codec(new BindingCodec<>() {
                @Override
                public void writeExtra(TaggedBinding b, ByteBuf out) {
                    out.writeInt(b.tag);
                }

                @Override
                public TaggedBinding read(Fields f, ByteBuf extra) {
                    return extra.readableBytes() != 4 ? null
                            : new TaggedBinding(f.owner(), f.sub(), f.real(), f.alias(), extra.readInt(), f.nowNs(),
                                    f.idleNs());
                }
            });

    @TempDir
    Path dir;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    /** A node with its own clock, binding tables and reals (farm F, the given addresses). */
    private final class BindingNode {
        final ManualClock clock = new ManualClock();
        final Bindings bindings = new Bindings(clock, new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
        final Map<Long, RealServer> reals = new HashMap<>();
        final Map<String, RealServer> byIp = new HashMap<>();
        final Node node;
        final BindingTable<TaggedBinding> table;

        BindingNode(String name, boolean replicatesBindings, String... ips) {
            for (String ip : ips) {
                RealServer r = new RealServer("F", RealConfigs.real(ip, 8), clock, null);
                reals.put(r.id(), r);
                byIp.put(ip, r);
            }
            table = bindings.table(KIND);
            node = new Node(dir.resolve(name), 1 << 14,
                    replicatesBindings ? new ReplicatedBindings(bindings, reals::get, clock) : null);
            open.add(bindings);
            open.add(node);
        }

        /** As the engine leaves it on an accepted create: the real holds one connection for the binding. */
        TaggedBinding openOn(String ip, long owner, int sub, long alias) {
            RealServer r = byIp.get(ip);
            assertThat(r.tryAcquire(clock.nanoTime(), false)).isTrue();
            return table.open(new TaggedBinding(owner, sub, r, alias, (int) owner * 3, clock.nanoTime(), IDLE_NS));
        }

        /** Connections held per real address. */
        Map<String, Long> counts() {
            Map<String, Long> m = new TreeMap<>();
            byIp.forEach((ip, r) -> m.put(ip, r.activeConnections()));
            return m;
        }

        /** owner/sub -> real address, alias and tag, as the data path would route it. */
        Map<String, String> contents() {
            Map<String, String> m = new TreeMap<>();
            table.forEach(b -> m.put(b.owner() + "/" + b.sub(),
                    b.real().address().getHostAddress() + " alias " + b.alias() + " tag " + b.tag));
            return m;
        }

        double entries(String direction) {
            var c = node.registry.find(ReplicationMetrics.ENTRIES).tag("table", KIND.label())
                    .tag("direction", direction).counter();
            return c == null ? 0 : c.count();
        }
    }

    private static void pair(BindingNode a, BindingNode b) throws Exception {
        ReplicationConfig c = Node.config("casa-secret");
        InetSocketAddress bound = a.node.replicator.startActive(c);
        b.node.replicator.startStandby(c.withPort(bound.getPort()), null);
        await().atMost(WAIT).until(() -> a.node.replicator.connected() && b.node.replicator.connected());
    }

    @Test
    void bindingsOpenedAndClosedOnTheActiveArriveWithTheirRealsAndCounts() throws Exception {
        BindingNode a = new BindingNode("a", true, "10.0.0.1", "10.0.0.2", "10.0.0.3");
        BindingNode b = new BindingNode("b", true, "10.0.0.1", "10.0.0.2", "10.0.0.3");
        pair(a, b);
        String[] ips = {"10.0.0.1", "10.0.0.2", "10.0.0.3"};
        List<TaggedBinding> made = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            made.add(a.openOn(ips[i % 3 == 0 ? 0 : i % 5 == 0 ? 1 : 2], 262_010_000L + i, 5, 0x1000 + i));
        }
        for (int i = 0; i < 50; i++) {
            a.table.close(made.get(i * 2));
        }
        await().atMost(WAIT).until(() -> b.contents().equals(a.contents()));
        assertThat(b.table.size()).isEqualTo(250);
        assertThat(b.counts()).as("per-real session counts").isEqualTo(a.counts());
        assertThat(b.table.byAlias(0x1000 + 7).real().address().getHostAddress())
                .as("the alias (a GGSN's TEID) routes to the same real").isEqualTo("10.0.0.3");
        assertThat(a.entries("sent")).isEqualTo(350);
        assertThat(b.entries("applied")).isEqualTo(350);
        assertThat(b.node.registry.get(ReplicationMetrics.LAG).tag("table", KIND.label()).timer().count())
                .isEqualTo(350);

        // a subscriber that keeps sending renews its expiry on the active; the ager re-sends it,
        // so the standby's copy outlives the original lifetime too
        a.clock.advance(Duration.ofSeconds(60));
        b.clock.advance(Duration.ofSeconds(60));
        a.table.forEach(x -> x.touch(a.clock.nanoTime()));
        a.bindings.expireAll();
        await().atMost(WAIT).until(() -> b.entries("applied") >= 600);
        a.clock.advance(Duration.ofSeconds(60));
        b.clock.advance(Duration.ofSeconds(60));
        b.bindings.expireAll();
        assertThat(b.table.size()).as("refreshed: 120 s after the open, 60 s after the last request").isEqualTo(250);
        b.clock.advance(Duration.ofSeconds(41));
        b.bindings.expireAll();
        assertThat(b.table.size()).as("idle past the lifetime the active renewed").isZero();
        assertThat(b.counts().values()).as("expiry released every held connection").containsOnly(0L);
    }

    @Test
    void bindingsRenewedInPlaceOnTheActiveEndUpTheSameOnTheStandby() throws Exception {
        BindingNode a = new BindingNode("a", true, "10.0.0.1", "10.0.0.2");
        BindingNode b = new BindingNode("b", true, "10.0.0.1", "10.0.0.2");
        pair(a, b);
        List<TaggedBinding> made = new ArrayList<>();
        List<Integer> contexts = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            TaggedBinding x = a.openOn(i % 2 == 0 ? "10.0.0.1" : "10.0.0.2", 262_010_000L + i, 5, 0x1000 + i);
            made.add(x);
            contexts.add(x.generation());
        }
        // 60 subscribers re-create on the same real: the same objects, each under its new context's alias
        for (int i = 0; i < 60; i++) {
            assertThat(a.table.startRenewal(made.get(i))).isTrue();
            a.table.finishRenewal(made.get(i), 0x9000 + i, a.clock.nanoTime());
        }
        // late deletes of 30 old contexts end nothing; 10 current ones do
        for (int i = 0; i < 30; i++) {
            assertThat(a.table.close(made.get(i), contexts.get(i))).isFalse();
        }
        for (int i = 50; i < 70; i += 2) {
            assertThat(a.table.close(made.get(i), made.get(i).generation())).isTrue();
        }
        await().atMost(WAIT).until(() -> b.contents().equals(a.contents()));
        assertThat(b.table.size()).isEqualTo(90);
        assertThat(b.counts()).as("one connection per binding on both nodes").isEqualTo(a.counts())
                .containsEntry("10.0.0.1", 40L).containsEntry("10.0.0.2", 50L);
        assertThat(b.table.byAlias(0x1000)).as("an old context's alias routes nowhere on the standby").isNull();
        assertThat(b.table.byAlias(0x9000).owner()).isEqualTo(262_010_000L);
    }

    @Test
    void aJoiningStandbyGetsEveryBindingFromTheSnapshotAndEndsItsStaleOnes() throws Exception {
        BindingNode a = new BindingNode("a", true, "10.0.0.1", "10.0.0.2");
        BindingNode b = new BindingNode("b", true, "10.0.0.1", "10.0.0.2");
        for (int i = 0; i < 3000; i++) {
            a.openOn(i % 2 == 0 ? "10.0.0.1" : "10.0.0.2", i, 1, i + 1);
        }
        for (int i = 0; i < 10; i++) { // leftovers from the standby's own earlier life
            b.openOn("10.0.0.2", 1_000_000 + i, 1, 0);
        }
        pair(a, b);
        await().atMost(WAIT).until(() -> b.contents().equals(a.contents()));
        assertThat(b.counts()).isEqualTo(Map.of("10.0.0.1", 1500L, "10.0.0.2", 1500L));
        a.openOn("10.0.0.1", 5_000_000, 1, 9);
        await().atMost(WAIT).until(() -> b.table.get(5_000_000, 1) != null);
        assertThat(b.counts()).isEqualTo(a.counts());
    }

    @Test
    void aBindingOnARealTheStandbyLacksIsCountedAndTheRestApplied() throws Exception {
        BindingNode a = new BindingNode("a", true, "10.0.0.1", "10.0.0.9");
        BindingNode b = new BindingNode("b", true, "10.0.0.1");
        pair(a, b);
        for (int i = 0; i < 20; i++) {
            a.openOn(i < 5 ? "10.0.0.9" : "10.0.0.1", i, 0, 0);
        }
        await().atMost(WAIT).until(() -> b.table.size() == 15);
        await().atMost(WAIT).until(() -> b.node.registry.get(ReplicationMetrics.UNRESOLVED).tag("table", KIND.label())
                .tag("reason", "unknown_real").counter().count() == 5);
        assertThat(b.node.replicator.connected()).as("an unknown real never breaks the stream").isTrue();
        assertThat(b.counts()).isEqualTo(Map.of("10.0.0.1", 15L));
    }

    @Test
    void aStandbyThatTakesNoBindingsStillGetsStickyEntries() throws Exception {
        BindingNode a = new BindingNode("a", true, "10.0.0.1");
        BindingNode old = new BindingNode("old", false, "10.0.0.1");
        pair(a, old);
        for (int i = 0; i < 100; i++) {
            a.openOn("10.0.0.1", i, 0, 0);
            a.node.put(i, 7);
        }
        await().atMost(WAIT).until(() -> old.node.contents().equals(a.node.contents()));
        assertThat(old.table.size()).isZero();
        assertThat(a.entries("sent")).as("no binding frame goes to a standby that did not ask").isZero();
        for (ReplicationMetrics.Refusal r : ReplicationMetrics.Refusal.values()) {
            assertThat(old.node.counter(ReplicationMetrics.REFUSED, "reason", r.label())).isZero();
        }
    }
}
