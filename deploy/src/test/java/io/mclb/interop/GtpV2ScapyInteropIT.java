package io.mclb.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 3 item 10, GTPv2 part (Debian has no GTPv2 peer; osmo-ggsn is v0/v1 only): Create
 * Session Requests built with scapy ({@code interop/gtpv2_create_session.py}, run by
 * {@code /usr/bin/python3}, the only interpreter that sees Debian's python3-scapy) go to mclb's
 * virtual address ({@code service gtp-inspect}, IMSI sticky) in front of two of the project's
 * GTP simulators, started as {@code mclb sim gtp -l ADDR:PORT} processes that accept every
 * create (cause 16, Request accepted) by default. tshark checks the datagrams on the way.
 */
class GtpV2ScapyInteropIT {
    private static final String VIP = "127.0.0.100";
    private static final int ADMIN_PORT = 18080;
    private static final String SIMS = "(ip.dst == 127.0.0.5 || ip.dst == 127.0.0.6)";
    private static final String FROM_MCLB = "(ip.src == " + VIP + " || udp.srcport != 2123)";

    @TempDir
    Path tmp;

    @Test
    void createSessionThroughMclbIsAcceptedAndStickyByImsi() throws Exception {
        try (Netns ns = Netns.create(tmp)) {
            ns.run(() -> {
                for (String sim : List.of("127.0.0.5", "127.0.0.6")) {
                    NsProcess p = MclbProcess.startJava(ns, "sim-" + sim, "sim", "gtp", "-l", sim + ":2123");
                    ns.awaitUdpListening(p, Duration.ofSeconds(60), sim + ":2123");
                }
                Tshark cap = Tshark.start(ns, "tshark", "udp port 2123");
                MclbProcess mclb = MclbProcess.start(ns, MclbProcess.writeConfig(ns, "gtpv2-sim.cfg", ADMIN_PORT), ADMIN_PORT);
                ns.awaitUdpListening(mclb.process(), Duration.ofSeconds(30), VIP + ":2123");
                Path script = MclbProcess.writeResource(ns, "gtpv2_create_session.py", UnaryOperator.identity());

                // one IMSI twice from two MMEs, then two other IMSIs
                List<String[]> sends = List.of(
                        new String[] {"127.0.0.20", "262010000000001", "1"},
                        new String[] {"127.0.0.21", "262010000000001", "2"},
                        new String[] {"127.0.0.22", "262010000000002", "3"},
                        new String[] {"127.0.0.23", "262010000000003", "4"});
                for (String[] s : sends) {
                    Netns.Result r = ns.exec(Duration.ofSeconds(30), "/usr/bin/python3", script.toString(),
                            "--src", s[0], "--dst", VIP, "--imsi", s[1], "--seq", s[2], "--expect-cause", "16");
                    assertThat(r.exit()).as("scapy exchange %s: %s", List.of(s), r.output()).isZero();
                    assertThat(r.output()).contains("RESULT type=33 cause=16 seq=" + s[2]).contains("src=" + VIP + ":2123");
                }
                String metrics = mclb.metrics();
                cap.stop();

                assertThat(cap.rows("gtpv2.message_type == 33 && ip.src == " + VIP, "gtpv2.cause"))
                        .as("Create Session Responses from the virtual address").hasSize(sends.size())
                        .allSatisfy(r -> assertThat(r.get("gtpv2.cause")).isEqualTo("16"));
                Map<String, Set<String>> simsByImsi = new TreeMap<>();
                for (Map<String, String> f : cap.rows("gtpv2.message_type == 32 && " + SIMS, "ip.dst", "e212.imsi")) {
                    simsByImsi.computeIfAbsent(f.get("e212.imsi"), k -> new TreeSet<>()).add(f.get("ip.dst"));
                }
                assertThat(simsByImsi).containsOnlyKeys("262010000000001", "262010000000002", "262010000000003");
                assertThat(simsByImsi.values()).as("one simulator per IMSI %s", simsByImsi).allSatisfy(v -> assertThat(v).hasSize(1));
                assertThat(cap.count(FROM_MCLB)).as("frames from mclb").isGreaterThanOrEqualTo(2 * sends.size());
                assertThat(cap.problems("udp")).as("malformed frames").isEmpty();
                assertThat(MclbProcess.sum(metrics, "mclb_gtp_causes_total", "cause=\"16\""))
                        .as("mclb_gtp_causes_total{cause=\"16\"} in:%n%s", metrics).isGreaterThanOrEqualTo(sends.size());
            });
        }
    }

    /** The scapy script itself (no mclb): what it builds decodes cleanly, IMSI, APN and F-TEID intact. */
    @Test
    void scapyCreateSessionRequestDecodesCleanly() throws Exception {
        try (Netns ns = Netns.create(tmp)) {
            ns.run(() -> {
                Tshark cap = Tshark.start(ns, "tshark", "udp port 2123");
                Path script = MclbProcess.writeResource(ns, "gtpv2_create_session.py", UnaryOperator.identity());
                ns.exec(Duration.ofSeconds(30), "/usr/bin/python3", script.toString(), "--src", "127.0.0.20",
                        "--dst", VIP, "--imsi", "262010000000001", "--seq", "7", "--expect-cause", "0").check("scapy send");
                cap.stop();
                List<Map<String, String>> rows = cap.rows("gtpv2", "gtpv2.message_type", "gtpv2.seq", "e212.imsi",
                        "gtpv2.apn", "gtpv2.f_teid_ipv4", "gtpv2.ebi", "gtpv2.flags");
                assertThat(rows).hasSize(1);
                assertThat(rows.get(0)).containsEntry("gtpv2.message_type", "32").containsEntry("gtpv2.seq", "0x000007")
                        .containsEntry("e212.imsi", "262010000000001").containsEntry("gtpv2.apn", "internet")
                        .containsEntry("gtpv2.f_teid_ipv4", "127.0.0.20").containsEntry("gtpv2.ebi", "5")
                        .containsEntry("gtpv2.flags", "0x48"); // version 2, P=0, T=1
                assertThat(cap.problems("udp")).as("malformed frames").isEmpty();
            });
        }
    }
}
