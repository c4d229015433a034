package io.mclb.route;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
    private static final long TIMEOUT_MS = 5000;

    private final String ip;

    public LinuxRouteInjector() {
        this.ip = find();
    }

    @Override
    public boolean install(InetAddress vip, RouteTable t) {
        return run(route(vip, "replace", t), null);
    }

    @Override
    public boolean withdraw(InetAddress vip, RouteTable t) {
        return run(route(vip, "del", t), "No such process");
    }

    @Override
    public boolean flush(RouteTable t) {
        boolean v4 = run(List.of(ip, "-4", "route", "flush", "table", Long.toString(t.table()), "proto",
                Integer.toString(t.protocol())), null);
        boolean v6 = run(List.of(ip, "-6", "route", "flush", "table", Long.toString(t.table()), "proto",
                Integer.toString(t.protocol())), null);
        return v4 && v6;
    }

    private List<String> route(InetAddress vip, String verb, RouteTable t) {
        boolean v6 = vip instanceof Inet6Address;
        return List.of(ip, v6 ? "-6" : "-4", "route", verb, vip.getHostAddress() + (v6 ? "/128" : "/32"), "dev", "lo",
                "table", Long.toString(t.table()), "proto", Integer.toString(t.protocol()));
    }

    private static boolean run(List<String> cmd, String benign) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                LOG.warn("{} timed out", String.join(" ", cmd));
                return false;
            }
            String text = new String(out, StandardCharsets.UTF_8).trim();
            if (p.exitValue() == 0 || (benign != null && text.contains(benign))) {
                return true;
            }
            LOG.warn("{} failed ({}): {}", String.join(" ", cmd), p.exitValue(), text);
            return false;
        } catch (IOException e) {
            LOG.warn("{} failed: {}", String.join(" ", cmd), e.toString());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String find() {
        for (String d : new ArrayList<>(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"))) {
            Path p = Path.of(d, "ip");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return "ip";
    }
}
