package io.mclb.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code radius require message-authenticator}, the BlastRADIUS (CVE-2024-3596) defence, against
 * a real FreeRADIUS (Debian 12's 3.2.1) and radclient, which verifies every answer's Response
 * Authenticator and Message-Authenticator with the NAS secret; FreeRADIUS silently discards a
 * request whose Message-Authenticator does not verify.
 *
 * <p>Asserted: NAS requests without one through the virtual server that requires one from the
 * AAA reach FreeRADIUS carrying one mclb added (tshark, every Access-Request mclb sent), which
 * FreeRADIUS accepted (it answered them all); its signed Accept and Reject reach radclient
 * signed. Restarted unsigned, the same FreeRADIUS's answers are dropped and counted, never
 * forwarded. The virtual server that requires one from the NASes drops radclient's unsigned
 * Access-Requests and answers its signed ones, signed by mclb where the AAA did not sign. Nothing
 * malformed on the wire.
 */
class RadiusMessageAuthenticatorInteropIT {
    private static final int ADMIN_PORT = 18082;
    private static final String NAS_SECRET = "nas-secret";
    private static final int USERS = 20;
    private static final String FROM_SERVERS = "127.0.0.100:1812";
    private static final String FROM_CLIENTS = "127.0.0.101:1812";

    @TempDir
    Path tmp;

    @Test
    void signedAnswersPassUnsignedOnesAndUnsignedRequestsAreDropped() throws Exception {
        List<FreeRadius.User> users = new ArrayList<>();
        for (int i = 1; i <= USERS; i++) {
            users.add(new FreeRadius.User(String.format("sub%03d", i), "pw-" + i, "10.7.0." + i));
        }
        try (Netns ns = Netns.create(tmp)) {
            ns.run(() -> {
                FreeRadius aaa = FreeRadius.start(ns, 1, users, true);
                Tshark cap = Tshark.start(ns, "tshark", "udp port 1812");
                Files.createDirectories(ns.dir().resolve("radius"));
                Path cfg = MclbProcess.writeResource(ns, "radius/mclb-radius-message-authenticator.cfg",
                        text -> text.replace("@DATA_DIR@", ns.dir().resolve("mclb-data").toString())
                                .replace("@ADMIN_PORT@", Integer.toString(ADMIN_PORT)));
                MclbProcess mclb = MclbProcess.start(ns, cfg, ADMIN_PORT);
                ns.awaitUdpListening(mclb.process(), Duration.ofSeconds(30), FROM_SERVERS, FROM_CLIENTS);

                // 1. unsigned from the NAS, signed toward FreeRADIUS by mclb, signed answers back
                FreeRadiusClient.Result ok = access(ns, "signed-by-mclb", users, FROM_SERVERS, false, 3);
                assertThat(ok.answered("Access-Accept")).as("radclient:%n%s", ok.output()).isEqualTo(USERS);
                assertThat(ok.problems()).as("radclient problems:%n%s", ok.output()).isEmpty();
                FreeRadiusClient.Result reject = FreeRadiusClient.run(ns, "reject", List.of(List.of(
                        "User-Name = \"sub001\"", "User-Password = \"wrong\"")), FROM_SERVERS, "auth", NAS_SECRET, 3, 2);
                assertThat(reject.answered("Access-Reject")).as("radclient:%n%s", reject.output()).isEqualTo(1);

                // 2. the same FreeRADIUS answering unsigned: every answer dropped, none forwarded
                aaa.restartSigning(false);
                FreeRadiusClient.Result unsigned = access(ns, "answered-unsigned", users.subList(0, 5), FROM_SERVERS,
                        false, 1);
                assertThat(unsigned.exchanges().stream().filter(e -> !e.responseCode().isEmpty()).toList())
                        .as("answers reaching radclient:%n%s", unsigned.output()).isEmpty();

                // 3. the NAS side: unsigned Access-Requests dropped, signed ones answered, and signed by
                // mclb although this FreeRADIUS now answers unsigned (radclient checks the signature)
                FreeRadiusClient.Result fromNas = access(ns, "nas-unsigned", users.subList(0, 5), FROM_CLIENTS, false, 1);
                assertThat(fromNas.exchanges().stream().filter(e -> !e.responseCode().isEmpty()).toList())
                        .as("answers to unsigned requests:%n%s", fromNas.output()).isEmpty();
                FreeRadiusClient.Result fromNasSigned = access(ns, "nas-signed", users.subList(0, 5), FROM_CLIENTS, true, 3);
                assertThat(fromNasSigned.answered("Access-Accept")).as("radclient:%n%s", fromNasSigned.output()).isEqualTo(5);
                assertThat(fromNasSigned.problems()).as("radclient problems:%n%s", fromNasSigned.output()).isEmpty();
                assertThat(fromNasSigned.output()).as("radclient shows the answers' Message-Authenticator")
                        .contains("Message-Authenticator = 0x");

                String metrics = mclb.metrics();
                cap.stop();
                assertThat(MclbProcess.sum(metrics, "mclb_drops_total", "reason=\"radius_response_missing_message_authenticator\""))
                        .as("unsigned answers dropped").isGreaterThanOrEqualTo(5);
                assertThat(MclbProcess.sum(metrics, "mclb_drops_total", "reason=\"radius_missing_message_authenticator\""))
                        .as("unsigned Access-Requests dropped").isEqualTo(5);
                assertThat(MclbProcess.sum(metrics, "mclb_drops_total", "reason=\"radius_bad_response_authenticator\""))
                        .as("answers that did not verify").isZero();
                String toAaa = "radius.code == 1 && ip.dst == 127.0.0.5";
                assertThat(cap.count(toAaa)).as("Access-Requests mclb sent").isGreaterThanOrEqualTo(USERS + 1 + 5 + 5);
                assertThat(cap.count(toAaa + " && !radius.Message_Authenticator"))
                        .as("Access-Requests mclb sent without Message-Authenticator").isZero();
                assertThat(cap.count("(radius.code == 2 || radius.code == 3) && ip.src == 127.0.0.100"))
                        .as("answers mclb forwarded").isEqualTo(USERS + 1);
                assertThat(cap.count("radius.code == 2 && ip.src == 127.0.0.5 && ip.dst == 127.0.0.1"
                        + " && !radius.Message_Authenticator")).as("FreeRADIUS's unsigned Accepts").isGreaterThanOrEqualTo(10);
                assertThat(cap.count("(radius.code == 2 || radius.code == 3) && (ip.src == 127.0.0.100 || ip.src == 127.0.0.101)"
                        + " && !radius.Message_Authenticator")).as("answers forwarded unsigned").isZero();
                assertThat(cap.problems("radius")).as("malformed RADIUS frames").isEmpty();
                assertThat(Files.readString(mclb.process().log()))
                        .contains("radius_response_missing_message_authenticator");
            });
        }
    }

    private static FreeRadiusClient.Result access(Netns ns, String name, List<FreeRadius.User> users, String target,
                                                  boolean signed, int tries) throws Exception {
        List<List<String>> packets = new ArrayList<>();
        for (FreeRadius.User u : users) {
            List<String> p = new ArrayList<>(List.of("User-Name = \"" + u.name() + "\"",
                    "User-Password = \"" + u.password() + "\"", "Calling-Station-Id = \"4917" + u.name() + "\""));
            if (signed) {
                p.add("Message-Authenticator = 0x00");
            }
            packets.add(p);
        }
        return FreeRadiusClient.run(ns, name, packets, target, "auth", NAS_SECRET, tries, 2);
    }
}
