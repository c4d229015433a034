package io.mclb.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13 item 3, the GGSN-initiated direction of {@code gtp signalling vip}, with real peers
 * in a namespace of the test's own.
 *
 * <p>GTPv1: sgsnemu (127.0.0.10) creates two PDP contexts through 127.0.0.100 on two osmo-ggsn
 * (127.0.0.2, .3; their TEID-Cs collide). Then the APN is shut down on each GGSN from its VTY:
 * osmo-ggsn sends a Delete PDP Context Request for each context to the SGSN address it was told,
 * which is the virtual address. Asserted with tshark: the GGSNs were told the virtual address and
 * mclb's TEIDs, never sgsnemu's; each delete went from the GGSN to the virtual address (none
 * around mclb), from the virtual address to sgsnemu with sgsnemu's own TEID-C, and sgsnemu's
 * answer went back from the virtual address to the GGSN with that GGSN's own TEID-C; mclb's
 * sessions end (as for an SGSN's delete) and nothing is malformed.
 *
 * <p>GTPv2 (Debian has no PGW): {@code interop/gtpv2_pgw_initiated.py} plays an SGW (127.0.0.20)
 * and a PGW (127.0.0.5) with scapy-built messages through 127.0.0.101: the PGW's Update Bearer and
 * Delete Bearer Requests reach the SGW from the virtual address with the SGW's own TEID, and the
 * answers reach the PGW with its own; tshark decodes all of it cleanly.
 */
class GtpGgsnInitiatedInteropIT {
    private static final String VIP = "127.0.0.100";
    private static final String VIP2 = "127.0.0.101";
    private static final String SGSN = "127.0.0.10";
    private static final int ADMIN_PORT = 18083;
    /** Stands for either GGSN in {@link #v1}. */
    private static final String GGSNS = "GGSNS";

    @TempDir
    Path tmp;

    @Test
    void ggsnAndPgwRequestsReachTheSgsnThroughTheVipWithItsOwnTeids() throws Exception {
        try (Netns ns = Netns.create(tmp)) {
            ns.run(() -> {
                List<OsmoGgsn> ggsns = List.of(OsmoGgsn.start(ns, 1), OsmoGgsn.start(ns, 2));
                Tshark cap = Tshark.start(ns, "tshark", "udp port 2123");
                MclbProcess mclb = MclbProcess.start(ns, MclbProcess.writeConfig(ns, "gtp-ggsn-initiated.cfg", ADMIN_PORT),
                        ADMIN_PORT);
                ns.awaitUdpListening(mclb.process(), Duration.ofSeconds(30), VIP + ":2123", VIP2 + ":2123");

                Path state = ns.dir().resolve("sgsnemu-state");
                Files.createDirectories(state);
                NsProcess sgsnemu = ns.start("sgsnemu", List.of("stdbuf", "-oL", "sgsnemu", "-l", SGSN, "-r", VIP,
                        "--imsi", "262010000000001", "--msisdn", "491711234567", "--apn", OsmoGgsn.APN,
                        "--contexts", "2", "--nsapi", "5", "--timelimit", "120",
                        "--statedir", state.toString(), "--pidfile", state.resolve("sgsnemu.pid").toString()));
                try {
                    assertThat(sgsnemu.awaitLog(l -> l.stream().filter(x -> x.contains("received EUA")).count() == 2,
                            Duration.ofSeconds(20))).as("both contexts created; log:%n%s", sgsnemu.tail(30)).isTrue();
                    await().atMost(Duration.ofSeconds(10)).until(() -> sessions(mclb) == 2);

                    // each GGSN deletes its contexts, toward the SGSN address it was given
                    for (OsmoGgsn g : ggsns) {
                        g.shutdownApn(ns);
                    }
                    await().atMost(Duration.ofSeconds(15)).until(() -> sessions(mclb) == 0);

                    Path script = MclbProcess.writeResource(ns, "gtpv2_pgw_initiated.py", UnaryOperator.identity());
                    Netns.Result v2 = ns.exec(Duration.ofSeconds(40), "/usr/bin/python3", script.toString(),
                            "--sgw", "127.0.0.20", "--pgw", "127.0.0.5", "--vip", VIP2);
                    assertThat(v2.exit()).as("scapy SGW/PGW exchange:%n%s", v2.output()).isZero();
                    assertThat(v2.output()).contains("RESULT ok");
                    await().atMost(Duration.ofSeconds(10)).until(() -> sessions(mclb) == 0);
                } finally {
                    sgsnemu.stop(Duration.ofSeconds(2));
                }
                String metrics = mclb.metrics();
                cap.stop();

                // one decode of the capture (each tshark run costs seconds on a busy box), filtered here
                List<Map<String, String>> frames = cap.rows("gtp || gtpv2", "ip.src", "ip.dst", "udp.srcport",
                        "udp.dstport", "gtp.message", "gtp.teid", "gtp.teid_cp", "gtp.gsn_ipv4", "gtp.cause",
                        "gtpv2.message_type", "gtpv2.teid");

                // GTPv1: the GGSNs know sgsnemu only as the virtual address with mclb's TEIDs
                Set<String> sgsnTeids = column(v1(frames, "0x10", SGSN, null), "gtp.teid_cp");
                List<Map<String, String>> creates = v1(frames, "0x10", null, GGSNS);
                assertThat(creates).as("creates reaching the GGSNs").hasSize(2).allSatisfy(r -> {
                    assertThat(r.get("gtp.gsn_ipv4")).as("SGSN address for signalling").isEqualTo(VIP);
                    assertThat(r.get("gtp.teid_cp")).as("TEID-C the GGSN got").isNotIn(sgsnTeids);
                });
                Set<String> mclbTeids = column(creates, "gtp.teid_cp");
                Set<String> ggsnTeids = column(v1(frames, "0x11", GGSNS, null), "gtp.teid_cp");
                assertThat(ggsnTeids).as("the GGSNs' own TEID-Cs collide").hasSize(1);

                List<Map<String, String>> fromGgsns = v1(frames, "0x14", GGSNS, null);
                assertThat(fromGgsns).as("deletes the GGSNs sent").hasSize(2)
                        .allSatisfy(r -> assertThat(r.get("ip.dst")).as("sent to").isEqualTo(VIP));
                assertThat(column(fromGgsns, "gtp.teid")).as("addressed to mclb's TEIDs").isEqualTo(mclbTeids);
                List<Map<String, String>> toSgsn = v1(frames, "0x14", VIP, SGSN);
                assertThat(toSgsn).as("deletes relayed to sgsnemu").hasSize(2).allSatisfy(r -> {
                    assertThat(r.get("udp.srcport")).isEqualTo("2123");
                    assertThat(r.get("udp.dstport")).isEqualTo("2123");
                });
                assertThat(column(toSgsn, "gtp.teid")).as("with sgsnemu's own TEID-Cs").isEqualTo(sgsnTeids);
                List<Map<String, String>> toGgsns = v1(frames, "0x15", VIP, GGSNS);
                assertThat(toGgsns).as("sgsnemu's answers relayed to the GGSNs").hasSize(2).allSatisfy(r -> {
                    assertThat(r.get("gtp.cause")).isEqualTo("128");
                    assertThat(r.get("gtp.teid")).as("the GGSN's own TEID-C").isIn(ggsnTeids);
                });
                for (OsmoGgsn g : ggsns) {
                    long deleted = g.process().lines().stream().filter(l -> l.contains("Deleting PDP context")).count();
                    long created = g.process().lines().stream().filter(l -> l.contains("Successful PDP Context Creation")).count();
                    assertThat(deleted).as("%s deleted what it created", g.address()).isEqualTo(created).isEqualTo(1);
                }

                // GTPv2: the PGW's requests left the virtual address for the SGW, the answers for the PGW
                for (int type : new int[] {97, 99}) {
                    assertThat(v2(frames, type, VIP2, "127.0.0.20")).as("type %d to the SGW", type).singleElement()
                            .satisfies(r -> assertThat(r.get("gtpv2.teid")).isEqualTo("0x00005001"));
                    assertThat(v2(frames, type + 1, VIP2, "127.0.0.5")).as("type %d to the PGW", type + 1).singleElement()
                            .satisfies(r -> assertThat(r.get("gtpv2.teid")).isEqualTo("0x00007001"));
                }

                assertThat(cap.problems("udp")).as("malformed frames in the capture").isEmpty();
                assertThat(MclbProcess.sum(metrics, "mclb_real_initiated_total", "vserver=\"GGSN-GN\"")).isEqualTo(2);
                assertThat(MclbProcess.sum(metrics, "mclb_real_initiated_total", "vserver=\"PGW-S5\"")).isEqualTo(2);
                assertThat(MclbProcess.sum(metrics, "mclb_drops_total", "reason=\"gtp_ggsn_unknown_teid\"")).isZero();
            });
        }
    }

    /** GTP sessions mclb holds, over both virtual servers (the gauge is the runtime's). */
    private static double sessions(MclbProcess mclb) throws Exception {
        return MclbProcess.sum(mclb.metrics(), "mclb_gtp_sessions");
    }

    /** GTPv1 frames of message {@code type} (tshark's "0x10" form) from / to an address (null: any; GGSNS: either GGSN). */
    private static List<Map<String, String>> v1(List<Map<String, String>> frames, String type, String src, String dst) {
        return frames.stream().filter(r -> r.get("gtp.message").equals(type) && matches(r.get("ip.src"), src)
                && matches(r.get("ip.dst"), dst)).toList();
    }

    private static List<Map<String, String>> v2(List<Map<String, String>> frames, int type, String src, String dst) {
        return frames.stream().filter(r -> r.get("gtpv2.message_type").equals(Integer.toString(type))
                && matches(r.get("ip.src"), src) && matches(r.get("ip.dst"), dst)).toList();
    }

    private static boolean matches(String address, String wanted) {
        return wanted == null || (wanted.equals(GGSNS) ? address.equals("127.0.0.2") || address.equals("127.0.0.3")
                : address.equals(wanted));
    }

    private static Set<String> column(List<Map<String, String>> rows, String field) {
        return rows.stream().map(r -> r.get(field)).collect(Collectors.toCollection(TreeSet::new));
    }
}
