package io.mclb.ha.replication;

import io.mclb.binding.Binding;
import io.mclb.binding.BindingCodec;
import io.mclb.binding.BindingKind;
import io.mclb.binding.BindingTable;
import io.mclb.farm.RealId;
import io.mclb.farm.RealServer;
import io.mclb.ha.replication.ReplicationMetrics.TableMeters;
import io.mclb.ha.replication.ReplicationMetrics.Unresolved;
import io.netty.buffer.ByteBuf;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;

/**
 * The standby's side of binding replication: applies well-formed entries ({@link BindingEntries},
 * checked before) to this node's binding tables. A binding starts here holding one of its real's
 * connections ({@link BindingTable#openReplicated}) and ending it releases that, so the per-real
 * counts equal the active's. What cannot be applied is counted per table in
 * {@code mclb_replication_unresolved_total{reason}} and skipped: a kind no module of this process
 * declared or replicates, a real this configuration lacks, extra bytes the module's codec refuses.
 *
 * <p>Snapshot merge as for sticky entries ({@link StandbySide}): between SNAPSHOT_BEGIN and
 * SNAPSHOT_END a change of a key beats the snapshot's entry for it, and at the end the bindings
 * neither named nor touched are swept. One per stream; runs on the replication event loop only.
 */
final class BindingApplier {
    private final ReplicatedBindings source;
    private final ReplicationMetrics metrics;
    private final LongHashSet marked = new LongHashSet();
    private final LongHashSet touched = new LongHashSet();
    private boolean inSnapshot;

    BindingApplier(ReplicatedBindings source, ReplicationMetrics metrics) {
        this.source = source;
        this.metrics = metrics;
    }

    void snapshotBegin() {
        inSnapshot = true;
        marked.clear();
        touched.clear();
    }

    /** A BINDING_OPEN or BINDING_CLOSE frame's payload (checked well formed). */
    void change(boolean open, ByteBuf f, int p, int len, long micros) {
        long key = open ? open(f, p, len, micros, null) : close(f, p, micros);
        if (inSnapshot) {
            touched.add(key);
        }
    }

    /** A BINDING_SNAPSHOT frame's payload (checked well formed). */
    void snapshotEntries(ByteBuf f, int p, int len) {
        int end = p + len;
        while (p < end) {
            int n = BindingEntries.openLength(f, p, end);
            marked.add(open(f, p, n, -1, touched));
            p += n;
        }
    }

    /** At SNAPSHOT_END: ends the bindings neither named nor touched; returns how many. */
    int snapshotEnd() {
        int n = inSnapshot ? sweep(marked, touched) : 0;
        inSnapshot = false;
        marked.clear();
        touched.clear();
        return n;
    }

    /** The stream broke: a partial snapshot sweeps nothing. */
    void abandon() {
        inSnapshot = false;
        marked.clear();
        touched.clear();
    }

    /**
     * Applies the open entry at {@code p} unless {@code skip} says its key was changed since the
     * snapshot began (then it only returns the key).
     *
     * @param micros the change's time on the active (lag), or -1 for a snapshot entry
     * @return the entry's key hash ({@link BindingEntries#keyHash})
     */
    private long open(ByteBuf f, int p, int len, long micros, LongHashSet skip) {
        int q = p;
        int kl = f.getUnsignedByte(q);
        String label = f.toString(q + 1, kl, StandardCharsets.UTF_8);
        q += 1 + kl;
        long owner = f.getLong(q);
        int sub = f.getInt(q + 8);
        long key = BindingEntries.keyHash(label, owner, sub);
        if (skip != null && skip.contains(key)) {
            return key;
        }
        long alias = f.getLong(q + 12);
        long idleNs = f.getLong(q + 20);
        long remainingNs = f.getLong(q + 28);
        q += 36;
        int fl = f.getUnsignedByte(q);
        String farm = f.toString(q + 1, fl, StandardCharsets.UTF_8);
        q += 1 + fl;
        byte[] addr = new byte[f.getUnsignedByte(q)];
        f.getBytes(q + 1, addr);
        q += 1 + addr.length;
        int port = f.getUnsignedShort(q);
        int extraLen = f.getUnsignedShort(q + 2);
        TableMeters meters = metrics.table(label);
        BindingKind<?> kind = BindingKind.ofLabel(label);
        if (kind == null || kind.codec() == null) {
            meters.unresolved(Unresolved.UNKNOWN_KIND);
            return key;
        }
        RealServer real = source.realById().apply(RealId.of(farm, address(addr), port));
        if (real == null) {
            meters.unresolved(Unresolved.UNKNOWN_REAL);
            return key;
        }
        long now = source.clock().nanoTime();
        BindingCodec.Fields fields = new BindingCodec.Fields(owner, sub, real, alias, now, idleNs);
        if (!openIn(kind, fields, f.slice(q + 4, extraLen), remainingNs, now)) {
            meters.unresolved(Unresolved.MALFORMED);
            return key;
        }
        meters.applied.increment();
        if (micros >= 0) {
            meters.lagMicros(EpochClock.nowMicros() - micros);
        }
        return key;
    }

    private <B extends Binding> boolean openIn(BindingKind<B> kind, BindingCodec.Fields fields, ByteBuf extra,
                                               long remainingNs, long now) {
        B b;
        try {
            b = kind.codec().read(fields, extra);
        } catch (RuntimeException e) {
            b = null; // a codec that throws on bad bytes is treated like one that returns null
        }
        if (b == null) {
            return false;
        }
        source.bindings().table(kind).openReplicated(b, now, remainingNs);
        return true;
    }

    /** Applies the close entry at {@code p}; returns its key hash. */
    private long close(ByteBuf f, int p, long micros) {
        int kl = f.getUnsignedByte(p);
        String label = f.toString(p + 1, kl, StandardCharsets.UTF_8);
        long owner = f.getLong(p + 1 + kl);
        int sub = f.getInt(p + 9 + kl);
        TableMeters meters = metrics.table(label);
        BindingKind<?> kind = BindingKind.ofLabel(label);
        if (kind == null || kind.codec() == null) {
            meters.unresolved(Unresolved.UNKNOWN_KIND);
        } else {
            BindingTable<?> t = source.bindings().table(kind);
            closeIn(t, owner, sub);
            meters.applied.increment();
            meters.lagMicros(EpochClock.nowMicros() - micros);
        }
        return BindingEntries.keyHash(label, owner, sub);
    }

    private static <B extends Binding> void closeIn(BindingTable<B> t, long owner, int sub) {
        t.close(t.get(owner, sub));
    }

    /** Ends every replicated-kind binding neither the snapshot named nor a change touched. */
    private int sweep(LongHashSet marked, LongHashSet touched) {
        int n = 0;
        for (BindingTable<?> t : source.bindings().tables()) {
            if (t.kind().codec() != null) {
                String label = t.kind().label();
                n += t.closeIf(b -> {
                    long h = BindingEntries.keyHash(label, b.owner(), b.sub());
                    return !marked.contains(h) && !touched.contains(h);
                });
            }
        }
        return n;
    }

    private static InetAddress address(byte[] a) {
        try {
            return InetAddress.getByAddress(a);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("length checked before: " + a.length, e);
        }
    }
}
