package io.mclb.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 3 item 10: sgsnemu creates PDP contexts, GTPv1 and GTPv0, through mclb's virtual address
 * 127.0.0.100 ({@code service gtp-inspect}, {@code sticky gtp imsi group 1},
 * {@code predictor leastconns}) against three real osmo-ggsn processes on 127.0.0.2-4, all in a
 * namespace of the test's own; tshark captures everything and is the judge.
 *
 * <p>Asserted: every create succeeds (sgsnemu gets an address; tshark sees cause 128 from the
 * virtual address for each); repeated creates of one IMSI, from different SGSN addresses and on
 * v1 and v0, are forwarded to one GGSN (tshark: ip.dst of the create mclb forwards); distinct
 * IMSIs reach more than one GGSN; no datagram mclb emits (nor any other) is malformed to
 * Wireshark; {@code /metrics} counts the causes and the live sessions.
 *
 * <p>Not asserted, on purpose: where the Delete goes. osmo-ggsn puts its own address in the GSN
 * Address IEs of the create response, so sgsnemu sends the Delete straight to the GGSN (and the
 * GGSN its Echo straight to sgsnemu's GSN address); that is a property of the peers (peers.md
 * section 7), not of mclb. Only that each delete is accepted is checked.
 */
class GtpOsmoInteropIT {
    private static final String VIP = "127.0.0.100";
    private static final int ADMIN_PORT = 18080;
    private static final Duration CREATE_TIMEOUT = Duration.ofSeconds(20);
    private static final String FARM = "(ip.dst == 127.0.0.2 || ip.dst == 127.0.0.3 || ip.dst == 127.0.0.4)";
    /** Frames mclb sent: from the virtual address, or from an upstream (ephemeral-port) socket; the peers use fixed ports. */
    private static final String FROM_MCLB = "(ip.src == " + VIP + " || !(udp.srcport == 2123 || udp.srcport == 3386))";

    @TempDir
    Path tmp;

    @Test
    void sgsnemuCreatesThroughMclbStickyByImsiOnV1AndV0() throws Exception {
        try (Netns ns = Netns.create(tmp)) {
            ns.run(() -> {
                for (int i = 1; i <= 3; i++) {
                    OsmoGgsn.start(ns, i);
                }
                Tshark cap = Tshark.start(ns, "tshark", "udp port 2123 or udp port 3386");
                MclbProcess mclb = MclbProcess.start(ns, MclbProcess.writeConfig(ns, "gtp-osmo.cfg", ADMIN_PORT), ADMIN_PORT);
                ns.awaitUdpListening(mclb.process(), Duration.ofSeconds(30), VIP + ":2123", VIP + ":3386");

                List<Sgsnemu.Result> runs = new ArrayList<>();
                // first batch: three IMSIs (…001, …011, …021); while they live, mclb counts them as sessions
                runs.add(Sgsnemu.run(ns, "sgsnemu-a-v1", new Sgsnemu.Options("127.0.0.10", VIP, 262010000000001L, 1, 3),
                        CREATE_TIMEOUT, live -> {
                            assertThat(live.accepted()).as("creates of the first batch; log:%n%s", live.log()).isEqualTo(3);
                            assertThat(MclbProcess.sum(mclb.metrics(), "mclb_sessions_active"))
                                    .as("mclb_sessions_active while 3 contexts live").isGreaterThanOrEqualTo(3);
                        }));
                // other IMSIs: least connections must now prefer GGSNs without the first batch's sessions
                runs.add(Sgsnemu.run(ns, "sgsnemu-b-v1", new Sgsnemu.Options("127.0.0.11", VIP, 262010000000002L, 1, 3), CREATE_TIMEOUT));
                // the first batch's IMSIs again, from another SGSN address: same GGSNs
                runs.add(Sgsnemu.run(ns, "sgsnemu-c-v1", new Sgsnemu.Options("127.0.0.12", VIP, 262010000000001L, 1, 3), CREATE_TIMEOUT));
                // GTPv0 (3386) for an IMSI first seen on v1: the sticky group is shared, same GGSN
                runs.add(Sgsnemu.run(ns, "sgsnemu-d-v0", new Sgsnemu.Options("127.0.0.13", VIP, 262010000000001L, 0, 1), CREATE_TIMEOUT));
                // a v0-only IMSI, twice
                runs.add(Sgsnemu.run(ns, "sgsnemu-e-v0", new Sgsnemu.Options("127.0.0.14", VIP, 262010000000005L, 0, 1), CREATE_TIMEOUT));
                runs.add(Sgsnemu.run(ns, "sgsnemu-f-v0", new Sgsnemu.Options("127.0.0.15", VIP, 262010000000005L, 0, 1), CREATE_TIMEOUT));
                String metrics = mclb.metrics();
                cap.stop();

                int contexts = 0;
                for (Sgsnemu.Result r : runs) {
                    contexts += r.options().contexts();
                    assertThat(r.accepted()).as("%s: every create accepted; log:%n%s", r.options(), r.log())
                            .isEqualTo(r.options().contexts());
                    assertThat(r.deleteCauses()).as("%s: deletes", r.options()).hasSize(r.accepted()).containsOnly(128);
                }

                // every create answered from the virtual address, accepted
                List<Map<String, String>> answers = cap.rows("gtp.message == 0x11 && ip.src == " + VIP,
                        "ip.dst", "gtp.flags.version", "gtp.cause", "gtp.gsn_ipv4");
                assertThat(answers).as("create responses from the virtual address").hasSize(contexts)
                        .allSatisfy(r -> assertThat(r.get("gtp.cause")).isEqualTo("128"));
                // without 'gtp signalling vip' the GGSN's own signalling address reaches the SGSN unchanged
                assertThat(answers).allSatisfy(r -> assertThat(r.get("gtp.gsn_ipv4")).as("GGSN address for control plane")
                        .isIn("127.0.0.2", "127.0.0.3", "127.0.0.4"));

                // where mclb forwarded each create: one GGSN per IMSI, more than one GGSN overall
                Map<String, Set<String>> ggsnsByImsi = new TreeMap<>();
                List<Map<String, String>> forwarded = cap.rows("gtp.message == 0x10 && " + FARM,
                        "ip.dst", "gtp.flags.version", "e212.imsi", "gtp.tid");
                for (Map<String, String> f : forwarded) {
                    String imsi = f.get("gtp.flags.version").equals("0") ? Tshark.imsiOfV0Tid(f.get("gtp.tid")) : f.get("e212.imsi");
                    ggsnsByImsi.computeIfAbsent(imsi, k -> new TreeSet<>()).add(f.get("ip.dst"));
                }
                assertThat(forwarded).as("creates forwarded to the farm").hasSizeGreaterThanOrEqualTo(contexts);
                assertThat(ggsnsByImsi).as("GGSNs per IMSI").containsOnlyKeys(
                        "262010000000001", "262010000000011", "262010000000021",
                        "262010000000002", "262010000000012", "262010000000022", "262010000000005");
                assertThat(ggsnsByImsi.values()).as("sticky gtp imsi: one GGSN per IMSI %s", ggsnsByImsi)
                        .allSatisfy(s -> assertThat(s).hasSize(1));
                assertThat(ggsnsByImsi.values().stream().flatMap(Set::stream).distinct().count())
                        .as("leastconns spreads IMSIs %s", ggsnsByImsi).isGreaterThanOrEqualTo(2);
                assertThat(cap.count("gtp.message == 0x10 && " + FARM + " && gtp.flags.version == 0 && gtp.tid"))
                        .as("v0 creates forwarded").isEqualTo(3);

                // Wireshark decodes everything mclb emitted (and everything else) without complaint
                assertThat(cap.count(FROM_MCLB)).as("frames from mclb").isGreaterThanOrEqualTo(2 * contexts);
                assertThat(cap.problems(FROM_MCLB)).as("malformed frames from mclb").isEmpty();
                assertThat(cap.problems("udp")).as("malformed frames in the capture").isEmpty();

                assertThat(MclbProcess.sum(metrics, "mclb_gtp_causes_total", "cause=\"128\""))
                        .as("mclb_gtp_causes_total{cause=\"128\"} in:%n%s", metrics).isGreaterThanOrEqualTo(contexts);
            });
        }
    }
}
