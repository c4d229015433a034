package io.mclb.farm;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a real carries now and has carried: connections (flows, transactions, sessions), sticky
 * clients, new work per second, and the totals. Shared by every event loop, lock-free. The
 * current counts are exact atomics because limits ({@code maxconns}, {@code maxclients}) are
 * enforced on them, and never go below 0; totals are {@link LongAdder}s.
 */
final class RealLoad {
    /** Invariant: conns &gt;= 0. */
    private final AtomicLong conns = new AtomicLong();
    /** Invariant: clients &gt;= 0. */
    private final AtomicLong clients = new AtomicLong();
    private final RateWindow rate = new RateWindow();
    private final LongAdder assignments = new LongAdder();
    private final LongAdder failures = new LongAdder();

    long conns() {
        return conns.get();
    }

    long clients() {
        return clients.get();
    }

    /** Room for one more connection, a new client if {@code newClient}, and the rate this second. */
    boolean hasRoom(long maxConns, long maxClients, int ratePerSecond, boolean newClient, long nowNs) {
        return conns.get() < maxConns && (!newClient || clients.get() < maxClients)
                && rate.available(ratePerSecond, nowNs);
    }

    /** Claims one connection within {@code maxConns} and the rate window; false (nothing held) if either is used up. */
    boolean take(long maxConns, int ratePerSecond, long nowNs) {
        long n;
        do {
            n = conns.get();
            if (n >= maxConns) {
                return false;
            }
        } while (!conns.compareAndSet(n, n + 1));
        if (!rate.take(ratePerSecond, nowNs)) {
            release();
            return false;
        }
        assignments.increment();
        return true;
    }

    /** Claims a connection beyond every limit (the single test connection of a failed real). */
    void takeTest() {
        conns.incrementAndGet();
        assignments.increment();
    }

    /** Claims a connection beyond every limit for a session another node admitted (HA standby). */
    void hold() {
        conns.incrementAndGet();
    }

    void release() {
        long n;
        do {
            n = conns.get();
            if (n <= 0) {
                return;
            }
        } while (!conns.compareAndSet(n, n - 1));
    }

    void clientAdded() {
        clients.incrementAndGet();
    }

    void clientRemoved() {
        long n;
        do {
            n = clients.get();
            if (n <= 0) {
                return;
            }
        } while (!clients.compareAndSet(n, n - 1));
    }

    void setClients(long n) {
        clients.set(Math.max(0, n));
    }

    void failed() {
        failures.increment();
    }

    long assignments() {
        return assignments.sum();
    }

    long failures() {
        return failures.sum();
    }
}
