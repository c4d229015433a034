package io.mclb.vserver;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Iterator;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Flows by address and port: a {@link FlowRelay}'s by client, a {@link FlowSocket}'s by real. An
 * IPv4 address and port are packed into one long that probes an open-addressed table of
 * primitives (linear probing, deletion by backward shift, at most half full), so a datagram's
 * lookup is a multiply and one or two array reads: as a {@code HashMap<InetSocketAddress, Flow>}
 * it cost {@code InetSocketAddress.hashCode} and, for a real's answer (the cached sender is not
 * the target object), {@code InetSocketAddressHolder.equals}, a fifth of the plain relay's Java on
 * its loop (perf/README.md, "Issue 15"). IPv6 and unresolved keys stay in a {@code HashMap}.
 *
 * <p>Confined to its relay's event loop.
 */
final class FlowIndex {
    private static final int INITIAL = 16;
    /** Not a key: an IPv4 key has only its low 48 bits set. */
    private static final long NOT_V4 = -1;

    private long[] keys = new long[INITIAL];
    /** null marks a free slot. */
    private Flow[] flows = new Flow[INITIAL];
    private int v4Count;
    private final HashMap<InetSocketAddress, Flow> other = new HashMap<>();

    /** Address (as Inet4Address.hashCode gives it, no byte array) and port in 48 bits, or {@link #NOT_V4}. */
    static long v4Key(InetSocketAddress a) {
        InetAddress ip = a.getAddress();
        return ip instanceof Inet4Address ? (ip.hashCode() & 0xffffffffL) << 16 | a.getPort() : NOT_V4;
    }

    Flow get(InetSocketAddress a) {
        long key = v4Key(a);
        if (key == NOT_V4) {
            return other.get(a);
        }
        long[] k = keys;
        Flow[] f = flows;
        int mask = k.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            Flow flow = f[i];
            if (flow == null || k[i] == key) {
                return flow;
            }
        }
    }

    boolean containsKey(InetSocketAddress a) {
        return get(a) != null;
    }

    /** Maps {@code a} to {@code flow} (non-null), replacing what it mapped to. */
    void put(InetSocketAddress a, Flow flow) {
        long key = v4Key(a);
        if (key == NOT_V4) {
            other.put(a, flow);
            return;
        }
        if (2 * (v4Count + 1) > keys.length) {
            grow();
        }
        if (insert(keys, flows, key, flow)) {
            v4Count++;
        }
    }

    void remove(InetSocketAddress a) {
        long key = v4Key(a);
        if (key == NOT_V4) {
            other.remove(a);
            return;
        }
        int mask = keys.length - 1;
        for (int i = slot(key, mask); flows[i] != null; i = (i + 1) & mask) {
            if (keys[i] == key) {
                deleteAt(i);
                return;
            }
        }
    }

    int size() {
        return v4Count + other.size();
    }

    boolean isEmpty() {
        return size() == 0;
    }

    void forEach(Consumer<Flow> action) {
        for (Flow f : flows) {
            if (f != null) {
                action.accept(f);
            }
        }
        other.values().forEach(action);
    }

    /** Removes every flow {@code remove} accepts and hands each to {@code removed}; {@code remove} sees a kept flow at most twice. */
    void removeIf(Predicate<Flow> remove, Consumer<Flow> removed) {
        for (int i = 0; i < flows.length; i++) {
            Flow f = flows[i];
            // a deletion shifts a later flow of the same run into slot i: look at it again
            while (f != null && remove.test(f)) {
                deleteAt(i);
                removed.accept(f);
                f = flows[i];
            }
        }
        for (Iterator<Flow> it = other.values().iterator(); it.hasNext(); ) {
            Flow f = it.next();
            if (remove.test(f)) {
                it.remove();
                removed.accept(f);
            }
        }
    }

    void clear() {
        java.util.Arrays.fill(flows, null);
        v4Count = 0;
        other.clear();
    }

    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ h >>> 32) & mask;
    }

    /** True when {@code key} was new. */
    private static boolean insert(long[] k, Flow[] f, long key, Flow flow) {
        int mask = k.length - 1;
        int i = slot(key, mask);
        while (f[i] != null) {
            if (k[i] == key) {
                f[i] = flow;
                return false;
            }
            i = (i + 1) & mask;
        }
        k[i] = key;
        f[i] = flow;
        return true;
    }

    /** Frees slot {@code i} and moves later flows of its run back so that every probe still finds them. */
    private void deleteAt(int i) {
        int mask = keys.length - 1;
        int hole = i;
        for (int j = (i + 1) & mask; flows[j] != null; j = (j + 1) & mask) {
            int home = slot(keys[j], mask);
            // j's flow may fill the hole unless its home lies cyclically in (hole, j]
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                keys[hole] = keys[j];
                flows[hole] = flows[j];
                hole = j;
            }
        }
        flows[hole] = null;
        v4Count--;
    }

    private void grow() {
        long[] k = new long[keys.length * 2];
        Flow[] f = new Flow[flows.length * 2];
        for (int i = 0; i < flows.length; i++) {
            if (flows[i] != null) {
                insert(k, f, keys[i], flows[i]);
            }
        }
        keys = k;
        flows = f;
    }
}
