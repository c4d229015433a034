package io.mclb.farm;

import io.mclb.config.RealConfig;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * In-band failure detection state of one real ({@code faildetect numconns N numclients M}): the
 * consecutive failures since the last answer and the distinct clients among them. Lock-free; the
 * distinct set is approximate under concurrent failures (a reset racing a record may lose or keep
 * one entry), which only shifts the moment of failing by one request.
 */
final class FailStreak {
    /** Upper bound on tracked distinct failing clients (IOS numclients is 1-8). */
    static final int MAX_TRACKED_CLIENTS = 64;

    private final AtomicLong streak = new AtomicLong();
    /** Slots hold (hash | 1L << 32) so that 0 means empty. */
    private final AtomicLongArray clients;
    private final AtomicLong clientCount = new AtomicLong();

    FailStreak(int trackedClients) {
        clients = new AtomicLongArray(Math.max(1, Math.min(trackedClients, MAX_TRACKED_CLIENTS)));
    }

    /** A streak sized for {@code c}'s {@code faildetect numclients}. */
    static FailStreak of(RealConfig c) {
        return new FailStreak(trackedClients(c));
    }

    /** Whether a real reconfigured from {@code old} to {@code c} needs a streak of another size. */
    static boolean resized(RealConfig old, RealConfig c) {
        return trackedClients(old) != trackedClients(c);
    }

    /** Effective numclients: configured value, or min(numconns, 8) when unset (&lt;= 0), capped. */
    private static int trackedClients(RealConfig c) {
        int n = c.faildetectNumclients();
        int numclients = n > 0 ? n : Math.min(Math.max(c.faildetectNumconns(), 1), 8);
        return Math.min(numclients, MAX_TRACKED_CLIENTS);
    }

    /**
     * Counts one failure of {@code clientHash} against {@code c}'s {@code faildetect numconns N
     * numclients M}; returns why the real fails now (N failures in a row, or M distinct clients
     * among them), or null while it does not.
     */
    String record(RealConfig c, int clientHash) {
        long failed = addFailure();
        long distinct = addClient(clientHash);
        int numconns = Math.max(c.faildetectNumconns(), 1);
        int numclients = trackedClients(c);
        if (failed >= numconns) {
            return "faildetect numconns " + numconns + " reached";
        }
        return distinct >= numclients ? "faildetect numclients " + numclients + " reached" : null;
    }

    int capacity() {
        return clients.length();
    }

    /** Counts one failure; returns the streak length. */
    long addFailure() {
        return streak.incrementAndGet();
    }

    boolean isEmpty() {
        return streak.get() == 0;
    }

    /** Adds the client to the streak's distinct set; returns the set's size. */
    long addClient(int clientHash) {
        long tag = (clientHash & 0xffff_ffffL) | (1L << 32);
        for (int i = 0; i < clients.length(); i++) {
            long v = clients.get(i);
            if (v == tag) {
                return clientCount.get();
            }
            if (v == 0 && clients.compareAndSet(i, 0, tag)) {
                return clientCount.incrementAndGet();
            }
            if (clients.get(i) == tag) {
                return clientCount.get();
            }
        }
        return clientCount.get();
    }

    void reset() {
        streak.set(0);
        for (int i = 0; i < clients.length(); i++) {
            clients.set(i, 0);
        }
        clientCount.set(0);
    }
}
