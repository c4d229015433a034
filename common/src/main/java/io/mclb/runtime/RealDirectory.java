package io.mclb.runtime;

import io.mclb.farm.RealServer;
import io.netty.util.collection.LongObjectHashMap;

import java.util.ArrayList;
import java.util.List;

/**
 * Every real of the running balancer by id ({@link RealServer#id}): read on every loop (a sticky
 * entry names its real by id, {@link ClientCounter} counts clients per real), changed only by start
 * and reload. Reads take the current map without a lock or a boxed key; a change copies the map and
 * publishes the copy (the map a reader holds is never modified after publication). Writers are
 * serialised on this object.
 */
final class RealDirectory {
    private volatile LongObjectHashMap<RealServer> byId = new LongObjectHashMap<>();

    RealServer get(long id) {
        return byId.get(id);
    }

    synchronized void put(RealServer r) {
        LongObjectHashMap<RealServer> next = copy();
        next.put(r.id(), r);
        byId = next;
    }

    /** Removes {@code r} if it is still the real under its id. */
    synchronized void remove(RealServer r) {
        if (byId.get(r.id()) == r) {
            LongObjectHashMap<RealServer> next = copy();
            next.remove(r.id());
            byId = next;
        }
    }

    List<RealServer> all() {
        return new ArrayList<>(byId.values());
    }

    private LongObjectHashMap<RealServer> copy() {
        LongObjectHashMap<RealServer> next = new LongObjectHashMap<>(Math.max(8, byId.size() * 2));
        next.putAll(byId);
        return next;
    }
}
