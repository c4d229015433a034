package io.mclb.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every built-in probe type of {@code ./mclb run} against real peers: mclb in one namespace, and
 * across a veth pair in a second one nginx (nginx-light: a page, a location answering 401 and one
 * behind basic authentication), dnsmasq (an A record and NXDOMAIN), a plain TCP listener, a UDP
 * echo and the far end's own kernel answering ping (IPv4 and IPv6). mclb's namespace admits its
 * group to unprivileged ping sockets, so ping runs without raw sockets (the log says so); tshark
 * on the link checks what mclb puts on the wire. Then the far end's link goes down: the ping
 * real is PROBE_FAILED within interval x faildetect + timeout (the figure is printed), and comes
 * back when the link does.
 */
class HealthProbesInteropIT {
    private static final int ADMIN_PORT = 18080;
    /** interval 1 s x faildetect 2 + timeout 1 s in health.cfg. */
    private static final Duration DETECTION_BOUND = Duration.ofSeconds(3);

    @TempDir
    Path tmp;

    @Test
    void everyProbeTypeJudgesItsRealPeerAndADeadFarEndIsDetectedInTime() throws Exception {
        try (Netns lb = Netns.create(tmp.resolve("lb")); Netns far = Netns.create(tmp.resolve("far"))) {
            lb.run(() -> {
                lb.linkTo(far, "veth-lb", List.of("10.99.10.1/24", "fd00:99::1/64"), "veth-far",
                        List.of("10.99.10.2/24", "fd00:99::2/64"));
                lb.exec(Duration.ofSeconds(10), "sysctl", "-w", "net.ipv4.ping_group_range=0 2147483647")
                        .check("sysctl ping_group_range");
                startPeers(far);
                Tshark cap = Tshark.start(lb, "tshark", "veth-lb", "host 10.99.10.2 or host fd00:99::2");
                MclbProcess mclb = MclbProcess.startLauncher(lb, MclbProcess.writeConfig(lb, "health.cfg", ADMIN_PORT),
                        ADMIN_PORT);
                String probes = awaitProbes(mclb, Duration.ofSeconds(60), "PING", "PING6", "TCP", "UDP", "WEB", "ADMIN",
                        "LOGIN", "DNS");
                assertThat(probes).as("every passing probe passed").isNotNull();
                assertThat(row(probes, "NOLOGIN")).contains("\"last_result\":\"failure\"")
                        .contains("expected status 200, got 401 Unauthorized");
                assertThat(row(probes, "NX")).contains("\"last_result\":\"failure\"").contains("NXDOMAIN for nothere.test");
                assertThat(row(probes, "PING")).contains("\"target\":\"10.99.10.2 (icmp datagram)\"");
                assertThat(mclb.process().lines()).as("the ICMP socket kind is logged")
                        .anyMatch(l -> l.contains("ping probes use unprivileged ICMP datagram sockets"))
                        .anyMatch(l -> l.contains("ping probes use unprivileged ICMPv6 datagram sockets"));
                String text = mclb.get("/api/v1/probe?format=text&name=WEB&detail=1");
                assertThat(text).contains("probe").contains("target").contains("http://10.99.10.2:8080/health")
                        .doesNotContain("PING");

                // the wire check below wants two tcp checks per farm (each farm's pooled port recurring) before the link goes
                assertThat(awaitTcpSuccesses(mclb, 6, Duration.ofSeconds(30))).as("tcp checks passed before the link went down")
                        .isGreaterThanOrEqualTo(6);
                long down = System.nanoTime();
                double downEpochS = System.currentTimeMillis() / 1000.0;
                Netns.host(Duration.ofSeconds(10), "ip", "-n", far.name(), "link", "set", "veth-far", "down")
                        .check("link down");
                String failed = awaitRealState(mclb, "F-PING", "PROBE_FAILED", Duration.ofSeconds(20));
                Duration detected = Duration.ofNanos(System.nanoTime() - down);
                System.out.printf("ping probe: far end down -> PROBE_FAILED in %d ms (bound interval x faildetect"
                        + " + timeout = %d ms)%n", detected.toMillis(), DETECTION_BOUND.toMillis());
                assertThat(failed).isNotNull();
                // the poll of the admin API adds up to one round of its own
                assertThat(detected).isLessThanOrEqualTo(DETECTION_BOUND.plusSeconds(2));

                Netns.host(Duration.ofSeconds(10), "ip", "-n", far.name(), "link", "set", "veth-far", "up")
                        .check("link up");
                assertThat(awaitRealState(mclb, "F-PING", "OPERATIONAL", Duration.ofSeconds(20))).isNotNull();
                cap.stop();

                assertThat(cap.count("http.request.method == \"GET\" && http.host == \"10.99.10.2:8080\""
                        + " && http.request.uri == \"/health\"")).as("HTTP/1.1 GETs with a Host header").isPositive();
                assertThat(cap.count("http.authorization == \"Basic b3BzOnMzY3JldA==\"")).as("basic credentials")
                        .isPositive();
                assertThat(cap.count("dns.flags.response == 0 && dns.qry.name == \"probe.test\" && dns.qry.type == 1"))
                        .as("A queries").isPositive();
                assertThat(cap.count("icmp.type == 8 && icmp.checksum.status == 1 && ip.dst == 10.99.10.2"))
                        .as("IPv4 echo requests with a good checksum").isPositive();
                assertThat(cap.count("icmp.type == 0 && ip.src == 10.99.10.2")).as("answered").isPositive();
                assertThat(cap.count("icmpv6.type == 128 && ipv6.dst == fd00:99::2")).as("ICMPv6 echo requests")
                        .isPositive();
                assertThat(cap.count("tcp.flags.syn == 1 && tcp.flags.ack == 0 && tcp.dstport == 7000")).isPositive();
                assertThat(cap.count("tcp.flags.reset == 1 && tcp.dstport == 7000")).as("tcp checks end with a reset")
                        .isPositive();
                assertThat(cap.count("tcp.flags.fin == 1 && tcp.dstport == 7000")).as("never with a FIN: no TIME_WAIT")
                        .isZero();
                assertTcpChecksKeepTheirPortsAndNeverShareA4Tuple(cap, downEpochS);
                assertThat(cap.count("udp.dstport == 7001 && data.data == 6d:63:6c:62")).as("custom udp request")
                        .isPositive();
                assertThat(cap.problems("http || dns || icmp || icmpv6")).as("malformed probe frames").isEmpty();
            });
        }
    }

    /**
     * Where {@code net.ipv4.ping_group_range} admits no group (the kernel's own default), mclb as
     * root pings over raw sockets, says so, filters the replies by its identifier, and still sees
     * the far end go down and come back.
     */
    @Test
    void pingFallsBackToRawSocketsWhenUnprivilegedPingIsRefused() throws Exception {
        try (Netns lb = Netns.create(tmp.resolve("lb")); Netns far = Netns.create(tmp.resolve("far"))) {
            lb.run(() -> {
                lb.linkTo(far, "veth-lb", List.of("10.99.10.1/24", "fd00:99::1/64"), "veth-far",
                        List.of("10.99.10.2/24", "fd00:99::2/64"));
                lb.exec(Duration.ofSeconds(10), "sysctl", "-w", "net.ipv4.ping_group_range=1 0")
                        .check("sysctl ping_group_range");
                Tshark cap = Tshark.start(lb, "tshark", "veth-lb", "icmp or icmp6");
                MclbProcess mclb = MclbProcess.startLauncher(lb, MclbProcess.writeConfig(lb, "ping-raw.cfg", ADMIN_PORT),
                        ADMIN_PORT);
                String probes = awaitProbes(mclb, Duration.ofSeconds(60), "PING", "PING6");
                assertThat(probes).as("both ping probes passed over raw sockets").isNotNull();
                assertThat(row(probes, "PING")).contains("\"target\":\"10.99.10.2 (icmp raw)\"");
                assertThat(row(probes, "PING6")).contains("(icmp raw)");
                assertThat(mclb.process().lines()).as("the ICMP socket kind is logged")
                        .anyMatch(l -> l.contains("ping probes use raw ICMP sockets"))
                        .anyMatch(l -> l.contains("ping probes use raw ICMPv6 sockets"));

                Netns.host(Duration.ofSeconds(10), "ip", "-n", far.name(), "link", "set", "veth-far", "down")
                        .check("link down");
                assertThat(awaitRealState(mclb, "F-PING", "PROBE_FAILED", Duration.ofSeconds(20))).isNotNull();
                Netns.host(Duration.ofSeconds(10), "ip", "-n", far.name(), "link", "set", "veth-far", "up")
                        .check("link up");
                assertThat(awaitRealState(mclb, "F-PING", "OPERATIONAL", Duration.ofSeconds(20))).isNotNull();
                cap.stop();
                assertThat(cap.count("icmp.type == 8 && icmp.checksum.status == 1 && ip.dst == 10.99.10.2"))
                        .as("IPv4 echo requests with a good checksum").isPositive();
                assertThat(cap.count("icmpv6.type == 128 && icmpv6.checksum.status == 1 && ipv6.dst == fd00:99::2"))
                        .as("ICMPv6 echo requests with a good checksum").isPositive();
                assertThat(cap.problems("icmp || icmpv6")).as("malformed probe frames").isEmpty();
            });
        }
    }

    /**
     * The tcp checks while the far end was up (three farms probe 10.99.10.2:7000): each pooled
     * socket keeps the local port of its first connect, so ports recur, and on every port the
     * checks follow one another, each SYN, SYN-ACK, reset before the next SYN: two checks in
     * flight never share a 4-tuple.
     */
    private static void assertTcpChecksKeepTheirPortsAndNeverShareA4Tuple(Tshark cap, double beforeEpochS)
            throws Exception {
        List<Map<String, String>> frames = cap.rows("tcp.port == 7000 && !tcp.analysis.retransmission"
                + " && frame.time_epoch < " + String.format(Locale.ROOT, "%.3f", beforeEpochS), "tcp.srcport", "tcp.dstport", "tcp.flags.syn",
                "tcp.flags.ack", "tcp.flags.reset");
        Map<String, StringBuilder> byPort = new TreeMap<>();
        int syns = 0;
        for (Map<String, String> f : frames) {
            boolean ours = f.get("tcp.dstport").equals("7000");
            String port = ours ? f.get("tcp.srcport") : f.get("tcp.dstport");
            boolean syn = isSet(f.get("tcp.flags.syn"));
            boolean ack = isSet(f.get("tcp.flags.ack"));
            boolean rst = isSet(f.get("tcp.flags.reset"));
            String step = ours && syn && !ack ? "S" : !ours && syn && ack ? "A" : ours && rst ? "R" : "";
            syns += step.equals("S") ? 1 : 0;
            byPort.computeIfAbsent(port, k -> new StringBuilder()).append(step);
        }
        System.out.printf("tcp checks before the link went down: %d SYNs from %d local ports%n", syns, byPort.size());
        assertThat(syns).as("tcp checks on the wire").isGreaterThanOrEqualTo(6);
        // ephemeral ports would give every check its own; a pooled socket keeps its port
        assertThat(byPort.size()).as("local ports: each pooled socket keeps its own").isLessThan(syns);
        byPort.forEach((port, steps) -> {
            // a check cut by the start or end of the window may lack its head or tail
            String inner = steps.toString().replaceFirst("^[AR]+", "").replaceFirst("S?A?$", "");
            // (a second reset answers the target's own FIN when it closed first: responders.py does)
            assertThat(inner).as("port %s: SYN, SYN-ACK, reset per check, one check at a time", port)
                    .matches("(SAR+)*");
        });
    }

    private static boolean isSet(String flag) {
        return flag.equals("1") || flag.equalsIgnoreCase("true");
    }

    private static void startPeers(Netns far) throws Exception {
        Path dir = far.dir();
        Files.createDirectories(dir.resolve("www"));
        Files.writeString(dir.resolve("www/health"), "healthy\n");
        Files.writeString(dir.resolve("www/private"), "welcome\n");
        Files.writeString(dir.resolve("htpasswd"), "ops:{PLAIN}s3cret\n");
        Path nginxConf = MclbProcess.writeResource(far, "nginx-health.conf", t -> t.replace("@DIR@", dir.toString()));
        NsProcess nginx = far.start("nginx", List.of("nginx", "-c", nginxConf.toString(), "-p", dir.toString()));
        NsProcess dnsmasq = far.start("dnsmasq", List.of("dnsmasq", "-k", "-C", "/dev/null", "--no-resolv", "--no-hosts",
                "--no-poll", "--bind-interfaces", "--listen-address=10.99.10.2", "--port=53",
                "--address=/probe.test/192.0.2.7", "--local=/test/", "--pid-file=", "--user=root", "--group=root",
                "--log-facility=-"));
        Path script = MclbProcess.writeResource(far, "responders.py", t -> t);
        NsProcess responders = far.start("responders", List.of("/usr/bin/python3", script.toString(), "10.99.10.2",
                "7000", "7001"));
        far.awaitUdpListening(dnsmasq, Duration.ofSeconds(30), "10.99.10.2:53");
        far.awaitUdpListening(responders, Duration.ofSeconds(30), "10.99.10.2:7001");
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!far.exec(Duration.ofSeconds(10), "ss", "-H", "-tln").output().contains("10.99.10.2:8080")) {
            if (!nginx.isAlive() || System.nanoTime() > end) {
                throw new IllegalStateException("nginx did not listen; log:\n" + nginx.tail(20));
            }
            Thread.sleep(200);
        }
    }

    /** {@code /api/v1/probe?detail=1} once every probe named has passed its last check; null if not in time. */
    /** The successful checks of probe TCP summed over its farms (mclb_probe_results_total), once at least {@code n} or at the timeout. */
    private static long awaitTcpSuccesses(MclbProcess mclb, long n, Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        long seen = 0;
        while (System.nanoTime() < end) {
            seen = mclb.get("/metrics").lines()
                    .filter(l -> l.startsWith("mclb_probe_results_total{") && l.contains("probe=\"TCP\"")
                            && l.contains("result=\"success\""))
                    .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
            if (seen >= n) {
                return seen;
            }
            Thread.sleep(250);
        }
        return seen;
    }

    private static String awaitProbes(MclbProcess mclb, Duration timeout, String... names) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            String json = mclb.get("/api/v1/probe?detail=1");
            if (Arrays.stream(names).allMatch(n -> row(json, n).contains("\"last_result\":\"success\""))) {
                return json;
            }
            Thread.sleep(250);
        }
        System.err.println(mclb.get("/api/v1/probe?format=text&detail=1"));
        return null;
    }

    /** The JSON object of probe {@code name} in a {@code /api/v1/probe} answer, or "". */
    private static String row(String json, String name) {
        return Arrays.stream(json.split("\\},\\s*\\{")).filter(r -> r.contains("\"probe\":\"" + name + "\""))
                .findFirst().orElse("");
    }

    /** The reals JSON once the real of {@code farm} is in {@code state}; null if not in time. */
    private static String awaitRealState(MclbProcess mclb, String farm, String state, Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            String reals = mclb.get("/api/v1/reals");
            if (Arrays.stream(reals.split("\\},\\s*\\{"))
                    .anyMatch(r -> r.contains("\"farm\":\"" + farm + "\"") && r.contains("\"" + state + "\""))) {
                return reals;
            }
            Thread.sleep(100);
        }
        return null;
    }
}
