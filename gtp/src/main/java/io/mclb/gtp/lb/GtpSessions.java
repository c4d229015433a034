package io.mclb.gtp.lb;

import io.mclb.farm.RealServer;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The GTP sessions mclb has seen established: one per (IMSI, NSAPI or EBI), on one real, holding
 * exactly one of that real's connections (the one the engine kept on {@code FORWARD_SESSION}).
 * This is what {@code predictor leastconns} balances on, so it must stay true: a session ends on
 * an accepted Delete seen through mclb, a delete notification, {@code idle gtp imsi} expiry, or a
 * GGSN restart purge, and {@link #close} releases the real's connection exactly once (the
 * {@code remove(key, session)} that wins is the only one that releases).
 *
 * <p>Shared by every virtual server and event loop of the module; lock-free (concurrent maps).
 * Touched per session event (create, delete, follow-up lookup), never walked per datagram; the
 * walks ({@link #expire}, {@link #purge}) run on the ager and on GGSN restarts.
 *
 * <p>TEID index: the GGSN's control TEID learned from the accepted create answers later requests
 * addressed to it. TEIDs are assumed unique across the farm (each GGSN picks its own, so two
 * GGSNs may collide): on a collision the last create wins and {@link #teidCollisions()} counts it.
 */
public final class GtpSessions {

    /** One established session. Identity fields are final; the TEID and expiry may be refreshed. */
    public static final class Session {
        final long imsiRaw;
        final int nsapi;
        final RealServer real;
        final long idleNs;
        final byte[] ggsnAddress;
        volatile int teid;
        volatile long expiresNs;

        Session(long imsiRaw, int nsapi, RealServer real, int teid, byte[] ggsnAddress, long nowNs, long idleNs) {
            this.imsiRaw = imsiRaw;
            this.nsapi = nsapi;
            this.real = real;
            this.teid = teid;
            this.ggsnAddress = ggsnAddress;
            this.idleNs = idleNs;
            this.expiresNs = nowNs + idleNs;
        }

        public long imsiRaw() {
            return imsiRaw;
        }

        public int nsapi() {
            return nsapi;
        }

        public RealServer real() {
            return real;
        }

        public int teid() {
            return teid;
        }

        /** The signalling address the GGSN advertised in its answer (4 or 16 octets), or null. */
        public byte[] ggsnAddress() {
            return ggsnAddress;
        }

        /** A request of this session went through: it is not idle. */
        public void touch(long nowNs) {
            expiresNs = nowNs + idleNs;
        }
    }

    private final ConcurrentHashMap<Long, Session> byKey = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Integer, Session> byTeid = new ConcurrentHashMap<>();
    private final LongAdder teidCollisions = new LongAdder();

    /** The map key of (IMSI, NSAPI); the session itself is compared on lookup so a hash clash cannot mix subscribers. */
    static long key(long imsiRaw, int nsapi) {
        long h = imsiRaw * 0x9E3779B97F4A7C15L;
        return (h ^ (h >>> 29)) * 31 + nsapi;
    }

    /**
     * Records an accepted create. A previous session with the same (IMSI, NSAPI) is closed first
     * (its real's connection released): the subscriber re-created it, possibly elsewhere.
     *
     * @param teid the GGSN's control TEID, 0 if none was learned
     */
    public Session open(long imsiRaw, int nsapi, RealServer real, int teid, byte[] ggsnAddress, long nowNs, long idleNs) {
        Session s = new Session(imsiRaw, nsapi, real, teid, ggsnAddress, nowNs, idleNs);
        Session prev = byKey.put(key(imsiRaw, nsapi), s);
        if (prev != null) {
            unindexTeid(prev);
            prev.real.release();
        }
        if (teid != 0) {
            Session other = byTeid.put(teid, s);
            if (other != null && other != prev && other.real != real) {
                teidCollisions.increment();
            }
        }
        return s;
    }

    public Session get(long imsiRaw, int nsapi) {
        Session s = byKey.get(key(imsiRaw, nsapi));
        return s != null && s.imsiRaw == imsiRaw && s.nsapi == nsapi ? s : null;
    }

    /** The session whose GGSN control TEID is {@code teid}, or null. */
    public Session byTeid(int teid) {
        return byTeid.get(teid);
    }

    /** Ends a session; true (and the real's connection released) only for the call that removed it. */
    public boolean close(Session s) {
        if (s != null && byKey.remove(key(s.imsiRaw, s.nsapi), s)) {
            unindexTeid(s);
            s.real.release();
            return true;
        }
        return false;
    }

    private void unindexTeid(Session s) {
        if (s.teid != 0) {
            byTeid.remove(s.teid, s);
        }
    }

    /** Ends every session idle past its expiry; returns how many. */
    public int expire(long nowNs) {
        int n = 0;
        for (Session s : byKey.values()) {
            if (nowNs - s.expiresNs >= 0 && close(s)) {
                n++;
            }
        }
        return n;
    }

    /** Ends every session on the real with id {@code realId} (GGSN restart); returns how many. */
    public int purge(long realId) {
        int n = 0;
        for (Session s : byKey.values()) {
            if (s.real.id() == realId && close(s)) {
                n++;
            }
        }
        return n;
    }

    /** Ends every session of an IMSI on {@code realId} (delete notification without NSAPI). Walks the table. */
    public int closeImsi(long imsiRaw, long realId) {
        int n = 0;
        for (Session s : byKey.values()) {
            if (s.imsiRaw == imsiRaw && s.real.id() == realId && close(s)) {
                n++;
            }
        }
        return n;
    }

    public int size() {
        return byKey.size();
    }

    public long teidCollisions() {
        return teidCollisions.sum();
    }
}
