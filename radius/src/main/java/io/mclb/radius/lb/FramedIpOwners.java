package io.mclb.radius.lb;

import io.mclb.sticky.StickyChangeListener;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyTable;
import io.mclb.sticky.StickyValue;

/**
 * Which NAS learnt each framed-IP entry, kept in the sticky table itself so that it survives a
 * restart (the table is a persisted file) and reaches the HA standby (the replicator streams every
 * sticky change), as the framed-IP entries it describes do: the {@link FramedIpIndex} of
 * Accounting-On/Off purges is then rebuilt from it at start ({@link #rebuild}) and kept up to date
 * from every write, local or replicated ({@link #onPut}, {@link #onRemove}).
 *
 * <pre>
 * key   (kind radius-framed-ip-nas, group, Framed-IP-Address: 4 octets)   as the framed-IP entry's key
 * value (realId = the NAS's IPv4 address, created, expires)               expiry as the framed-IP entry's
 * </pre>
 * The framed-IP entry itself has no room for the NAS (its value is the real's id and two times), and
 * its key cannot carry it (a Stop or a route-map lookup knows the address only). One owner entry per
 * framed-IP entry: a second NAS that learns the same address takes it over, as it takes the
 * framed-IP entry. An owner entry that expires leaves the index alone, as before (the session may
 * still be live through a sticky refresh the learner did not see); only a Stop, a purge or a
 * replicated removal takes an address out of the index.
 *
 * <p>Every owner write also tells the index the owner entry's expiry, which the learner compares
 * instead of reading the entry back.
 *
 * <p>Listener calls run on the thread that changed the table (an event loop, the purge thread, the
 * replication receiver) and touch only the thread-safe {@link FramedIpIndex}.
 */
final class FramedIpOwners implements StickyChangeListener {
    private final FramedIpIndex index;

    FramedIpOwners(FramedIpIndex index) {
        this.index = index;
    }

    /** Fills {@code key} with the owner key of {@code framed} in {@code group}, reusing {@code scratch} (4 octets). */
    static StickyKey key(StickyKey key, byte[] scratch, int group, int framed) {
        scratch[0] = (byte) (framed >>> 24);
        scratch[1] = (byte) (framed >>> 16);
        scratch[2] = (byte) (framed >>> 8);
        scratch[3] = (byte) framed;
        return key.set(RadiusStickyKinds.FRAMED_IP_NAS, group, scratch, 0, 4);
    }

    /** The owner value of a framed-IP entry {@code entry} learnt from {@code nas}. */
    static StickyValue value(StickyValue out, int nas, StickyValue entry) {
        return out.set(nas & 0xFFFF_FFFFL, entry.createdEpochSeconds(), entry.expiresEpochSeconds());
    }

    /**
     * Indexes every live owner entry of the table (at start: the entries a previous run or the
     * active peer left). Walks the whole table: once, off the data loops.
     *
     * @return owner entries indexed
     */
    int rebuild(StickyTable table, long nowEpochMillis) {
        int[] n = {0};
        table.forEach((k, v) -> {
            if (isOwner(k.bytes()) && !v.expiredAt(nowEpochMillis)) {
                index.owned(nas(v.bytes()), group(k.bytes()), framed(k.bytes()), v.expiresEpochSeconds());
                n[0]++;
            }
            return true;
        });
        return n[0];
    }

    @Override
    public void onPut(byte[] key, byte[] value, byte[] previous) {
        if (!isOwner(key)) {
            return;
        }
        int group = group(key);
        int framed = framed(key);
        int nas = nas(value);
        if (previous != null && nas(previous) != nas) {
            index.remove(nas(previous), group, framed);
        }
        index.owned(nas, group, framed, expires(value));
    }

    @Override
    public void onRemove(byte[] key, byte[] value, RemoveReason reason) {
        if (isOwner(key) && reason != RemoveReason.EXPIRED && value != null) {
            index.remove(nas(value), group(key), framed(key));
        }
    }

    private static boolean isOwner(byte[] key) {
        return (key[0] & 0xff) == RadiusStickyKinds.FRAMED_IP_NAS.code() && key[3] == 4;
    }

    private static int group(byte[] key) {
        return ((key[1] & 0xff) << 8) | (key[2] & 0xff);
    }

    private static int framed(byte[] key) {
        return ((key[4] & 0xff) << 24) | ((key[5] & 0xff) << 16) | ((key[6] & 0xff) << 8) | (key[7] & 0xff);
    }

    /** The value's expiry, epoch seconds (as {@link StickyValue#expiresEpochSeconds}). */
    private static long expires(byte[] value) {
        return ((long) (value[12] & 0xff) << 24) | ((value[13] & 0xff) << 16) | ((value[14] & 0xff) << 8) | (value[15] & 0xff);
    }

    /** The low 32 bits of the value's realId field: the NAS's address. */
    private static int nas(byte[] value) {
        return ((value[4] & 0xff) << 24) | ((value[5] & 0xff) << 16) | ((value[6] & 0xff) << 8) | (value[7] & 0xff);
    }
}
