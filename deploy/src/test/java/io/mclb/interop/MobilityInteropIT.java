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
 * Issue 9 on the wire: Mobile IP Registration Requests built with scapy ({@code scapy.layers.mobileip},
 * {@code interop/mobility_exchange.py}) and WiMAX R6 messages go to mclb's virtual address
 * ({@code service ipmobile} on 434, {@code service asn} with MSID sticky on 2231) in front of two
 * {@code mclb sim mip} home agents and two {@code mclb sim asn} gateways. tshark's {@code mip} and
 * {@code wimaxasncp} dissectors decode every datagram mclb emits without a malformed frame; the
 * registrations reach the home agent byte for byte (same length, Identification, NAI, Home Agent
 * field), each NAI's renewal and deregistration stay on its home agent, each MSID's messages on
 * its gateway, and R6 transaction IDs are rewritten toward the gateway and restored for the base
 * station.
 */
class MobilityInteropIT {
    private static final String VIP = "127.0.0.100";
    private static final int ADMIN_PORT = 18080;
    private static final String REALS = "(ip.dst == 127.0.0.5 || ip.dst == 127.0.0.6)";
    private static final int COUNT = 4;

    @TempDir
    Path tmp;

    @Test
    void registrationsAndR6MessagesThroughMclbDecodeCleanlyAndStayOnTheirReal() throws Exception {
        try (Netns ns = Netns.create(tmp)) {
            ns.run(() -> {
                NsProcess ha = MclbProcess.startJava(ns, "sim-mip", "sim", "mip", "-l", "127.0.0.5:434,127.0.0.6:434");
                NsProcess gw = MclbProcess.startJava(ns, "sim-asn", "sim", "asn", "-l", "127.0.0.5:2231,127.0.0.6:2231");
                ns.awaitUdpListening(ha, Duration.ofSeconds(60), "127.0.0.6:434");
                ns.awaitUdpListening(gw, Duration.ofSeconds(60), "127.0.0.6:2231");
                Tshark cap = Tshark.start(ns, "tshark", "udp port 434 or udp port 2231");
                MclbProcess mclb = MclbProcess.start(ns, MclbProcess.writeConfig(ns, "mobility-sim.cfg", ADMIN_PORT),
                        ADMIN_PORT);
                ns.awaitUdpListening(mclb.process(), Duration.ofSeconds(30), VIP + ":2231");
                Path script = MclbProcess.writeResource(ns, "mobility_exchange.py", UnaryOperator.identity());
                for (String kind : List.of("mip", "asn")) {
                    Netns.Result r = ns.exec(Duration.ofSeconds(60), "/usr/bin/python3", script.toString(),
                            "--src", "127.0.0.20", "--dst", VIP, "--kind", kind, "--count", Integer.toString(COUNT));
                    assertThat(r.exit()).as("%s exchange: %s", kind, r.output()).isZero();
                    assertThat(r.output()).contains("src=" + VIP + ":" + (kind.equals("mip") ? "434" : "2231"));
                }
                String metrics = mclb.metrics();
                cap.stop();

                // Mobile IP: the same registrations on both legs, byte counts and fields equal
                String[] f = {"udp.length", "mip.ident", "mip.nai", "mip.haaddr", "mip.life"};
                List<Map<String, String>> fromFa = cap.rows("mip.type == 1 && ip.dst == " + VIP, f);
                List<Map<String, String>> toHa = cap.rows("mip.type == 1 && " + REALS, f);
                assertThat(fromFa).hasSize(3 * COUNT);
                assertThat(toHa).as("forwarded unmodified above UDP").containsExactlyInAnyOrderElementsOf(fromFa);
                Map<String, Set<String>> haByNai = new TreeMap<>();
                for (Map<String, String> row : cap.rows("mip.type == 1 && " + REALS, "mip.nai", "ip.dst")) {
                    haByNai.computeIfAbsent(row.get("mip.nai"), k -> new TreeSet<>()).add(row.get("ip.dst"));
                }
                assertThat(haByNai).hasSize(COUNT).allSatisfy((nai, has) -> assertThat(has).as(nai).hasSize(1));
                assertThat(cap.rows("mip.type == 3 && ip.src == " + VIP, "mip.code"))
                        .hasSize(3 * COUNT).allSatisfy(r -> assertThat(r.get("mip.code")).isEqualTo("0"));

                // R6: one gateway per MSID, transaction IDs rewritten toward it and restored toward the base station
                Map<String, Set<String>> gwByMsid = new TreeMap<>();
                for (Map<String, String> row : cap.rows("wimaxasncp && " + REALS, "wimaxasncp.msid", "ip.dst")) {
                    gwByMsid.computeIfAbsent(row.get("wimaxasncp.msid"), k -> new TreeSet<>()).add(row.get("ip.dst"));
                }
                assertThat(gwByMsid).hasSize(COUNT).allSatisfy((msid, gws) -> assertThat(gws).as(msid).hasSize(1));
                List<Map<String, String>> toBs = cap.rows("wimaxasncp && ip.src == " + VIP, "wimaxasncp.transaction_id");
                assertThat(toBs).hasSize(3 * COUNT);
                assertThat(cap.count("wimaxasncp && " + REALS)).as("requests and acks to the gateways").isEqualTo(4 * COUNT);

                assertThat(cap.count("ip.src == " + VIP + " || " + REALS)).as("frames mclb emitted")
                        .isGreaterThanOrEqualTo(2 * (3 * COUNT) + 4 * COUNT + 3 * COUNT);
                assertThat(cap.problems("udp")).as("malformed frames").isEmpty();
                assertThat(MclbProcess.sum(metrics, "mclb_mip_replies_total", "code=\"0\""))
                        .as("mclb_mip_replies_total in:%n%s", metrics).isEqualTo(3 * COUNT);
                assertThat(MclbProcess.sum(metrics, "mclb_one_way_total", "vserver=\"ASN-R6\"")).isEqualTo(COUNT);
                assertThat(MclbProcess.sum(metrics, "mclb_sticky_entries", "table=\"asn-msid\"")).isEqualTo(COUNT);
                assertThat(MclbProcess.sum(metrics, "mclb_bindings_active", "kind=\"mip-binding\"")).isZero();
                assertThat(MclbProcess.sum(metrics, "mclb_bindings_active", "kind=\"asn-msid\"")).isZero();
            });
        }
    }
}
