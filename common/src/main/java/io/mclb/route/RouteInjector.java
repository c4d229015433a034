package io.mclb.route;

import java.net.InetAddress;

/**
 * The privileged OS action of route health injection (Seesaw's split): a host route for a
 * virtual address in mclb's own table, which the routing daemon announces. Implementations are
 * idempotent (installing a route that is there, or withdrawing one that is not, succeeds) and
 * never throw: failures are logged and reported by the return value, and retried.
 */
public interface RouteInjector {
    boolean install(InetAddress vip, RouteTable table);

    boolean withdraw(InetAddress vip, RouteTable table);

    /** Removes every route of {@code table} and its protocol (at start: a crashed run's leftovers). */
    boolean flush(RouteTable table);
}
