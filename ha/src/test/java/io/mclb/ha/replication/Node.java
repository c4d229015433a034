package io.mclb.ha.replication;

import io.mclb.testing.TestStickyKinds;
import io.mclb.sticky.ChronicleStickyTable;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyKind;
import io.mclb.sticky.StickyTables;
import io.mclb.sticky.StickyValue;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/** One node for the tests: its own data directory, table, state, registry and replicator. */
final class Node implements AutoCloseable {
    static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    final ChronicleStickyTable table;
    final ReplicatedState state = new ReplicatedState();
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final StickyReplicator replicator;

    Node(Path dir) {
        this(dir, 1 << 14);
    }

    Node(Path dir, int queueCapacity) {
        this(dir, queueCapacity, null);
    }

    /** @param bindings the binding tables this node replicates, or null for sticky entries alone */
    Node(Path dir, int queueCapacity, ReplicatedBindings bindings) {
        table = StickyTables.open(dir, 200_000);
        replicator = new StickyReplicator(table, state, registry, queueCapacity, bindings);
    }

    /** Loopback on both ends, ephemeral port, short timers. */
    static ReplicationConfig config(String password) {
        return ReplicationConfig.of(LOOPBACK, LOOPBACK, 0, password)
                .withTuning(Duration.ofMillis(200), Duration.ofMillis(50), 1 << 14);
    }

    static StickyKey key(int i) {
        return new StickyKey().set(TestStickyKinds.GTP_IMSI, 1, ("26201" + i).getBytes());
    }

    static StickyValue value(long real) {
        return new StickyValue().set(real, 1_700_000_000L, 4_000_000_000L);
    }

    void put(int i, long real) {
        table.put(key(i), value(real));
    }

    Map<String, String> contents() {
        Map<String, String> m = new HashMap<>();
        table.forEach((k, v) -> {
            m.put(HexFormat.of().formatHex(k.bytes()), HexFormat.of().formatHex(v.bytes()));
            return true;
        });
        return m;
    }

    double counter(String name, String tagKey, String tagValue) {
        var c = tagKey == null ? registry.find(name).counter() : registry.find(name).tag(tagKey, tagValue).counter();
        return c == null ? 0 : c.count();
    }

    double gauge(String name) {
        return registry.get(name).gauge().value();
    }

    @Override
    public void close() {
        replicator.close();
        table.close();
    }
}
