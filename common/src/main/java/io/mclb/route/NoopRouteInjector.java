package io.mclb.route;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The unprivileged twin: changes nothing, remembers the calls (tests assert them). Thread-safe. */
public final class NoopRouteInjector implements RouteInjector {
    private final List<String> calls = new CopyOnWriteArrayList<>();

    @Override
    public boolean install(InetAddress vip, RouteTable table) {
        calls.add("install " + vip.getHostAddress() + " table " + table.table());
        return true;
    }

    @Override
    public boolean withdraw(InetAddress vip, RouteTable table) {
        calls.add("withdraw " + vip.getHostAddress() + " table " + table.table());
        return true;
    }

    @Override
    public boolean flush(RouteTable table) {
        calls.add("flush table " + table.table());
        return true;
    }

    /** Calls so far, e.g. {@code install 10.0.0.1 table 100}. */
    public List<String> calls() {
        return List.copyOf(calls);
    }
}
