package io.mclb.route;

import io.mclb.net.SystemCommand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;

/**
 * Routes with iproute2 (needs CAP_NET_ADMIN): {@code ip route replace VIP/32 dev lo table N proto P}
 * (IPv6: {@code /128}), {@code ip route del ...} ("No such process": it was not there, success) and
 * {@code ip route flush table N proto P}. A route in a table of its own changes no forwarding on
 * this host; only the daemon that redistributes that table reads it. Runs on the caller's thread
 * (the route health worker), each command bounded by a timeout; a change is an event, not per
 * packet, so a process per change is cheap.
 */
public final class LinuxRouteInjector implements RouteInjector {
    private static final Logger LOG = LoggerFactory.getLogger(LinuxRouteInjector.class);

    private final String ip;

    public LinuxRouteInjector() {
        String found = SystemCommand.find("ip");
        this.ip = found == null ? "ip" : found;
    }

    @Override
    public boolean install(InetAddress vip, RouteTable t) {
        return SystemCommand.run(route(vip, "replace", t), null, LOG);
    }

    @Override
    public boolean withdraw(InetAddress vip, RouteTable t) {
        return SystemCommand.run(route(vip, "del", t), "No such process", LOG);
    }

    @Override
    public boolean flush(RouteTable t) {
        boolean v4 = SystemCommand.run(List.of(ip, "-4", "route", "flush", "table", Long.toString(t.table()), "proto",
                Integer.toString(t.protocol())), null, LOG);
        boolean v6 = SystemCommand.run(List.of(ip, "-6", "route", "flush", "table", Long.toString(t.table()), "proto",
                Integer.toString(t.protocol())), null, LOG);
        return v4 && v6;
    }

    private List<String> route(InetAddress vip, String verb, RouteTable t) {
        boolean v6 = vip instanceof Inet6Address;
        return List.of(ip, v6 ? "-6" : "-4", "route", verb, vip.getHostAddress() + (v6 ? "/128" : "/32"), "dev", "lo",
                "table", Long.toString(t.table()), "proto", Integer.toString(t.protocol()));
    }
}
