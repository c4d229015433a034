package io.mclb.binding;

import io.mclb.farm.RealServer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One established per-subscriber binding: a key (an owner, e.g. the IMSI, and a sub-key, e.g. the
 * NSAPI), the real that holds it, an optional alias the real chose (e.g. its control TEID) and an
 * idle expiry refreshed by every request of the binding. A module extends it with what its
 * subscribers carry (a GTP session's GGSN signalling address). Identity fields are final; the
 * alias and expiry are volatile, written by the loop that sees the event, read by any.
 *
 * <p>A binding can be renewed in place ({@link BindingTable#startRenewal}): the same subscriber
 * re-established it on the same real, and the object now stands for the new context (new alias)
 * instead of a new object replacing it. So that nothing acts on a renewed binding on behalf of the
 * context it no longer represents, every change of its lifecycle goes through one word, its
 * {@link #generation()}: even and stable while it stands for one context, odd while a renewal
 * rewrites it, {@link #ENDED} once it left the table. A holder that acts later (a delete's
 * transaction) captures the generation and ends the binding only through it
 * ({@link BindingTable#close(Binding, int)}); the ager and purges re-check their condition against the
 * generation they end. Whoever moves the word first wins: an end and a renewal never both succeed.
 */
public class Binding {
    /** {@link #generation()} of a binding that left its table: never renewed again. */
    public static final int ENDED = -1;
    private static final VarHandle GENERATION;

    static {
        try {
            GENERATION = MethodHandles.lookup().findVarHandle(Binding.class, "generation", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long owner;
    private final int sub;
    private final RealServer real;
    private final long idleNs;
    private volatile long alias;
    private volatile long expiresNs;
    /** The expiry the HA standby was last told of; read and written by the open and the ager only. */
    private long replicatedExpiresNs;
    /** Even: the context's generation; odd: being renewed; {@link #ENDED}. Through {@link #GENERATION}. */
    @SuppressWarnings("unused")
    private volatile int generation;

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

    /**
     * The generation of the context this binding stands for now, or {@link #ENDED}. Waits out a
     * renewal under way on another thread (a few field writes, never blocking).
     */
    public final int generation() {
        int g;
        while (((g = generation) & 1) != 0 && g != ENDED) {
            Thread.onSpinWait();
        }
        return g;
    }

    /** Ends generation {@code g}: true only for the one caller that moved it to {@link #ENDED}. */
    final boolean end(int g) {
        return g != ENDED && (g & 1) == 0 && GENERATION.compareAndSet(this, g, ENDED);
    }

    /** Ends whatever context the binding stands for now; false if it had ended already. */
    final boolean endNow() {
        for (;;) {
            int g = generation();
            if (g == ENDED) {
                return false;
            }
            if (GENERATION.compareAndSet(this, g, ENDED)) {
                return true;
            }
        }
    }

    /** The word as it is: odd while the renewal of the caller (its holder) is under way. */
    final int claimedGeneration() {
        return generation;
    }

    /** Gives up a claim taken from {@code g} without changing anything: the binding stays at {@code g}. */
    final void abandonRenewal(int g) {
        generation = g;
    }

    /** Claims the binding for a renewal: false if it ended or another renewal holds it. */
    final boolean claimRenewal(int g) {
        return g != ENDED && (g & 1) == 0 && GENERATION.compareAndSet(this, g, g + 1);
    }

    /**
     * Publishes the renewal claimed from {@code g}: the next even generation, skipping {@link #ENDED}'s
     * neighbourhood when the counter wraps (after 2^31 renewals of one binding).
     */
    final void publishRenewal(int g) {
        int next = g + 2;
        generation = next == ENDED - 1 ? 0 : next;
    }

    /** A renewal: the new context's alias and a fresh idle expiry from {@code nowNs}; the standby is told afresh. */
    final void renewed(long alias, long nowNs) {
        this.alias = alias;
        this.expiresNs = nowNs + idleNs;
        this.replicatedExpiresNs = expiresNs;
    }
}
