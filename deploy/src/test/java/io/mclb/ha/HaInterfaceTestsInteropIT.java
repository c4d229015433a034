package io.mclb.ha;

import io.mclb.interop.MclbProcess;
import io.mclb.interop.Netns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.mclb.ha.HaNodes.attach;
import static io.mclb.ha.HaNodes.sh;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * LocalDirector's failover behaviour on two real nodes in network namespaces (root, iproute2,
 * iputils-arping and iputils-ping for the interface tests' stimuli): A (10.99.1.2, priority 110)
 * and B (10.99.1.3, 100) and a neighbour (10.99.1.10) on one bridge in a namespace of its own;
 * virtual address 10.99.1.100, hellos 100/300 ms. In order:
 * <ol>
 * <li>both Active/Standby and monitoring Normal (six hellos heard);</li>
 * <li>A's port on the bridge goes down, so hellos stop both ways: B's interface tests pass (the
 *     neighbour answers B's ARP) and B takes over; A's own link test fails: A goes Failed and
 *     releases the address; {@code failover reset} on A is refused (409) naming the link; the port back
 *     up, A autorecovers to Standby (no fail-back);</li>
 * <li>A's own link down while Standby: A goes Failed and never Active; B stays Active; link up again, A Standby;</li>
 * <li>SIGTERM to B: A takes over on B's resign (its last change says so, not the active timer);</li>
 * <li>B restarted (Standby), A stopped without handover ({@code POST /api/v1/stop?handover=false}, what
 *     {@code mclb stop --no-handover} sends): B stays Standby and shows A as stopped.</li>
 * </ol>
 */
class HaInterfaceTestsInteropIT {
    private static final int ADMIN = 9110;
    private static final String VIP = "10.99.1.100";
    private static final Pattern THIS_HOST = Pattern.compile("\\{\"group\":\"[^\"]*\",\"host\":\"This host\",.*?"
            + "\"state\":\"([^\"]*)\".*?\"failover\":\"([^\"]*)\",\"monitoring\":\"([^\"]*)\","
            + "\"last_change\":\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern OTHER_FAILOVER = Pattern.compile("\"host\":\"Other host\",.*?\"failover\":\"([^\"]*)\"");

    @TempDir
    Path dir;

    @Test
    void interfaceTestsDecideWhichNodeFailedAndAnOrderlyStopHandsOverOrNot() throws Exception {
        try (Netns br = Netns.create(dir.resolve("br")); Netns a = Netns.create(dir.resolve("a"));
             Netns b = Netns.create(dir.resolve("b")); Netns n = Netns.create(dir.resolve("n"))) {
            a.run(() -> scenario(br, a, b, n));
        }
    }

    private long t0;

    private void phase(String what) {
        System.out.println("HaInterfaceTestsInteropIT: " + (System.nanoTime() - t0) / 1_000_000 + " ms: " + what);
    }

    private void scenario(Netns br, Netns a, Netns b, Netns n) throws Exception {
        t0 = System.nanoTime();
        sh(br, "ip", "link", "add", "br0", "type", "bridge");
        sh(br, "ip", "link", "set", "br0", "up");
        attach(br, a, "veth-a", "10.99.1.2/24");
        attach(br, b, "veth-b", "10.99.1.3/24");
        attach(br, n, "veth-n", "10.99.1.10/24");
        Path cfgA = config(a, "veth-a", "10.99.1.2", 110);
        Path cfgB = config(b, "veth-b", "10.99.1.3", 100);
        MclbProcess mA = MclbProcess.start(a, cfgA, ADMIN);
        await(mA, "A", v -> v.state.equals("Active"));
        MclbProcess mB = MclbProcess.start(b, cfgB, ADMIN);
        await(mB, "B", v -> v.state.equals("Standby") && v.monitoring.equals("Normal"));
        await(mA, "A", v -> v.monitoring.equals("Normal") && v.failover.equals("Active"));
        // the neighbour asks for A and B: both kernels now hold it in their ARP caches (what the ARP test reads)
        sh(n, "arping", "-c", "1", "-w", "2", "-I", "veth-n", "10.99.1.3");
        sh(n, "arping", "-c", "1", "-w", "2", "-I", "veth-n", "10.99.1.2");

        phase("pair up");
        // 2. A's port goes down: which of the two failed?
        sh(br, "ip", "link", "set", "p-veth-a", "down");
        View vb = await(mB, "B", v -> v.state.equals("Active"));
        assertThat(vb.lastChange).contains("interface tests: link up and traffic received on veth-b");
        View va = await(mA, "A", v -> v.failover.equals("Failed"));
        assertThat(va.lastChange).contains("interface tests failed", "link down on veth-a");
        assertThat(sh(a, "ip", "-4", "addr", "show", "dev", "veth-a")).doesNotContain(VIP);
        // what 'mclb failover reset' posts
        assertThat(post(a, "/api/v1/failover/reset")).startsWith("409 ").contains("stays Failed", "link down on veth-a");
        sh(br, "ip", "link", "set", "p-veth-a", "up");
        va = await(mA, "A", v -> v.state.equals("Standby"));
        assertThat(va.failover).isEqualTo("Standby");
        assertThat(state(mB).state).isEqualTo("Active");

        phase("port cut, failed, reset refused, recovered");
        // 3. the standby's own link down: Failed, and no takeover
        sh(a, "ip", "link", "set", "veth-a", "down");
        await(mA, "A", v -> v.failover.equals("Failed"));
        for (int i = 0; i < 10; i++) {
            assertThat(state(mA).state).as("A with its own link down").isNotEqualTo("Active");
            assertThat(state(mB).state).as("B while A's link is down").isEqualTo("Active");
            Thread.sleep(200);
        }
        sh(a, "ip", "link", "set", "veth-a", "up");
        await(mA, "A", v -> v.state.equals("Standby") && v.monitoring.equals("Normal"));

        phase("own link down");
        // 4. SIGTERM to the active: it resigns, the standby takes over at once
        mB.process().terminate();
        assertThat(mB.process().waitFor(Duration.ofSeconds(30))).isNotEqualTo(-1);
        va = await(mA, "A", v -> v.state.equals("Active"));
        assertThat(va.lastChange).contains("active peer 10.99.1.3 resigned").doesNotContain("active timer expired");

        phase("SIGTERM handover");
        // 5. stop without handover: the standby stays standby (seed 002)
        keepLog(mB);
        mB = MclbProcess.start(b, cfgB, ADMIN);
        await(mB, "B", v -> v.state.equals("Standby") && v.monitoring.equals("Normal"));
        // what 'mclb stop --no-handover' posts (StopCommandTest runs the command itself; a JVM costs seconds here)
        assertThat(post(a, "/api/v1/stop?handover=false")).startsWith("200 ").contains("without handing over");
        assertThat(mA.process().waitFor(Duration.ofSeconds(30))).isNotEqualTo(-1);
        for (int i = 0; i < 10; i++) { // 10 hold times
            assertThat(state(mB).state).as("B after A stopped without handover").isEqualTo("Standby");
            Thread.sleep(300);
        }
        phase("stop --no-handover");
        Matcher other = OTHER_FAILOVER.matcher(mB.get("/api/v1/failover"));
        assertThat(other.find()).isTrue();
        assertThat(other.group(1)).isEqualTo("Stopped (no handover)");
    }

    private static final String TOKEN = "ha-interface-tests";

    private Path config(Netns ns, String iface, String self, int priority) throws Exception {
        // state changes over the admin TCP listener need the token
        Path token = ns.dir().resolve("admin.token");
        Files.writeString(token, TOKEN + "\n");
        Files.setPosixFilePermissions(token, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        String text = "mclb admin 127.0.0.1 " + ADMIN + "\n"
                + "mclb admin token " + token + "\n"
                + "mclb data-dir " + ns.dir().resolve("mclb-data") + "\n"
                + "mclb sticky entries 1000\n"
                + "interface " + iface + "\n"
                + " ip address " + self + " 255.255.255.0\n"
                + " standby version 2\n"
                + " standby 7 ip " + VIP + "\n"
                + " standby 7 priority " + priority + "\n"
                + " standby 7 timers msec 100 msec 300\n"
                + " standby 7 authentication md5 key-string 0 ha-secret\n"
                + " standby 7 name LD-HA\n";
        Path p = ns.dir().resolve("mclb-" + priority + ".cfg");
        Files.writeString(p, text);
        return p;
    }

    /** This host's row of {@code show failover --json}. */
    private record View(String state, String failover, String monitoring, String lastChange) {
    }

    private static View state(MclbProcess m) throws Exception {
        String body = HaNodes.failoverJson(m);
        if (body == null) {
            return new View("?", "?", "?", "?");
        }
        Matcher x = THIS_HOST.matcher(body);
        return x.find() ? new View(x.group(1), x.group(2), x.group(3), x.group(4)) : new View("?", "?", "?", body);
    }

    private static View await(MclbProcess m, String node, java.util.function.Predicate<View> want) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        View v;
        while (!want.test(v = state(m))) {
            if (System.nanoTime() > end) {
                throw new AssertionError(node + ": " + v + " within 20 s; log:\n" + m.process().tail(30));
            }
            Thread.sleep(100);
        }
        return v;
    }

    /** {@code POST path} on the node's admin listener: "STATUS BODY". */
    private static String post(Netns ns, String path) throws Exception {
        return ns.exec(Duration.ofSeconds(15), "/usr/bin/python3", "-c",
                "import sys, urllib.request, urllib.error\n"
                        + "r = urllib.request.Request(sys.argv[1], data=b'', method='POST',"
                        + " headers={'Authorization': 'Bearer " + TOKEN + "'})\n"
                        + "try:\n    x = urllib.request.urlopen(r, timeout=10); print(x.status, x.read().decode())\n"
                        + "except urllib.error.HTTPError as e:\n    print(e.code, e.read().decode())",
                "http://127.0.0.1:" + ADMIN + path).check("POST " + path).output();
    }

    private static void keepLog(MclbProcess m) throws Exception {
        Path log = m.process().log();
        Files.copy(log, log.resolveSibling("mclb-" + m.process().pid() + ".log"));
    }
}
