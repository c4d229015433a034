package io.mclb.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tcp probe's half-open check on the wire, as {@code ./mclb run} runs it as root: mclb in one
 * namespace, across a veth pair a listener on port 7000 (IPv4 and IPv6), nothing on 7002, and
 * behind the far end a blackholed network. tshark on the link sees, for the listener, mclb's SYN
 * from its reserved port (with a checksum tshark verifies), the target's SYN-ACK and the reset of
 * mclb's host kernel, and never the ACK that would complete the connection; for the closed port
 * the target's reset; for the blackholed one SYNs and nothing back. {@code show probe detail}
 * says which check ran and why each failed.
 */
class TcpHalfOpenInteropIT {
    private static final int ADMIN_PORT = 18080;

    @TempDir
    Path tmp;

    @Test
    void aSynIsAnsweredBySynAckAndTheHostsResetOrByTheTargetsResetOrByNothing() throws Exception {
        try (Netns lb = Netns.create(tmp.resolve("lb")); Netns far = Netns.create(tmp.resolve("far"))) {
            lb.run(() -> {
                lb.linkTo(far, "veth-lb", List.of("10.99.10.1/24", "fd00:99::1/64"), "veth-far",
                        List.of("10.99.10.2/24", "fd00:99::2/64"));
                blackholeBehind(lb, far);
                NsProcess listener = far.start("listener", List.of("/usr/bin/python3", "-c", String.join("\n",
                        "import socket",
                        "s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)",
                        "s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)",
                        "s.bind(('::', 7000))",
                        "s.listen(64)",
                        "print('listening', flush=True)",
                        "while True:",
                        "    c, _ = s.accept()",
                        "    print('accepted', c.getpeername(), flush=True)",
                        "    c.close()")));
                assertThat(listener.awaitLog(l -> l.stream().anyMatch(x -> x.contains("listening")), Duration.ofSeconds(30)))
                        .isTrue();
                Tshark cap = Tshark.start(lb, "tshark", "veth-lb", "tcp");
                MclbProcess mclb = MclbProcess.startLauncher(lb,
                        MclbProcess.writeConfig(lb, "tcp-half-open.cfg", ADMIN_PORT), ADMIN_PORT);
                String probes = awaitProbes(mclb, Duration.ofSeconds(60));
                cap.stop();
                assertThat(probes).as("every probe judged its targets").isNotNull();

                List<String> open = rows(probes, "OPEN");
                assertThat(open).hasSize(2).allSatisfy(r -> assertThat(r).contains("\"last_result\":\"success\""));
                assertThat(String.join("\n", open)).contains("10.99.10.2:7000 (tcp half-open)")
                        .contains("[fd00:99::2]:7000 (tcp half-open)");
                assertThat(rows(probes, "CLOSED")).hasSize(2).allSatisfy(r -> assertThat(r)
                        .contains("\"last_result\":\"failure\"").contains("connection refused"));
                assertThat(rows(probes, "DROPPED")).hasSize(2).allSatisfy(r -> assertThat(r)
                        .contains("\"last_result\":\"timeout\"").contains("timeout after 1 s"));
                assertThat(mclb.process().lines()).as("the tcp check is logged")
                        .anyMatch(l -> l.contains("tcp probes run half-open IPv4 checks"))
                        .anyMatch(l -> l.contains("tcp probes run half-open IPv6 checks"));
                assertThat(listener.lines()).as("the listening application never got a connection")
                        .noneMatch(l -> l.contains("accepted"));

                for (String[] v : List.of(new String[]{"ip", "10.99.10.1", "10.99.10.2", "10.99.11.5"},
                        new String[]{"ipv6", "fd00:99::1", "fd00:99::2", "fd00:98::5"})) {
                    String ip = v[0];
                    String us = ip + ".src == " + v[1];
                    String toOpen = ip + ".dst == " + v[2] + " && tcp.dstport == 7000";
                    String syn = "tcp.flags.syn == 1 && tcp.flags.ack == 0";
                    assertThat(count(cap, us + " && " + toOpen + " && " + syn + " && tcp.checksum.status == 1"
                            + " && tcp.options.mss_val == 1460")).as("%s SYNs to the listener, good checksum", ip)
                            .isGreaterThanOrEqualTo(2);
                    assertThat(count(cap, ip + ".src == " + v[2] + " && tcp.srcport == 7000 && tcp.flags.syn == 1"
                            + " && tcp.flags.ack == 1")).as("%s SYN-ACKs of the listener", ip).isGreaterThanOrEqualTo(2);
                    assertThat(count(cap, us + " && " + toOpen + " && tcp.flags.reset == 1 && tcp.flags.ack == 0"))
                            .as("%s resets of mclb's host kernel to the SYN-ACKs", ip).isGreaterThanOrEqualTo(2);
                    assertThat(count(cap, us + " && " + toOpen + " && tcp.flags.ack == 1"))
                            .as("%s ACKs completing a handshake", ip).isZero();
                    assertThat(count(cap, ip + ".src == " + v[2] + " && tcp.srcport == 7002 && tcp.flags.reset == 1"
                            + " && tcp.flags.ack == 1")).as("%s resets of the closed port", ip).isGreaterThanOrEqualTo(2);
                    assertThat(count(cap, us + " && " + ip + ".dst == " + v[3] + " && " + syn))
                            .as("%s SYNs to the blackholed target", ip).isGreaterThanOrEqualTo(2);
                    assertThat(count(cap, ip + ".src == " + v[3])).as("%s answers from the blackholed target", ip).isZero();
                }
                List<String> ports = cap.rows("tcp.flags.syn == 1 && tcp.flags.ack == 0", "tcp.srcport").stream()
                        .map(r -> r.get("tcp.srcport")).distinct().toList();
                assertThat(ports).as("SYNs leave from one reserved port per loop and family").hasSizeBetween(1, 4);
                assertThat(cap.problems("tcp")).as("malformed segments").isEmpty();
            });
        }
    }

    /** 10.99.11.0/24 and fd00:98::/64 routed through the far end, which discards them (no ICMP). */
    private static void blackholeBehind(Netns lb, Netns far) throws Exception {
        Duration t = Duration.ofSeconds(10);
        lb.exec(t, "ip", "route", "add", "10.99.11.0/24", "via", "10.99.10.2").check("route v4");
        lb.exec(t, "ip", "-6", "route", "add", "fd00:98::/64", "via", "fd00:99::2").check("route v6");
        far.exec(t, "sysctl", "-w", "net.ipv4.ip_forward=1").check("forwarding v4");
        far.exec(t, "sysctl", "-w", "net.ipv6.conf.all.forwarding=1").check("forwarding v6");
        far.exec(t, "ip", "route", "add", "blackhole", "10.99.11.0/24").check("blackhole v4");
        far.exec(t, "ip", "-6", "route", "add", "blackhole", "fd00:98::/64").check("blackhole v6");
    }

    /** Frames matching {@code filter}, with tshark verifying TCP checksums (off by default). */
    private static int count(Tshark cap, String filter) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("tshark", "-o", "tcp.check_checksum:TRUE", "-r",
                cap.file().toString(), "-Y", filter));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("tshark " + filter + ": " + out);
        }
        return (int) out.lines().filter(l -> !l.isBlank()).count();
    }

    /**
     * {@code /api/v1/probe?detail=1} once both reals of each probe have had two checks of their
     * kind (passed, failed, timed out), so the capture holds two of each; null if not in time.
     */
    private static String awaitProbes(MclbProcess mclb, Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            String json = mclb.get("/api/v1/probe?detail=1");
            if (atLeastTwo(json, "OPEN", "passed") && atLeastTwo(json, "CLOSED", "failed")
                    && atLeastTwo(json, "DROPPED", "timeouts")) {
                return json;
            }
            Thread.sleep(250);
        }
        System.err.println(mclb.get("/api/v1/probe?format=text&detail=1"));
        return null;
    }

    private static boolean atLeastTwo(String json, String probe, String count) {
        List<String> r = rows(json, probe);
        Pattern p = Pattern.compile("\"" + count + "\":(\\d+)");
        return r.size() == 2 && r.stream().allMatch(x -> {
            Matcher m = p.matcher(x);
            return m.find() && Long.parseLong(m.group(1)) >= 2;
        });
    }

    /** The JSON objects of probe {@code name} in a {@code /api/v1/probe} answer. */
    private static List<String> rows(String json, String name) {
        return Arrays.stream(json.split("\\},\\s*\\{")).filter(r -> r.contains("\"probe\":\"" + name + "\"")).toList();
    }
}
