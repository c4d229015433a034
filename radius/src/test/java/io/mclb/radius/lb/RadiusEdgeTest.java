package io.mclb.radius.lb;

import io.mclb.radius.codec.Dictionaries;
import org.junit.jupiter.api.Test;
import org.tinyradius.attribute.RadiusAttribute;
import org.tinyradius.packet.AccountingRequest;
import org.tinyradius.packet.RadiusPacket;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

import static io.mclb.radius.lb.RadiusProxyTest.accounting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Route-map predictor, Status-Server answered locally, malformed datagrams dropped by reason. */
class RadiusEdgeTest extends RadiusHarnessTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    static final String ROUTE_MAP = String.join("\n",
            "access-list 110 permit ip 10.9.0.0 0.0.255.255 any",
            "route-map CSG permit 10",
            " match ip address 110",
            " set ip next-hop 127.0.0.6",
            "ip slb serverfarm ROUTED",
            " predictor route-map CSG",
            "");

    static String routeMapConfig() {
        return RadiusHarness.issueConfig(ROUTE_MAP, "", "")
                .replace(" serverfarm AAA-ACCT\n sticky", " serverfarm ROUTED backup AAA-ACCT\n sticky");
    }

    @Test
    void routeMapSendsMatchingFramedIpsToTheNextHopRealAndOthersToTheBackupFarm() throws Exception {
        h = new RadiusHarness(dataDir, routeMapConfig());
        DatagramSocket nas = h.nas();
        for (int i = 1; i <= 6; i++) {
            AccountingRequest start = accounting("u" + i, AccountingRequest.ACCT_STATUS_TYPE_START, "4900" + i,
                    "10.9." + i + ".1", i);
            h.send(nas, RadiusHarness.encode(start, RadiusHarness.NAS_SECRET), h.vacct);
            assertThat(h.receive(nas, start).getPacketType()).isEqualTo(RadiusPacket.ACCOUNTING_RESPONSE);
        }
        assertThat(h.acct.get("ACCT6").count()).isEqualTo(6);
        assertThat(h.acct.get("ACCT5").count() + h.acct.get("ACCT7").count()).isZero();
        assertThat(h.framedIpEntry("10.9.3.1").address().getHostAddress()).isEqualTo("127.0.0.6");

        for (int i = 1; i <= 6; i++) {
            AccountingRequest start = accounting("o" + i, AccountingRequest.ACCT_STATUS_TYPE_START, "4800" + i,
                    "10.8." + i + ".1", 50 + i);
            h.send(nas, RadiusHarness.encode(start, RadiusHarness.NAS_SECRET), h.vacct);
            h.receive(nas, start);
        }
        assertThat(h.acct.get("ACCT5").count() + h.acct.get("ACCT7").count()).as("balanced by the backup farm")
                .isPositive();
    }

    @Test
    void statusServerToTheVirtualAddressIsAnsweredWithASignedAccessAccept() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", ""));
        DatagramSocket nas = h.nas();
        RadiusPacket ss = new RadiusPacket(RadiusPacket.STATUS_SERVER, 77);
        ss.setDictionary(Dictionaries.standard());
        ss.addAttribute(new RadiusAttribute(80, new byte[16]));
        byte[] wire = RadiusHarness.encode(ss, RadiusHarness.NAS_SECRET);
        System.arraycopy(hmac(wire, null), 0, wire, wire.length - 16, 16); // MA is the last attribute
        h.send(nas, wire, h.vauth);
        byte[] answer = h.receiveRaw(nas);
        assertThat(answer[0] & 0xff).isEqualTo(RadiusPacket.ACCESS_ACCEPT);
        assertThat(answer[1] & 0xff).isEqualTo(77);
        byte[] ma = Arrays.copyOfRange(answer, 22, 38);
        byte[] zeroed = answer.clone();
        Arrays.fill(zeroed, 22, 38, (byte) 0);
        assertThat(hmac(zeroed, Arrays.copyOfRange(wire, 4, 20))).isEqualTo(ma);
        RadiusPacket decoded = RadiusPacket.decodeResponsePacket(Dictionaries.standard(),
                new java.io.ByteArrayInputStream(answer), RadiusHarness.NAS_SECRET, ss);
        assertThat(decoded.getPacketType()).isEqualTo(RadiusPacket.ACCESS_ACCEPT);
        h.auth.values().forEach(a -> assertThat(a.count()).isZero());
    }

    private static byte[] hmac(byte[] wire, byte[] field) throws Exception {
        byte[] w = wire.clone();
        if (field != null) {
            System.arraycopy(field, 0, w, 4, 16);
        }
        Mac mac = Mac.getInstance("HmacMD5");
        mac.init(new SecretKeySpec(RadiusHarness.NAS_SECRET.getBytes(StandardCharsets.UTF_8), "HmacMD5"));
        return mac.doFinal(w);
    }

    @Test
    void malformedDatagramsAreDroppedByReason() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", ""));
        DatagramSocket nas = h.nas();
        h.send(nas, new byte[10], h.vacct);
        byte[] lengthTooLong = new byte[20];
        lengthTooLong[0] = 4;
        lengthTooLong[3] = 30;
        h.send(nas, lengthTooLong, h.vacct);
        byte[] lengthTooShort = lengthTooLong.clone();
        lengthTooShort[3] = 19;
        h.send(nas, lengthTooShort, h.vacct);
        byte[] overrun = new byte[24];
        overrun[0] = 4;
        overrun[3] = 24;
        overrun[20] = 1;
        overrun[21] = 10;
        h.send(nas, overrun, h.vacct);
        byte[] response = lengthTooLong.clone();
        response[0] = 5;
        response[3] = 20;
        h.send(nas, response, h.vacct);
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(h.drops("RADIUS-ACCT", "radius_short_packet")).isEqualTo(2);
            assertThat(h.drops("RADIUS-ACCT", "radius_bad_length")).isEqualTo(1);
            assertThat(h.drops("RADIUS-ACCT", "radius_attribute_overrun")).isEqualTo(1);
            assertThat(h.drops("RADIUS-ACCT", "radius_not_a_request")).isEqualTo(1);
        });
        h.acct.values().forEach(a -> assertThat(a.count()).isZero());
    }
}
