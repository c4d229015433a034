package io.mclb.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13 items 3 and 4: {@code gtp signalling vip} with three real osmo-ggsn (127.0.0.2-4, in a
 * namespace of the test's own) whose TEIDs collide (each counts its TEID-C from 1), and sgsnemu
 * creating and deleting PDP contexts, GTPv1 and GTPv0, through the virtual address 127.0.0.100.
 *
 * <p>Asserted: every create and delete is accepted; tshark sees each create answer leave the
 * virtual address naming the virtual address as the GGSN's control-plane address and a TEID-C
 * that is unique, while the answers the GGSNs gave mclb repeat TEIDs; every delete sgsnemu sends
 * goes to the virtual address (none straight to a GGSN); each GGSN's own log shows the same
 * subscribers (IMSI:NSAPI) created and deleted, so every delete reached the GGSN that holds the
 * context (a delete misrouted on a colliding TEID would end another subscriber's context there,
 * or be refused); Wireshark finds nothing malformed in the capture.
 */
class GtpSignallingVipInteropIT {
    private static final String VIP = "127.0.0.100";
    private static final int ADMIN_PORT = 18081;
    private static final Duration CREATE_TIMEOUT = Duration.ofSeconds(20);
    private static final String FARM_DST = "(ip.dst == 127.0.0.2 || ip.dst == 127.0.0.3 || ip.dst == 127.0.0.4)";
    private static final String FARM_SRC = "(ip.src == 127.0.0.2 || ip.src == 127.0.0.3 || ip.src == 127.0.0.4)";
    private static final String SGSNS = "(ip.src == 127.0.0.10 || ip.src == 127.0.0.12)";
    private static final Pattern CREATED = Pattern.compile("PDP\\((\\d+):(\\d+)\\): Successful PDP Context Creation");
    private static final Pattern DELETED = Pattern.compile("PDP\\((\\d+):(\\d+)\\): Deleting PDP context\\s*$");

    @TempDir
    Path tmp;

    @Test
    void sgsnemuCreatesAndDeletesThroughTheVipAgainstGgsnsWithCollidingTeids() throws Exception {
        try (Netns ns = Netns.create(tmp)) {
            ns.run(() -> {
                List<OsmoGgsn> ggsns = new ArrayList<>();
                for (int i = 1; i <= 3; i++) {
                    ggsns.add(OsmoGgsn.start(ns, i));
                }
                Tshark cap = Tshark.start(ns, "tshark", "udp port 2123 or udp port 3386");
                MclbProcess mclb = MclbProcess.start(ns, MclbProcess.writeConfig(ns, "gtp-signalling-vip.cfg", ADMIN_PORT),
                        ADMIN_PORT);
                ns.awaitUdpListening(mclb.process(), Duration.ofSeconds(30), VIP + ":2123", VIP + ":3386");

                List<Sgsnemu.Result> runs = new ArrayList<>();
                // leastconns spreads six v1 contexts over the three GGSNs, each numbering its TEID-Cs from 1
                runs.add(Sgsnemu.run(ns, "sgsnemu-a-v1", new Sgsnemu.Options("127.0.0.10", VIP, 262010000000001L, 1, 6),
                        CREATE_TIMEOUT));
                runs.add(Sgsnemu.run(ns, "sgsnemu-c-v0", new Sgsnemu.Options("127.0.0.12", VIP, 262010000000003L, 0, 1),
                        CREATE_TIMEOUT));
                String metrics = mclb.metrics();
                cap.stop();

                int contexts = 0;
                for (Sgsnemu.Result r : runs) {
                    contexts += r.options().contexts();
                    assertThat(r.accepted()).as("%s: every create accepted; log:%n%s", r.options(), r.log())
                            .isEqualTo(r.options().contexts());
                    assertThat(r.deleteCauses()).as("%s: deletes; log:%n%s", r.options(), r.log())
                            .hasSize(r.accepted()).containsOnly(128);
                }

                // what the GGSNs told mclb: colliding TEIDs
                List<String> ggsnTeids = new ArrayList<>();
                for (Map<String, String> r : cap.rows("gtp.message == 0x11 && gtp.flags.version == 1 && " + FARM_SRC,
                        "gtp.teid_cp")) {
                    ggsnTeids.add(r.get("gtp.teid_cp"));
                }
                assertThat(ggsnTeids).as("v1 create answers from the GGSNs").hasSize(6);
                assertThat(new HashSet<>(ggsnTeids)).as("the GGSNs' TEID-Cs collide: %s", ggsnTeids).hasSizeLessThan(6);

                // what the SGSNs were told: the virtual address and unique TEIDs of mclb's
                List<Map<String, String>> answers = cap.rows("gtp.message == 0x11 && ip.src == " + VIP,
                        "gtp.flags.version", "gtp.cause", "gtp.gsn_ipv4", "gtp.teid_cp");
                assertThat(answers).as("create answers from the virtual address").hasSize(contexts)
                        .allSatisfy(r -> {
                            assertThat(r.get("gtp.cause")).isEqualTo("128");
                            assertThat(r.get("gtp.gsn_ipv4")).as("GGSN address for control plane").isEqualTo(VIP);
                        });
                Set<String> mclbTeids = new HashSet<>();
                answers.stream().filter(r -> r.get("gtp.flags.version").equals("1")).forEach(r -> mclbTeids.add(r.get("gtp.teid_cp")));
                assertThat(mclbTeids).as("TEID-Cs the SGSNs got").hasSize(6);

                // every delete from an SGSN went to the virtual address, and mclb forwarded each to the farm
                assertThat(cap.count("gtp.message == 0x14 && " + SGSNS + " && ip.dst == " + VIP))
                        .as("deletes to the virtual address").isEqualTo(contexts);
                assertThat(cap.count("gtp.message == 0x14 && " + SGSNS + " && !(ip.dst == " + VIP + ")"))
                        .as("deletes around mclb").isZero();
                assertThat(cap.count("gtp.message == 0x14 && " + FARM_DST)).as("deletes reaching the farm").isEqualTo(contexts);

                // each GGSN deleted exactly the contexts it created
                Set<String> all = new TreeSet<>();
                Map<String, Set<String>> createdAt = new TreeMap<>();
                for (OsmoGgsn g : ggsns) {
                    Set<String> created = matches(g.process().lines(), CREATED);
                    Set<String> deleted = matches(g.process().lines(), DELETED);
                    assertThat(deleted).as("%s: deleted == created; log:%n%s", g.address(), g.process().tail(40))
                            .isEqualTo(created);
                    createdAt.put(g.address(), created);
                    all.addAll(created);
                }
                assertThat(all).as("contexts created in the farm %s", createdAt).hasSize(contexts);
                assertThat(createdAt.values()).as("the farm shares the load %s", createdAt).allSatisfy(s -> assertThat(s).isNotEmpty());

                assertThat(cap.problems("udp")).as("malformed frames in the capture").isEmpty();
                assertThat(MclbProcess.sum(metrics, "mclb_drops_total", "reason=\"gtp_unknown_teid\""))
                        .as("follow-ups mclb could not map").isZero();
            });
        }
    }

    private static Set<String> matches(List<String> lines, Pattern p) {
        Set<String> out = new TreeSet<>();
        for (String l : lines) {
            Matcher m = p.matcher(l);
            if (m.find()) {
                out.add(m.group(1) + ":" + m.group(2));
            }
        }
        return out;
    }
}
