package io.mclb.farm;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The verdicts of the health layer that hold a real back beyond its probes' failures (which are
 * {@link RealServer#setProbeFailed}'s): probes it has not passed yet ({@link RealState#TESTING}),
 * in-band failures awaiting its probes' confirmation ({@link RealState#SUSPECT}) and a
 * {@code track-port} master that is down ({@link RealState#MASTER_DOWN}).
 *
 * <p>Written rarely (probe loops, the runtime's state listener, the data path once per
 * suspicion) under the real's monitor, so each change is reported as one transition; read per
 * eligibility check through the single volatile {@link #blocked}.
 */
public final class RealHealth {
    private final RealServer real;
    private final Set<String> untested = new HashSet<>();
    /** {@code !untested.isEmpty()}: read without the monitor (a state read must never wait). */
    private volatile boolean untestedAny;
    private volatile boolean suspect;
    private volatile boolean masterDown;
    /** untested non-empty, or suspect, or masterDown: the one read of the data path. */
    private volatile boolean blocked;
    private volatile InbandConfirmer confirmer;

    RealHealth(RealServer real) {
        this.real = real;
    }

    boolean blocked() {
        return blocked;
    }

    /** The state these verdicts derive on an in-service real, or null when they hold nothing back. Lock-free. */
    RealState derived() {
        if (!blocked) {
            return null;
        }
        return untestedAny ? RealState.TESTING : suspect ? RealState.SUSPECT
                : masterDown ? RealState.MASTER_DOWN : null;
    }

    private void recompute() {
        untestedAny = !untested.isEmpty();
        blocked = untestedAny || suspect || masterDown;
    }

    /**
     * A new real (at start, or added by a reload) checked by {@code probes}: TESTING until each has
     * passed once, so no subscriber goes to an unverified real. Not reported (it is the real's first state).
     */
    public void awaitProbes(Collection<String> probes) {
        synchronized (real.monitor()) {
            untested.addAll(probes);
            recompute();
        }
    }

    /** Probe {@code probe} passed once, or no longer checks this real. */
    public void probeTested(String probe, String why) {
        synchronized (real.monitor()) {
            RealState before = real.state();
            if (untested.remove(probe)) {
                recompute();
                real.reportDerived(before, why);
            }
        }
    }

    /** Probes this real still waits for (show commands, tests). */
    public List<String> untestedProbes() {
        synchronized (real.monitor()) {
            return List.copyOf(new TreeSet<>(untested));
        }
    }

    /** Who confirms in-band suspicion of this real: its probe scheduler, or null (IOS behaviour: fail at once). */
    public void confirmWith(InbandConfirmer c) {
        confirmer = c;
        if (c == null) {
            endSuspicion("no probes left to confirm it");
        }
    }

    /**
     * In-band failures reached {@code faildetect}: with a confirmer the real becomes SUSPECT and its
     * probes run now; without one, nothing happens here and the caller fails the real as IOS does.
     *
     * @return whether the confirmer took the case (the caller must not fail the real)
     */
    boolean suspect(String why) {
        InbandConfirmer c = confirmer;
        if (c == null) {
            return false;
        }
        synchronized (real.monitor()) {
            if (suspect) {
                return true; // already being confirmed
            }
            RealState before = real.state();
            suspect = true;
            recompute();
            real.reportDerived(before, why + ", confirming with its probes");
        }
        c.confirm(real, why);
        return true;
    }

    public boolean isSuspect() {
        return suspect;
    }

    /** The probes confirmed the suspicion (after failing the real) or cleared it. */
    public void endSuspicion(String why) {
        synchronized (real.monitor()) {
            if (!suspect) {
                return;
            }
            RealState before = real.state();
            suspect = false;
            recompute();
            real.reportDerived(before, why);
        }
    }

    /** The master of this real's {@code track-port} group went down (true) or came back. */
    public void masterDown(boolean down, String why) {
        synchronized (real.monitor()) {
            if (masterDown == down) {
                return;
            }
            RealState before = real.state();
            masterDown = down;
            recompute();
            real.reportDerived(before, why);
        }
    }

    public boolean isMasterDown() {
        return masterDown;
    }
}
