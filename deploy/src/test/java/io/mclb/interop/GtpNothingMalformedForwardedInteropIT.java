package io.mclb.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.gtp.GtpMalformedCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14 item 5 on the wire: the malformed-GTP corpus ({@link GtpMalformedCorpus}: the issue's
 * 16-digit IMSIs and the other spec violations, random mutations of v0/v1/v2 creates, valid
 * creates in between) goes from one SGSN/MME address to mclb's {@code gtp-inspect} virtual
 * servers in front of two GTP simulators; tshark captures what mclb sends to them, and Wireshark
 * must find no malformed frame and no error-level expert note in it, while every valid v1/v2
 * create of the corpus arrives (by IMSI). Before the strict checks, the same corpus put 1,627
 * malformed datagrams in front of the GGSNs of the unit test. The same mclb has RADIUS virtual
 * servers in front of an AAA simulator, and {@link RadiusMalformedCorpus} goes to them from the
 * same address: nothing tshark's RADIUS dissector calls malformed reaches the AAA, while every
 * well-formed request of the corpus does (by User-Name). Before the attribute checks of
 * {@code RadiusAttributeRules}, the broken Vendor-Specific attributes reached it.
 */
class GtpNothingMalformedForwardedInteropIT {
    private static final String VIP = "127.0.0.100";
    private static final int ADMIN_PORT = 18081;
    private static final int DATAGRAMS = 2000;
    private static final int RADIUS_DATAGRAMS = 300;
    private static final String TO_SIMS = "(ip.dst == 127.0.0.5 || ip.dst == 127.0.0.6)";
    private static final String TO_AAA = "ip.dst == 127.0.0.7";

    @TempDir
    Path tmp;

    @Test
    void whatMclbSendsToTheRealsUnderTheCorpusDecodesCleanlyInTshark() throws Exception {
        List<GtpMalformedCorpus.Datagram> corpus = GtpMalformedCorpus.of(GtpMalformedCorpus.SEED, DATAGRAMS);
        List<RadiusMalformedCorpus.Datagram> radius = RadiusMalformedCorpus.of(GtpMalformedCorpus.SEED, RADIUS_DATAGRAMS);
        try (Netns ns = Netns.create(tmp)) {
            ns.run(() -> {
                for (String sim : List.of("127.0.0.5:2123", "127.0.0.6:2123", "127.0.0.5:3386")) {
                    NsProcess p = MclbProcess.startJava(ns, "sim-" + sim.replace(':', '-'), "sim", "gtp", "-l", sim);
                    ns.awaitUdpListening(p, Duration.ofSeconds(60), sim);
                }
                Tshark cap = Tshark.start(ns, "tshark", "udp port 2123 or udp port 3386 or udp port 1812 or udp port 1813");
                MclbProcess mclb = MclbProcess.start(ns, MclbProcess.writeConfig(ns, "gtp-strict.cfg", ADMIN_PORT), ADMIN_PORT);
                ns.awaitUdpListening(mclb.process(), Duration.ofSeconds(30), VIP + ":2123");
                ns.awaitUdpListening(mclb.process(), Duration.ofSeconds(30), VIP + ":3386");
                ns.awaitUdpListening(mclb.process(), Duration.ofSeconds(30), VIP + ":1813");
                // the AAA simulator starts after mclb: one JVM fewer competing with mclb's start-up
                NsProcess aaa = MclbProcess.startJava(ns, "sim-radius", "sim", "radius", "-l", "127.0.0.7:1812",
                        "--acct-port", "1813", "--secret", "aaa-secret");
                ns.awaitUdpListening(aaa, Duration.ofSeconds(60), "127.0.0.7:1812");

                List<String> lines = new ArrayList<>();
                for (GtpMalformedCorpus.Datagram d : corpus) {
                    lines.add((d.v0() ? 3386 : 2123) + " " + (d.bytes().length == 0 ? "-" : HexFormat.of().formatHex(d.bytes())));
                }
                for (RadiusMalformedCorpus.Datagram d : radius) {
                    lines.add((d.bytes()[0] == 4 ? 1813 : 1812) + " " + HexFormat.of().formatHex(d.bytes()));
                }
                Path file = ns.dir().resolve("gtp-corpus.txt");
                Files.write(file, lines);
                Path sender = MclbProcess.writeResource(ns, "send_datagrams.py", UnaryOperator.identity());
                Netns.Result r = ns.exec(Duration.ofSeconds(300), "/usr/bin/python3", sender.toString(), "--corpus",
                        file.toString(), "--src", "127.0.0.20", "--dst", VIP, "--admin", "127.0.0.1:" + ADMIN_PORT);
                int all = DATAGRAMS + RADIUS_DATAGRAMS;
                assertThat(r.output()).as("sender: %s", r.output()).contains("SENT " + all + " READ " + all);
                String metrics = mclb.metrics();
                cap.stop();

                assertThat(cap.problems(TO_SIMS)).as("malformed frames mclb sent to the reals").isEmpty();
                Set<String> imsis = new TreeSet<>();
                for (Map<String, String> f : cap.rows(TO_SIMS + " && (gtp.message == 16 || gtpv2.message_type == 32)", "e212.imsi")) {
                    imsis.add(f.get("e212.imsi"));
                }
                List<String> validImsis = corpus.stream().filter(GtpMalformedCorpus.Datagram::valid).filter(d -> !d.v0())
                        .map(d -> imsiOf(d.bytes())).toList();
                assertThat(validImsis).as("valid v1/v2 creates").hasSizeGreaterThan(DATAGRAMS / 8);
                assertThat(imsis).as("IMSIs of the creates the reals got").containsAll(validImsis);
                assertThat(MclbProcess.sum(metrics, "mclb_drops_total", "reason=\"gtp_bad_imsi\""))
                        .as("the issue's 16-digit IMSIs, counted").isPositive();
                assertThat(MclbProcess.sum(metrics, "mclb_drops_total", "reason=\"internal_error\"")).isZero();

                assertThat(cap.problems(TO_AAA)).as("malformed frames mclb sent to the AAA").isEmpty();
                Set<String> users = new TreeSet<>();
                for (Map<String, String> f : cap.rows(TO_AAA + " && radius", "radius.User_Name")) {
                    users.add(f.get("radius.User_Name"));
                }
                List<String> validUsers = radius.stream().filter(RadiusMalformedCorpus.Datagram::valid)
                        .map(RadiusMalformedCorpus.Datagram::user).toList();
                assertThat(validUsers).hasSizeGreaterThan(RADIUS_DATAGRAMS / 4);
                assertThat(users).as("User-Names of the requests the AAA got").containsAll(validUsers);
                assertThat(MclbProcess.sum(metrics, "mclb_drops_total", "reason=\"radius_bad_vendor_specific\""))
                        .as("broken Vendor-Specific attributes, counted").isPositive();
            });
        }
    }

    /** The IMSI digits of a corpus create (v1: TV 2 at octet 12; v2: IE 1 at octet 12), as tshark prints e212.imsi. */
    private static String imsiOf(byte[] m) {
        boolean v2 = (m[0] & 0xE0) == 0x40;
        int at = v2 ? 16 : 13;
        int len = v2 ? ((m[13] & 0xFF) << 8 | (m[14] & 0xFF)) : 8;
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < len * 2; i++) {
            int d = i % 2 == 0 ? m[at + i / 2] & 0x0F : (m[at + i / 2] & 0xFF) >>> 4;
            if (d == 0x0F) {
                break;
            }
            s.append(d);
        }
        return s.toString();
    }
}
