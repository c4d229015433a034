package io.mclb.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 11, the weight shift end to end: two real osmo-ggsn behind mclb ({@code service gtp-inspect},
 * IMSI sticky, {@code ip slb dfp} with a password), each GGSN with an {@code mclb dfp-agent} sidecar
 * on its own address reading the GGSN's live PDP contexts from its VTY ({@code osmo-vty:}), sgsnemu
 * as the SGSN, tshark on the namespace's loopback.
 *
 * <p>The GGSN that took the first subscriber gets {@code --max 1}: with that subscriber's context
 * up its agent reports weight 0, and mclb marks it DFP_THROTTLED. Then: new subscribers' creates
 * all go to the other GGSN; the first subscriber's next PDP context (another NSAPI) still goes to
 * the throttled one (its sticky entry holds); the throttled GGSN's agent stopped (SIGSTOP: connected
 * but silent) gives its static weight back after the 3 s timeout and not before; the other's agent
 * killed gives its static weight back as its connection closes. tshark carries the DFP bytes
 * (Wireshark has no DFP dissector), decoded here by plain byte arithmetic: the manager's DFP
 * Parameters (Security TLV first, keep-alive 3) and BindID Request, the agent's signed reports of
 * weight 0.
 */
class DfpWeightShiftInteropIT {
    private static final String VIP = "127.0.0.100";
    private static final int ADMIN_PORT = 18080;
    private static final Duration CREATE_TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    Path tmp;

    @Test
    void aThrottledGgsnTakesNoNewSubscriberKeepsItsOwnAndStaticWeightsReturn() throws Exception {
        try (Netns ns = Netns.create(tmp)) {
            ns.run(() -> {
                OsmoGgsn.start(ns, 1);
                OsmoGgsn.start(ns, 2);
                Tshark cap = Tshark.start(ns, "tshark", "udp port 2123 or tcp port 8081");
                Path pw = ns.dir().resolve("dfp.pw");
                Files.writeString(pw, "DfpS3cret\n");
                MclbProcess mclb = MclbProcess.start(ns, MclbProcess.writeConfig(ns, "dfp-shift.cfg", ADMIN_PORT), ADMIN_PORT);
                ns.awaitUdpListening(mclb.process(), Duration.ofSeconds(30), VIP + ":2123");
                List<NsProcess> agents = new ArrayList<>();
                String[] ggsn = new String[2];

                Sgsnemu.Result first = Sgsnemu.run(ns, "sgsnemu-first", new Sgsnemu.Options("127.0.0.10", VIP,
                        262010000000101L, 1, 1), CREATE_TIMEOUT, live -> {
                    assertThat(live.accepted()).as("first subscriber; log:%n%s", live.log()).isEqualTo(1);
                    String reals = mclb.get("/api/v1/reals");
                    ggsn[0] = row(reals, "127.0.0.2").contains("\"conns\":1") ? "127.0.0.2" : "127.0.0.3";
                    ggsn[1] = ggsn[0].equals("127.0.0.2") ? "127.0.0.3" : "127.0.0.2";
                    agents.add(agent(ns, ggsn[0], 1, pw));
                    agents.add(agent(ns, ggsn[1], 1000, pw));
                    String throttled = await(mclb, r -> row(r, ggsn[0]).contains("\"DFP_THROTTLED\"")
                            && row(r, ggsn[1]).contains("\"OPERATIONAL\""), Duration.ofSeconds(60));
                    assertThat(throttled).as("the loaded GGSN's agent throttles it").isNotNull();
                    String weights = awaitText(mclb, "/api/v1/dfp?table=weights",
                            t -> t.contains("\"real\":\"" + ggsn[1] + "\""), Duration.ofSeconds(30));
                    assertThat(weights).as("both agents report").contains("\"real\":\"" + ggsn[0] + "\"",
                            "\"weight\":0", "\"weight\":8");

                    Sgsnemu.Result fresh = Sgsnemu.run(ns, "sgsnemu-new", new Sgsnemu.Options("127.0.0.11", VIP,
                            262010000000201L, 1, 3), CREATE_TIMEOUT);
                    assertThat(fresh.accepted()).as("new subscribers; log:%n%s", fresh.log()).isEqualTo(3);
                    Sgsnemu.Result again = Sgsnemu.run(ns, "sgsnemu-held", new Sgsnemu.Options("127.0.0.12", VIP,
                            262010000000101L, 1, 1, 6), CREATE_TIMEOUT);
                    assertThat(again.accepted()).as("the first subscriber's second context; log:%n%s", again.log())
                            .isEqualTo(1);

                    // silent agent: static weight after the 3 s timeout, not at once
                    long stopped = System.nanoTime();
                    signal(agents.get(0), "STOP");
                    String back = await(mclb, r -> row(r, ggsn[0]).contains("\"OPERATIONAL\""), Duration.ofSeconds(30));
                    long silentMs = (System.nanoTime() - stopped) / 1_000_000;
                    assertThat(back).as("static weight back after the timeout").isNotNull();
                    // the last report can be up to one report interval (1 s) older than the stop
                    assertThat(silentMs).as("not before the 3 s timeout (less one report interval)")
                            .isGreaterThanOrEqualTo(2000);
                    signal(agents.get(0), "CONT");

                    // killed agent: its weight goes with its connection
                    long killed = System.nanoTime();
                    signal(agents.get(1), "KILL");
                    String gone = awaitText(mclb, "/api/v1/dfp?table=weights", t -> !t.contains("\"real\":\"" + ggsn[1] + "\""),
                            Duration.ofSeconds(30));
                    System.out.printf("DFP: silent agent -> static weight after %d ms (timeout 3 s); killed agent -> "
                            + "static weight after %d ms%n", silentMs, (System.nanoTime() - killed) / 1_000_000);
                    assertThat(gone).as("the killed agent's weight is gone").isNotNull();
                    String metrics = mclb.metrics();
                    assertThat(MclbProcess.sum(metrics, "mclb_dfp_reports_total", "agent=\"" + ggsn[0] + ":8081\""))
                            .isPositive();
                    assertThat(metrics).contains("mclb_real_weight{farm=\"GGSN-FARM\",real=\"" + ggsn[1]
                            + "\",source=\"dfp\"} NaN");
                });
                assertThat(first.accepted()).isEqualTo(1);
                cap.stop();

                // where mclb sent each create
                List<Map<String, String>> creates = cap.rows("gtp.message == 0x10 && (ip.dst == 127.0.0.2 || ip.dst == 127.0.0.3)",
                        "ip.dst", "e212.imsi");
                for (Map<String, String> c : creates) {
                    String imsi = c.get("e212.imsi");
                    String want = imsi.equals("262010000000101") ? ggsn[0] : ggsn[1];
                    assertThat(c.get("ip.dst")).as("create of %s", imsi).isEqualTo(want);
                }
                assertThat(creates).as("1 + 3 new + 1 held").hasSize(5);

                // the DFP bytes on the wire, manager -> throttled GGSN's agent and back
                List<byte[]> toAgent = messages(cap, "ip.dst == " + ggsn[0] + " && tcp.dstport == 8081");
                assertThat(toAgent).isNotEmpty();
                byte[] params = toAgent.get(0);
                assertThat(u16(params, 2)).as("DFP Parameters").isEqualTo(0x0301);
                assertThat(u16(params, 8)).as("Security TLV first").isEqualTo(0x0001);
                assertThat(u16(params, 36)).as("then Keep-Alive").isEqualTo(0x0101);
                assertThat(u32(params, 40)).as("keep-alive = the agent line's timeout").isEqualTo(3);
                assertThat(u16(toAgent.get(1), 2)).as("BindID Request").isEqualTo(0x0401);
                List<byte[]> reports = messages(cap, "ip.src == " + ggsn[0] + " && tcp.srcport == 8081");
                assertThat(reports).as("the agent's Preference Information").isNotEmpty().allSatisfy(m -> {
                    assertThat(u16(m, 2)).isIn(0x0101, 0x0402);
                    assertThat(u16(m, 8)).as("signed").isEqualTo(0x0001);
                });
                int load = 36;
                List<byte[]> prefs = reports.stream().filter(m -> u16(m, 2) == 0x0101).toList();
                assertThat(prefs).allSatisfy(m -> {
                    assertThat(u16(m, load)).as("Load TLV").isEqualTo(0x0002);
                    assertThat(u16(m, load + 8)).as("one host").isEqualTo(1);
                    assertThat(ip(m, load + 12)).isEqualTo(ggsn[0]);
                });
                assertThat(prefs).as("reports of weight 0 while its subscriber's contexts were up")
                        .anySatisfy(m -> assertThat(u16(m, load + 18)).isZero());
            });
        }
    }

    private static NsProcess agent(Netns ns, String ggsn, int max, Path pw) throws Exception {
        return MclbProcess.startJava(ns, "dfp-agent-" + ggsn, "dfp-agent", "--listen", ggsn + ":8081", "--real", ggsn,
                "--current", "osmo-vty:" + ggsn + ":4260", "--max", Integer.toString(max), "--interval", "1",
                "--password-file", pw.toString());
    }

    private static void signal(NsProcess p, String sig) throws Exception {
        Process k = new ProcessBuilder("kill", "-" + sig, Long.toString(p.pid())).inheritIO().start();
        assertThat(k.waitFor()).as("kill -%s %s", sig, p).isZero();
    }

    /** The DFP messages of one direction: the TCP payloads in order, cut by the header's length. */
    private static List<byte[]> messages(Tshark cap, String filter) throws Exception {
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        for (Map<String, String> r : cap.rows("tcp.len > 0 && " + filter, "tcp.stream", "tcp.payload")) {
            stream.writeBytes(HexFormat.of().parseHex(r.get("tcp.payload").replace(":", "")));
        }
        byte[] s = stream.toByteArray();
        List<byte[]> out = new ArrayList<>();
        for (int at = 0; at + 8 <= s.length; ) {
            int len = (int) u32(s, at + 4);
            if (s[at] != 1 || len < 8 || at + len > s.length) {
                break;
            }
            out.add(java.util.Arrays.copyOfRange(s, at, at + len));
            at += len;
        }
        return out;
    }

    private static int u16(byte[] b, int at) {
        return ((b[at] & 0xff) << 8) | (b[at + 1] & 0xff);
    }

    private static long u32(byte[] b, int at) {
        return ((long) u16(b, at) << 16) | u16(b, at + 2);
    }

    private static String ip(byte[] b, int at) {
        return (b[at] & 0xff) + "." + (b[at + 1] & 0xff) + "." + (b[at + 2] & 0xff) + "." + (b[at + 3] & 0xff);
    }

    /** The JSON object of {@code /api/v1/reals} naming {@code label}, or "". */
    private static String row(String json, String label) {
        return java.util.Arrays.stream(json.split("\\},\\s*\\{")).filter(r -> r.contains("\"real\":\"" + label + "\""))
                .findFirst().orElse("");
    }

    private static String await(MclbProcess mclb, java.util.function.Predicate<String> done, Duration timeout)
            throws Exception {
        return awaitText(mclb, "/api/v1/reals", done, timeout);
    }

    private static String awaitText(MclbProcess mclb, String path, java.util.function.Predicate<String> done,
                                    Duration timeout) throws Exception {
        java.util.concurrent.atomic.AtomicReference<String> last = new java.util.concurrent.atomic.AtomicReference<>();
        try {
            org.awaitility.Awaitility.await().atMost(timeout).pollInterval(Duration.ofMillis(100)).until(() -> {
                last.set(mclb.get(path));
                return done.test(last.get());
            });
            return last.get();
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            return null;
        }
    }
}
