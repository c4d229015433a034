package io.mclb.interop;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
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
 * says which check ran and why each failed. Without CAP_NET_RAW the same probe connects.
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
                        "    c, peer = s.accept()",  // (the peer may have reset it already: no getpeername)
                        "    print('accepted', peer, flush=True)",
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
                        .contains("[fd00:99:0:0:0:0:0:2]:7000 (tcp half-open)");
                assertThat(rows(probes, "CLOSED")).hasSize(2).allSatisfy(r -> assertThat(r)
                        .contains("\"last_result\":\"failure\"").contains("connection refused"));
                assertThat(rows(probes, "DROPPED")).hasSize(2).allSatisfy(r -> assertThat(r)
                        .contains("\"last_result\":\"timeout\"").contains("timeout after 1 s"));
                assertThat(mclb.process().lines()).as("the tcp check is logged")
                        .anyMatch(l -> l.contains("tcp probes run half-open IPv4 checks"))
                        .anyMatch(l -> l.contains("tcp probes run half-open IPv6 checks"));
                assertThat(listener.lines()).as("the listening application never got a connection")
                        .noneMatch(l -> l.contains("accepted"));

                List<Seg> segs = segments(cap);
                for (String[] v : List.of(new String[]{"IPv4", "10.99.10.1", "10.99.10.2", "10.99.11.5"},
                        new String[]{"IPv6", "fd00:99::1", "fd00:99::2", "fd00:98::5"})) {
                    String ip = v[0];
                    String us = v[1];
                    String target = v[2];
                    String dropped = v[3];
                    List<Seg> synsToOpen = segs.stream().filter(x -> x.from(us) && x.to(target, 7000) && x.syn && !x.ack).toList();
                    assertThat(synsToOpen).as("%s SYNs to the listener", ip).hasSizeGreaterThanOrEqualTo(2)
                            .allSatisfy(x -> assertThat(x.checksumGood && x.mss == 1460)
                                    .as("good checksum and MSS 1460: %s", x).isTrue());
                    assertThat(segs.stream().filter(x -> x.from(target) && x.sport == 7000 && x.syn && x.ack))
                            .as("%s SYN-ACKs of the listener", ip).hasSizeGreaterThanOrEqualTo(2);
                    assertThat(segs.stream().filter(x -> x.from(us) && x.to(target, 7000) && x.rst && !x.ack))
                            .as("%s resets of mclb's host kernel to the SYN-ACKs", ip).hasSizeGreaterThanOrEqualTo(2);
                    assertThat(segs.stream().filter(x -> x.from(us) && x.to(target, 7000) && x.ack))
                            .as("%s ACKs completing a handshake", ip).isEmpty();
                    assertThat(segs.stream().filter(x -> x.from(target) && x.sport == 7002 && x.rst && x.ack))
                            .as("%s resets of the closed port", ip).hasSizeGreaterThanOrEqualTo(2);
                    assertThat(segs.stream().filter(x -> x.from(us) && x.to(dropped, 7000) && x.syn && !x.ack))
                            .as("%s SYNs to the blackholed target", ip).hasSizeGreaterThanOrEqualTo(2);
                    assertThat(segs.stream().filter(x -> x.from(dropped)))
                            .as("%s answers from the blackholed target", ip).isEmpty();
                }
                assertThat(segs.stream().filter(x -> x.syn && !x.ack).map(x -> x.sport).distinct())
                        .as("SYNs leave from one reserved port per loop and family").hasSizeBetween(1, 4);
                assertThat(cap.problems("tcp")).as("malformed segments").isEmpty();
                fallsBackToAFullHandshakeWithoutCapNetRaw(lb, listener);
            });
        }
    }

    /**
     * The same listener probed by an mclb without CAP_NET_RAW (dropped from its bounding and
     * inheritable sets): the raw socket is refused, the log says so, and the checks connect.
     */
    private static void fallsBackToAFullHandshakeWithoutCapNetRaw(Netns lb, NsProcess listener) throws Exception {
        int admin = ADMIN_PORT + 1;
        Path cfg = MclbProcess.writeResource(lb, "tcp-no-raw.cfg", t -> t
                .replace("@DATA_DIR@", lb.dir().resolve("mclb-data-no-raw").toString())
                .replace("@ADMIN_PORT@", Integer.toString(admin)));
        MclbProcess mclb = MclbProcess.startLauncher(lb, "mclb-no-raw",
                List.of("setpriv", "--inh-caps=-net_raw", "--bounding-set=-net_raw"), cfg, admin);
        AtomicReference<List<String>> seen = new AtomicReference<>(List.of());
        try {
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> {
                seen.set(rows(mclb.get("/api/v1/probe?detail=1"), "OPEN"));
                return seen.get().size() == 2
                        && seen.get().stream().allMatch(r -> r.contains("\"last_result\":\"success\""));
            });
        } catch (ConditionTimeoutException e) {
            // the assertions below say what was seen last
        }
        List<String> open = seen.get();
        assertThat(open).as("both reals passed by connecting").hasSize(2)
                .allSatisfy(r -> assertThat(r).contains("\"last_result\":\"success\"").contains(":7000 (tcp)\""));
        assertThat(mclb.process().lines()).as("the fallback is logged with its reason")
                .anyMatch(l -> l.contains("tcp probes complete a handshake for IPv4 targets") && l.contains("no CAP_NET_RAW"))
                .anyMatch(l -> l.contains("tcp probes complete a handshake for IPv6 targets") && l.contains("no CAP_NET_RAW"));
        assertThat(listener.lines()).as("the listener accepted the connections").anyMatch(l -> l.contains("accepted"));
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

    /** One TCP segment of the capture. */
    private record Seg(String src, String dst, int sport, int dport, boolean syn, boolean ack, boolean rst,
                       boolean checksumGood, int mss) {
        boolean from(String address) {
            return src.equals(address);
        }

        boolean to(String address, int port) {
            return dst.equals(address) && dport == port;
        }
    }

    /** Every TCP segment of the capture, decoded once, with tshark verifying the checksums (off by default). */
    private static List<Seg> segments(Tshark cap) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("tshark", "-o", "tcp.check_checksum:TRUE", "-r",
                cap.file().toString(), "-Y", "tcp", "-T", "fields", "-E", "separator=|", "-E", "occurrence=f"));
        for (String f : List.of("ip.src", "ipv6.src", "ip.dst", "ipv6.dst", "tcp.srcport", "tcp.dstport",
                "tcp.flags.syn", "tcp.flags.ack", "tcp.flags.reset", "tcp.checksum.status", "tcp.options.mss_val")) {
            cmd.add("-e");
            cmd.add(f);
        }
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("tshark: " + out);
        }
        return out.lines().filter(l -> !l.isBlank()).map(l -> {
            String[] f = l.split("\\|", -1);
            return new Seg(f[0].isEmpty() ? f[1] : f[0], f[2].isEmpty() ? f[3] : f[2], Integer.parseInt(f[4]),
                    Integer.parseInt(f[5]), set(f[6]), set(f[7]), set(f[8]), f[9].equals("1") || f[9].equalsIgnoreCase("good"),
                    f[10].isEmpty() ? -1 : Integer.parseInt(f[10]));
        }).toList();
    }

    private static boolean set(String flag) {
        return flag.equals("1") || flag.equalsIgnoreCase("true");
    }

    /**
     * {@code /api/v1/probe?detail=1} once both reals of each probe have had two checks of their
     * kind (passed, failed, timed out), so the capture holds two of each; null if not in time.
     */
    private static String awaitProbes(MclbProcess mclb, Duration timeout) throws Exception {
        AtomicReference<String> json = new AtomicReference<>();
        try {
            Awaitility.await().atMost(timeout).pollInterval(Duration.ofMillis(250)).until(() -> {
                json.set(mclb.get("/api/v1/probe?detail=1"));
                return atLeastTwo(json.get(), "OPEN", "passed") && atLeastTwo(json.get(), "CLOSED", "failed")
                        && atLeastTwo(json.get(), "DROPPED", "timeouts");
            });
            return json.get();
        } catch (ConditionTimeoutException e) {
            System.err.println(mclb.get("/api/v1/probe?format=text&detail=1"));
            return null;
        }
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
