package io.mclb.radius.lb;

import io.netty.util.collection.IntObjectHashMap;

/**
 * Which framed-IP sticky entries each NAS created (NAS IPv4 address -> (group, framed IP)
 * pairs), so that its Accounting-On/Off can remove all of them without walking the whole sticky
 * table. Thread-safe: every event loop learns and forgets (an Access-Accept on the auth virtual
 * server's loop, the Stop on the accounting one's), the purge thread drains.
 *
 * <p>Beside each entry the index keeps the expiry of its owner entry ({@link FramedIpOwners}) as
 * last written to the table, from the table's own change events: the learner asks it instead of
 * reading the owner entry back on every Access-Accept and Interim-Update of a live session, a
 * sticky query of about a microsecond (perf/README.md, "The owner entry's expiry from the index").
 * The events keep it exact: an owner write by another NAS takes the entry out of this NAS's set, a
 * removal of any reason but expiry takes it out, and an expired owner's remembered expiry is past.
 *
 * <p>Nothing is boxed or allocated per learnt session once a NAS's set has room: the NAS is found
 * in a copy-on-write primitive map (a new NAS, rare, copies it), its entries are a primitive map
 * guarded by that NAS's own monitor. The monitor is shared between loops only by requests of the
 * same NAS that land on different loops, and is held for one hash probe; a lock-free set was not
 * worth its complexity for one write per session, and loop-confined sets would miss the Stop that
 * arrives on another loop than its Accept.
 *
 * <p>Entries are stored plus one and multiplied by an odd constant (undone on {@link #drain}: a
 * bijection that maps no entry to 0, the free slot's mark, as a group has 16 bits) and probed from
 * the product's high bits: framed IPs come from pools, i.e. runs of consecutive addresses, and
 * probed from their own low bits (as Netty's primitive maps did here) two pools, or one pool
 * wrapping around the table, made one contiguous run of occupied slots that every insert or
 * removal landing in it walked: the accounting benchmark's Start/Stop traffic fell to a tenth with
 * a million sessions indexed.
 */
final class FramedIpIndex {
    /** {@link #add}'s answer for an entry the NAS's set did not hold yet. */
    static final long NEW = -1;
    private static final long[] NONE = new long[0];
    /** The 64-bit golden ratio and its inverse modulo 2^64: a bijection that spreads runs of keys over the table. */
    private static final long MIX = 0x9E3779B97F4A7C15L;
    private static final long UNMIX = 0xF1DE83E19937733DL;
    private volatile IntObjectHashMap<NasEntries> byNas = new IntObjectHashMap<>();

    static long entry(int group, int framedIp) {
        return ((long) group << 32) | (framedIp & 0xffffffffL);
    }

    private static long mixed(int group, int framedIp) {
        return (entry(group, framedIp) + 1) * MIX;
    }

    /**
     * Indexes the entry for {@code nas}.
     *
     * @return {@link #NEW} when the NAS's set did not hold it yet, else the expiry (epoch seconds)
     *     of its owner entry as last written to the table, 0 when none was seen since it was indexed
     */
    long add(int nas, int group, int framedIp) {
        return entries(nas).add(mixed(group, framedIp));
    }

    /** Indexes the entry for {@code nas} with the expiry of the owner entry just written to the table. */
    void owned(int nas, int group, int framedIp, long ownerExpiresEpochSeconds) {
        entries(nas).owned(mixed(group, framedIp), ownerExpiresEpochSeconds);
    }

    /** The owner entry's expiry as {@link #add} answers it, without indexing: {@link #NEW} when not indexed for {@code nas}. */
    long ownerExpires(int nas, int group, int framedIp) {
        NasEntries s = byNas.get(nas);
        return s == null ? NEW : s.get(mixed(group, framedIp));
    }

    void remove(int nas, int group, int framedIp) {
        NasEntries s = byNas.get(nas);
        if (s != null) {
            s.remove(mixed(group, framedIp));
        }
    }

    /** Takes and forgets every entry of {@code nas}. */
    long[] drain(int nas) {
        NasEntries s = byNas.get(nas);
        if (s == null) {
            return NONE;
        }
        long[] all = s.drain();
        for (int i = 0; i < all.length; i++) {
            all[i] = all[i] * UNMIX - 1;
        }
        return all;
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

    /**
     * One NAS's entries (mixed, so never 0) and their owner expiries: open
     * addressing over two primitive arrays, linear probing from the key's high bits, at most half
     * full, removal by backward shift (no tombstones under Start/Stop churn). The object is kept
     * when drained, so a learner holding it never writes to a lost set.
     */
    private static final class NasEntries {
        private static final int INITIAL = 16;
        private long[] keys = new long[INITIAL];
        private long[] expiries = new long[INITIAL];
        private int shift = 64 - Integer.numberOfTrailingZeros(INITIAL);
        private int size;

        private int home(long key) {
            return (int) (key >>> shift);
        }

        /** The slot holding {@code key}, or the free slot where it would go. */
        private int slot(long key) {
            int mask = keys.length - 1;
            int i = home(key);
            while (keys[i] != 0 && keys[i] != key) {
                i = (i + 1) & mask;
            }
            return i;
        }

        synchronized long add(long key) {
            int i = slot(key);
            if (keys[i] == key) {
                return expiries[i];
            }
            insert(i, key, 0);
            return NEW;
        }

        synchronized void owned(long key, long expires) {
            int i = slot(key);
            if (keys[i] == key) {
                expiries[i] = expires;
            } else {
                insert(i, key, expires);
            }
        }

        synchronized long get(long key) {
            int i = slot(key);
            return keys[i] == key ? expiries[i] : NEW;
        }

        private void insert(int i, long key, long expires) {
            keys[i] = key;
            expiries[i] = expires;
            if (++size > keys.length / 2) {
                grow();
            }
        }

        private void grow() {
            long[] oldKeys = keys;
            long[] oldExpiries = expiries;
            keys = new long[oldKeys.length * 2];
            expiries = new long[oldKeys.length * 2];
            shift--;
            for (int j = 0; j < oldKeys.length; j++) {
                if (oldKeys[j] != 0) {
                    int i = slot(oldKeys[j]);
                    keys[i] = oldKeys[j];
                    expiries[i] = oldExpiries[j];
                }
            }
        }

        synchronized void remove(long key) {
            int i = slot(key);
            if (keys[i] != key) {
                return;
            }
            int mask = keys.length - 1;
            // backward shift: pull each later entry of the run whose home is not in (i, j] into the gap
            for (int j = (i + 1) & mask; keys[j] != 0; j = (j + 1) & mask) {
                if (((j - home(keys[j])) & mask) >= ((j - i) & mask)) {
                    keys[i] = keys[j];
                    expiries[i] = expiries[j];
                    i = j;
                }
            }
            keys[i] = 0;
            expiries[i] = 0;
            size--;
        }

        synchronized int size() {
            return size;
        }

        /** The mixed keys, and forgets them. */
        synchronized long[] drain() {
            long[] all = new long[size];
            int n = 0;
            for (long k : keys) {
                if (k != 0) {
                    all[n++] = k;
                }
            }
            keys = new long[INITIAL];
            expiries = new long[INITIAL];
            shift = 64 - Integer.numberOfTrailingZeros(INITIAL);
            size = 0;
            return all;
        }
    }
}
