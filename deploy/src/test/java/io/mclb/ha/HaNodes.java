package io.mclb.ha;

import io.mclb.interop.MclbProcess;
import io.mclb.interop.Netns;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What the HA interop tests share: nodes on a bridge in a namespace of its own, commands, the failover view. */
final class HaNodes {
    private HaNodes() {
    }

    /** A scenario in the five namespaces of {@link #segment}. */
    interface PairScenario {
        void run(Netns br, Netns a, Netns b, Netns client, Netns farm) throws Exception;
    }

    /** Creates the five namespaces under {@code dir}, runs {@code scenario} in them and removes them. */
    static void inPair(Path dir, PairScenario scenario) throws Exception {
        try (Netns br = Netns.create(dir.resolve("br")); Netns a = Netns.create(dir.resolve("a"));
             Netns b = Netns.create(dir.resolve("b")); Netns client = Netns.create(dir.resolve("client"));
             Netns farm = Netns.create(dir.resolve("farm"))) {
            a.run(() -> scenario.run(br, a, b, client, farm));
        }
    }

    /**
     * The pair's segment: bridge br0 in {@code br}; A 10.99.0.2, B 10.99.0.3, the client 10.99.0.10
     * and the GGSN addresses 10.99.0.21-23 (all in {@code farm}), each namespace on its own veth.
     */
    static void segment(Netns br, Netns a, Netns b, Netns client, Netns farm) throws Exception {
        sh(br, "ip", "link", "add", "br0", "type", "bridge");
        sh(br, "ip", "link", "set", "br0", "up");
        attach(br, a, "veth-a", "10.99.0.2/24");
        attach(br, b, "veth-b", "10.99.0.3/24");
        attach(br, client, "veth-c", "10.99.0.10/24");
        attach(br, farm, "veth-f", "10.99.0.21/24");
        sh(farm, "ip", "addr", "add", "10.99.0.22/24", "dev", "veth-f");
        sh(farm, "ip", "addr", "add", "10.99.0.23/24", "dev", "veth-f");
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

    /** A JVM like this one (its module opens), 256 MB, running {@code main} from the test class path with {@code args}. */
    static List<String> java(Class<?> main, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        for (String x : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (x.startsWith("--add-opens") || x.startsWith("--add-exports")) {
                cmd.add(x);
            }
        }
        cmd.addAll(List.of("-Xmx256m", "-cp", System.getProperty("surefire.test.class.path",
                System.getProperty("java.class.path")), main.getName()));
        cmd.addAll(List.of(args));
        return cmd;
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
