package io.mclb.binding;

import io.mclb.farm.RealServer;

/**
 * One established per-subscriber binding: a key (an owner, e.g. the IMSI, and a sub-key, e.g. the
 * NSAPI), the real that holds it, an optional alias the real chose (e.g. its control TEID) and an
 * idle expiry refreshed by every request of the binding. A module extends it with what its
 * subscribers carry (a GTP session's GGSN signalling address). Identity fields are final; the
 * alias and expiry are volatile, written by the loop that sees the event, read by any.
 */
public class Binding {
    private final long owner;
    private final int sub;
    private final RealServer real;
    private final long idleNs;
    private volatile long alias;
    private volatile long expiresNs;
    /** The expiry the HA standby was last told of; read and written by the open and the ager only. */
    private long replicatedExpiresNs;

    /** @param alias 0 for none */
    protected Binding(long owner, int sub, RealServer real, long alias, long nowNs, long idleNs) {
        this.owner = owner;
        this.sub = sub;
        this.real = real;
        this.alias = alias;
        this.idleNs = idleNs;
        this.expiresNs = nowNs + idleNs;
        this.replicatedExpiresNs = expiresNs;
    }

    public final long owner() {
        return owner;
    }

    public final int sub() {
        return sub;
    }

    public final RealServer real() {
        return real;
    }

    /** The alias (e.g. TEID), 0 when none. */
    public final long alias() {
        return alias;
    }

    /** A request of this binding went through: it is not idle. */
    public final void touch(long nowNs) {
        expiresNs = nowNs + idleNs;
    }

    /** The idle lifetime each request renews. */
    public final long idleNs() {
        return idleNs;
    }

    /** Time left before the binding ends idle (negative once due): what replication carries. */
    public final long remainingNs(long nowNs) {
        return expiresNs - nowNs;
    }

    final long expiresNs() {
        return expiresNs;
    }

    /** A replicated binding keeps the expiry it had on the active node. */
    final void expiresIn(long nowNs, long remainingNs) {
        expiresNs = nowNs + remainingNs;
        replicatedExpiresNs = expiresNs;
    }

    /**
     * True, once, when requests moved the expiry more than {@code slackNs} past what the standby
     * was last told: the ager then re-sends the binding, so a subscriber that stays active never
     * expires on the standby, and the data path sends nothing per request.
     */
    final boolean expiryMovedPast(long slackNs) {
        long e = expiresNs;
        if (e - replicatedExpiresNs > slackNs) {
            replicatedExpiresNs = e;
            return true;
        }
        return false;
    }

    /**
     * Whether {@code replica} (the same subscriber on the same real under the same alias, received
     * from the HA active) carries the same module state as this one, so that a refresh only moves the
     * expiry; a module whose binding can change in place (a GTP session's SGSN side) says no when it did.
     */
    protected boolean sameStateAs(Binding replica) {
        return true;
    }
}
