package io.mclb.radius.lb;

import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.LongObjectHashMap;
import io.netty.util.collection.LongObjectMap;

/**
 * Which framed-IP sticky entries each NAS created (NAS IPv4 address -> (group, framed IP)
 * pairs), so that its Accounting-On/Off can remove all of them without walking the whole sticky
 * table. Thread-safe: every event loop learns and forgets (an Access-Accept on the auth virtual
 * server's loop, the Stop on the accounting one's), the purge thread drains.
 *
 * <p>Nothing is boxed or allocated per learnt session once a NAS's set has room: the NAS is found
 * in a copy-on-write primitive map (a new NAS, rare, copies it), its entries are a primitive set
 * guarded by that NAS's own monitor. The monitor is shared between loops only by requests of the
 * same NAS that land on different loops, and is held for one hash probe; a lock-free set was not
 * worth its complexity for one write per session, and loop-confined sets would miss the Stop that
 * arrives on another loop than its Accept.
 *
 * <p>Entries are stored multiplied by an odd constant (undone on {@link #drain}): Netty's primitive
 * maps probe linearly from the key's low bits, and framed IPs come from pools, i.e. runs of
 * consecutive addresses; unmixed, two pools (or one pool wrapping around the table) made one
 * contiguous run of occupied slots, and every insert or removal landing in it walked the run: the
 * accounting benchmark's Start/Stop traffic fell to a tenth with a million sessions indexed.
 */
final class FramedIpIndex {
    private static final long[] NONE = new long[0];
    /** The 64-bit golden ratio and its inverse modulo 2^64: a bijection that spreads runs of keys over the table. */
    private static final long MIX = 0x9E3779B97F4A7C15L;
    private static final long UNMIX = 0xF1DE83E19937733DL;
    private volatile IntObjectHashMap<NasEntries> byNas = new IntObjectHashMap<>();

    static long entry(int group, int framedIp) {
        return ((long) group << 32) | (framedIp & 0xffffffffL);
    }

    /** @return true when the entry was not indexed for {@code nas} yet */
    boolean add(int nas, int group, int framedIp) {
        return entries(nas).add(entry(group, framedIp));
    }

    void remove(int nas, int group, int framedIp) {
        NasEntries s = byNas.get(nas);
        if (s != null) {
            s.remove(entry(group, framedIp));
        }
    }

    /** Takes and forgets every entry of {@code nas}. */
    long[] drain(int nas) {
        NasEntries s = byNas.get(nas);
        return s == null ? NONE : s.drain();
    }

    int size(int nas) {
        NasEntries s = byNas.get(nas);
        return s == null ? 0 : s.size();
    }

    private NasEntries entries(int nas) {
        NasEntries s = byNas.get(nas);
        return s != null ? s : added(nas);
    }

    private synchronized NasEntries added(int nas) {
        NasEntries s = byNas.get(nas);
        if (s == null) {
            IntObjectHashMap<NasEntries> next = new IntObjectHashMap<>(Math.max(8, byNas.size() * 2));
            next.putAll(byNas);
            s = new NasEntries();
            next.put(nas, s);
            byNas = next;
        }
        return s;
    }

    /** One NAS's entries; the object is kept when drained, so a learner holding it never writes to a lost set. */
    private static final class NasEntries {
        private LongObjectHashMap<Boolean> set = new LongObjectHashMap<>();

        synchronized boolean add(long e) {
            return set.put(e * MIX, Boolean.TRUE) == null;
        }

        synchronized void remove(long e) {
            set.remove(e * MIX);
        }

        synchronized int size() {
            return set.size();
        }

        synchronized long[] drain() {
            long[] all = new long[set.size()];
            int i = 0;
            for (LongObjectMap.PrimitiveEntry<Boolean> e : set.entries()) {
                all[i++] = e.key() * UNMIX;
            }
            set = new LongObjectHashMap<>();
            return all;
        }
    }
}
