package io.mclb.runtime;

import io.mclb.farm.RealServer;
import io.mclb.sticky.StickyChangeListener;
import io.mclb.sticky.StickyTable;

import java.util.HashMap;
import java.util.Map;

/**
 * Keeps each real's sticky-client count ({@code maxclients}, {@code mclb_real_clients}) true to
 * the sticky table: +1 when an entry starts naming a real, -1 when it stops. Recounted from the
 * table at start (entries survive restarts) and after a reload. Runs on the thread that changed
 * the table (a loop): the reals are looked up by primitive id, nothing is boxed per change.
 */
final class ClientCounter implements StickyChangeListener {
    private final RealDirectory realsById;

    ClientCounter(RealDirectory realsById) {
        this.realsById = realsById;
    }

    @Override
    public void onPut(byte[] key, byte[] value, byte[] previous) {
        long now = realId(value);
        long before = previous == null ? 0 : realId(previous);
        if (now == before) {
            return;
        }
        if (before != 0) {
            RealServer r = realsById.get(before);
            if (r != null) {
                r.clientRemoved();
            }
        }
        RealServer r = realsById.get(now);
        if (r != null) {
            r.clientAdded();
        }
    }

    @Override
    public void onRemove(byte[] key, byte[] value, RemoveReason reason) {
        RealServer r = realsById.get(realId(value));
        if (r != null) {
            r.clientRemoved();
        }
    }

    void recount(StickyTable table) {
        Map<Long, long[]> counts = new HashMap<>();
        table.forEach((k, v) -> {
            counts.computeIfAbsent(v.realId(), x -> new long[1])[0]++;
            return true;
        });
        for (RealServer r : realsById.all()) {
            long[] c = counts.get(r.id());
            r.setClients(c == null ? 0 : c[0]);
        }
    }

    private static long realId(byte[] value) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (value[i] & 0xff);
        }
        return v;
    }
}
