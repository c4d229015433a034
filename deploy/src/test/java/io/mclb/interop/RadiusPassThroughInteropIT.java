package io.mclb.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RADIUS pass-through, as IOS SLB balances it: mclb holds no secret (no {@code mclb radius
 * client} line, no {@code mclb radius key}); a real FreeRADIUS on 127.0.0.5 knows mclb's address
 * with the NAS's secret. radclient, which checks every Response Authenticator with that secret,
 * sends Access-Requests and accounting Start/Stop through mclb's 127.0.0.100:1812/1813.
 *
 * <p>Asserted: every Access-Request is accepted and every accounting request answered (so the
 * answers crossed mclb unbroken); tshark shows each request leaving mclb toward FreeRADIUS with
 * exactly the UDP payload the NAS sent, and each answer reaching the NAS with exactly the payload
 * FreeRADIUS sent; mclb learnt the framed IPs from the Starts and the Stops removed them; no
 * malformed RADIUS frame.
 */
class RadiusPassThroughInteropIT {
    private static final String VIP = "127.0.0.100";
    private static final String AAA = FreeRadius.address(1);
    private static final int ADMIN_PORT = 18081;
    /** The NAS's secret: the one FreeRADIUS has for mclb's address (mclb itself never sees it). */
    private static final String NAS_SECRET = FreeRadius.SECRET;
    private static final int SUBSCRIBERS = 5;

    @TempDir
    Path tmp;

    @Test
    void radclientThroughAPassThroughMclbToFreeRadius() throws Exception {
        List<FreeRadius.User> users = new ArrayList<>();
        for (int i = 1; i <= SUBSCRIBERS; i++) {
            users.add(new FreeRadius.User(String.format("pt%03d", i), "pw-" + i, "10.2.0." + i));
        }
        try (Netns ns = Netns.create(tmp)) {
            ns.run(() -> {
                FreeRadius.start(ns, 1, users);
                Tshark cap = Tshark.start(ns, "tshark", "udp port 1812 or udp port 1813");
                Files.createDirectories(ns.dir().resolve("radius"));
                Path cfg = MclbProcess.writeConfig(ns, "radius/mclb-radius-pass-through.cfg", ADMIN_PORT);
                MclbProcess mclb = MclbProcess.start(ns, cfg, ADMIN_PORT);
                ns.awaitUdpListening(mclb.process(), Duration.ofSeconds(30), VIP + ":1812", VIP + ":1813");

                List<List<String>> auth = new ArrayList<>();
                for (FreeRadius.User u : users) {
                    auth.add(List.of("User-Name = \"" + u.name() + "\"", "User-Password = \"" + u.password() + "\"",
                            "Calling-Station-Id = \"" + csid(u) + "\"", "NAS-IP-Address = 127.0.0.1"));
                }
                FreeRadiusClient.Result a = FreeRadiusClient.run(ns, "auth", auth, VIP + ":1812", "auth", NAS_SECRET, 2, 2);
                assertThat(a.problems()).as("radclient problems:%n%s", a.output()).isEmpty();
                assertThat(a.answered("Access-Accept")).as("Access-Accepts:%n%s", a.output()).isEqualTo(SUBSCRIBERS);

                FreeRadiusClient.Result start = acct(ns, "acct-start", users, "Start");
                assertThat(start.answered("Accounting-Response")).as("Starts answered:%n%s", start.output())
                        .isEqualTo(SUBSCRIBERS);
                String learned = mclb.get("/api/v1/sticky?table=radius-framed-ip&limit=1000");
                for (FreeRadius.User u : users) {
                    assertThat(learned).as("framed-IP entries learnt from the answered Starts").contains(u.framedIp());
                }
                FreeRadiusClient.Result stop = acct(ns, "acct-stop", users, "Stop");
                assertThat(stop.answered("Accounting-Response")).as("Stops answered:%n%s", stop.output())
                        .isEqualTo(SUBSCRIBERS);
                String metrics = mclb.metrics();
                String left = mclb.get("/api/v1/sticky?table=radius-framed-ip&limit=1000");
                cap.stop();

                // above UDP, mclb changed nothing in either direction
                List<String> fromNas = payloads(cap, "ip.dst == " + VIP + " && !(ip.src == " + AAA + ")");
                List<String> toAaa = payloads(cap, "ip.dst == " + AAA);
                List<String> fromAaa = payloads(cap, "ip.src == " + AAA);
                List<String> toNas = payloads(cap, "ip.src == " + VIP + " && udp.srcport <= 1813");
                assertThat(fromNas).as("requests the NAS sent (and any retransmission)").hasSizeGreaterThanOrEqualTo(3 * SUBSCRIBERS)
                        .allSatisfy(p -> assertThat(p).as("hex of a RADIUS header at least").hasSizeGreaterThanOrEqualTo(40));
                assertThat(fromAaa).allSatisfy(p -> assertThat(p).hasSizeGreaterThanOrEqualTo(40));
                assertThat(toAaa).as("requests mclb forwarded, byte for byte").containsExactlyInAnyOrderElementsOf(fromNas);
                assertThat(toNas).as("answers mclb forwarded, byte for byte").containsExactlyInAnyOrderElementsOf(fromAaa)
                        .hasSizeGreaterThanOrEqualTo(3 * SUBSCRIBERS);

                for (FreeRadius.User u : users) {
                    assertThat(left).as("framed-IP entries after the Stops").doesNotContain("\"" + u.framedIp() + "\"");
                }
                assertThat(MclbProcess.sum(metrics, "mclb_radius_unverified_total", "direction=\"request\""))
                        .as("requests forwarded unverified").isEqualTo((double) toAaa.size());
                assertThat(MclbProcess.sum(metrics, "mclb_drops_total", "vserver=\"RADIUS-")).as("drops").isZero();
                assertThat(cap.problems("radius")).as("malformed RADIUS frames in the capture").isEmpty();
            });
        }
    }

    private static FreeRadiusClient.Result acct(Netns ns, String name, List<FreeRadius.User> users, String status)
            throws Exception {
        List<List<String>> packets = new ArrayList<>();
        for (FreeRadius.User u : users) {
            packets.add(List.of("Acct-Status-Type = " + status, "User-Name = \"" + u.name() + "\"",
                    "Acct-Session-Id = \"pt-" + u.name() + "\"", "Calling-Station-Id = \"" + csid(u) + "\"",
                    "Framed-IP-Address = " + u.framedIp(), "NAS-IP-Address = 127.0.0.1"));
        }
        FreeRadiusClient.Result r = FreeRadiusClient.run(ns, name, packets, VIP + ":1813", "acct", NAS_SECRET, 2, 2);
        assertThat(r.problems()).as("%s: radclient problems:%n%s", name, r.output()).isEmpty();
        assertThat(r.exit()).as("%s: radclient exit code", name).isZero();
        return r;
    }

    private static String csid(FreeRadius.User u) {
        return "49172" + u.name().substring(2) + "0000";
    }

    /** The UDP payloads (hex) of the RADIUS frames matching {@code filter}. */
    private static List<String> payloads(Tshark cap, String filter) throws Exception {
        List<String> out = new ArrayList<>();
        for (Map<String, String> row : cap.rows("radius && " + filter, "udp.payload")) {
            out.add(row.get("udp.payload"));
        }
        return out;
    }
}
