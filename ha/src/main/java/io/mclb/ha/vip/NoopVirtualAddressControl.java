package io.mclb.ha.vip;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The unprivileged twin: changes nothing, remembers the calls (tests assert them). Thread-safe. */
public final class NoopVirtualAddressControl implements VirtualAddressControl {
    private final List<String> calls = new CopyOnWriteArrayList<>();

    @Override
    public boolean acquire(String iface, InetAddress vip, int prefix) {
        calls.add("acquire " + iface + " " + vip.getHostAddress() + "/" + prefix);
        return true;
    }

    @Override
    public boolean release(String iface, InetAddress vip, int prefix) {
        calls.add("release " + iface + " " + vip.getHostAddress() + "/" + prefix);
        return true;
    }

    /** Calls so far, e.g. {@code acquire veth-a 10.99.0.100/24}. */
    public List<String> calls() {
        return List.copyOf(calls);
    }
}
