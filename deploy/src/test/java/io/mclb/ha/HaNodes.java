package io.mclb.ha;

import io.mclb.interop.MclbProcess;
import io.mclb.interop.Netns;

import java.time.Duration;

/** What the HA interop tests share: nodes on a bridge in a namespace of its own, commands, the failover view. */
final class HaNodes {
    private HaNodes() {
    }

    /** A veth pair: {@code name} in {@code ns} with {@code cidr}, its peer {@code p-NAME} on br0 in {@code br}. */
    static void attach(Netns br, Netns ns, String name, String cidr) throws Exception {
        String peer = "p-" + name;
        sh(ns, "ip", "link", "add", name, "type", "veth", "peer", "name", peer, "netns", br.name());
        sh(br, "ip", "link", "set", peer, "master", "br0", "up");
        sh(ns, "ip", "addr", "add", cidr, "dev", name);
        sh(ns, "ip", "link", "set", name, "up");
    }

    /** Runs {@code cmd} in {@code ns}, fails unless it exits 0; its output. */
    static String sh(Netns ns, String... cmd) throws Exception {
        return ns.exec(Duration.ofSeconds(20), cmd).check(String.join(" ", cmd)).output();
    }

    /** {@code GET /api/v1/failover}; null until the view exists (the admin listener answers before extensions start). */
    static String failoverJson(MclbProcess m) throws Exception {
        try {
            return m.get("/api/v1/failover");
        } catch (IllegalStateException notYet) {
            if (!m.process().isAlive()) {
                throw notYet;
            }
            return null;
        }
    }
}
