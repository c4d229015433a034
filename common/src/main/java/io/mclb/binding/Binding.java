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

    /** @param alias 0 for none */
    protected Binding(long owner, int sub, RealServer real, long alias, long nowNs, long idleNs) {
        this.owner = owner;
        this.sub = sub;
        this.real = real;
        this.alias = alias;
        this.idleNs = idleNs;
        this.expiresNs = nowNs + idleNs;
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

    final long expiresNs() {
        return expiresNs;
    }
}
