package io.mclb.radius.lb;

import io.mclb.radius.codec.Dictionaries;
import org.junit.jupiter.api.Test;
import org.tinyradius.attribute.VendorSpecificAttribute;
import org.tinyradius.packet.AccessRequest;
import org.tinyradius.packet.AccountingRequest;
import org.tinyradius.packet.RadiusPacket;

import java.net.DatagramSocket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The issue's configuration end to end: re-signing both ways, subscriber sticky, framed-IP learning. */
class RadiusProxyTest extends RadiusHarnessTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    static AccessRequest access(String user, String password, String csid, int id) {
        AccessRequest r = new AccessRequest(user, password);
        r.setDictionary(Dictionaries.standard());
        r.setPacketIdentifier(id);
        r.addAttribute("Calling-Station-Id", csid);
        return r;
    }

    static AccountingRequest accounting(String user, int status, String csid, String framedIp, int id) {
        AccountingRequest r = new AccountingRequest(user, status);
        r.setDictionary(Dictionaries.standard());
        r.setPacketIdentifier(id);
        if (csid != null) {
            r.addAttribute("Calling-Station-Id", csid);
        }
        if (framedIp != null) {
            r.addAttribute("Framed-IP-Address", framedIp);
        }
        r.addAttribute("Acct-Session-Id", "s-" + user);
        return r;
    }

    private String aaaOf(Map<String, FakeAaa> fakes, Map<String, Integer> before) {
        await().atMost(WAIT).until(() -> RadiusHarness.grew(fakes, before) != null);
        return RadiusHarness.grew(fakes, before).substring(4);
    }

    @Test
    void authAndAccountingOfOneCallingStationIdReachTheSameAaaAndEveryAnswerVerifies() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", ""));
        h.auth.values().forEach(a -> a.framedIp = "10.1.0.1");
        String atStart = h.runtime.registry().scrape();
        for (String code : List.of("Access-Accept", "Access-Reject", "Access-Challenge", "Accounting-Response")) {
            assertThat(io.mclb.testing.Metrics.sample(atStart,
                    "mclb_radius_responses_total{code=\"" + code + "\",vserver=\"RADIUS-AUTH\"}"))
                    .as("%s exported from the start", code).isZero();
        }
        DatagramSocket nas = h.nas();
        for (int s = 0; s < 12; s++) {
            String csid = "4917000000" + s;
            var before = RadiusHarness.counts(h.auth);
            AccessRequest ar = access("user" + s, "pw-" + s + "-secret!", csid, 10 + s);
            h.send(nas, RadiusHarness.encode(ar, RadiusHarness.NAS_SECRET), h.vauth);
            RadiusPacket accept = h.receive(nas, ar); // TinyRadius verifies the Response Authenticator
            assertThat(accept.getPacketType()).isEqualTo(RadiusPacket.ACCESS_ACCEPT);
            assertThat(accept.getPacketIdentifier()).isEqualTo(10 + s);
            String authAaa = aaaOf(h.auth, before);
            FakeAaa.Seen seen = h.auth.get("AUTH" + authAaa).seen().get(h.auth.get("AUTH" + authAaa).count() - 1);
            assertThat(seen.password()).isEqualTo("pw-" + s + "-secret!");
            assertThat(seen.packet().getAttributeValue("Calling-Station-Id")).isEqualTo(csid);

            var beforeAcct = RadiusHarness.counts(h.acct);
            AccountingRequest start = accounting("user" + s, AccountingRequest.ACCT_STATUS_TYPE_START, csid,
                    "10.2.0." + (s + 1), 100 + s);
            h.send(nas, RadiusHarness.encode(start, RadiusHarness.NAS_SECRET), h.vacct);
            RadiusPacket resp = h.receive(nas, start);
            assertThat(resp.getPacketType()).isEqualTo(RadiusPacket.ACCOUNTING_RESPONSE);
            assertThat(resp.getPacketIdentifier()).isEqualTo(100 + s);
            assertThat(aaaOf(h.acct, beforeAcct)).as("subscriber %s", csid).isEqualTo(authAaa);
        }
        assertThat(h.auth.values().stream().filter(a -> a.count() > 0).count()).as("spread over the farm")
                .isGreaterThan(1);
        h.auth.values().forEach(a -> assertThat(a.undecodable()).isEmpty());
        h.acct.values().forEach(a -> assertThat(a.undecodable()).isEmpty());
        assertThat(h.counter(ResponseCounters.NAME, "RADIUS-AUTH", "code", "Access-Accept")).isEqualTo(12);
        assertThat(h.counter(ResponseCounters.NAME, "RADIUS-ACCT", "code", "Accounting-Response")).isEqualTo(12);
    }

    @Test
    void framedIpLearnedFromAcceptAndStartRemovedOnStopPurgedOnAccountingOn() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", ""));
        h.auth.values().forEach(a -> a.framedIp = "10.3.0.1");
        DatagramSocket nas = h.nas();
        var before = RadiusHarness.counts(h.auth);
        AccessRequest ar = access("alice", "pw", "491711", 1);
        h.send(nas, RadiusHarness.encode(ar, RadiusHarness.NAS_SECRET), h.vauth);
        h.receive(nas, ar);
        String aaa = aaaOf(h.auth, before);
        assertThat(h.framedIpEntry("10.3.0.1")).isNotNull();
        assertThat(h.framedIpEntry("10.3.0.1").address().getHostAddress()).isEqualTo("127.0.0." + aaa);

        var beforeAcct = RadiusHarness.counts(h.acct);
        AccountingRequest start = accounting("bob", AccountingRequest.ACCT_STATUS_TYPE_START, "491722", "10.3.0.2", 2);
        h.send(nas, RadiusHarness.encode(start, RadiusHarness.NAS_SECRET), h.vacct);
        h.receive(nas, start);
        String bobAaa = aaaOf(h.acct, beforeAcct);
        assertThat(h.framedIpEntry("10.3.0.2").address().getHostAddress()).isEqualTo("127.0.0." + bobAaa);

        AccountingRequest stop = accounting("bob", AccountingRequest.ACCT_STATUS_TYPE_STOP, "491722", "10.3.0.2", 3);
        h.send(nas, RadiusHarness.encode(stop, RadiusHarness.NAS_SECRET), h.vacct);
        h.receive(nas, stop);
        assertThat(h.framedIpEntry("10.3.0.2")).isNull();
        assertThat(h.framedIpEntry("10.3.0.1")).isNotNull();

        AccountingRequest on = accounting("nas", AccountingRequest.ACCT_STATUS_TYPE_ACCOUNTING_ON, null, null, 4);
        h.send(nas, RadiusHarness.encode(on, RadiusHarness.NAS_SECRET), h.vacct);
        h.receive(nas, on);
        await().atMost(WAIT).until(() -> h.framedIpEntry("10.3.0.1") == null);
    }

    @Test
    void unknownClientAndWrongSecretAreDroppedAndCounted() throws Exception {
        String cfg = RadiusHarness.issueConfig("", "", "").replace("client 127.0.0.0 255.0.0.0",
                "client 127.0.0.1 255.255.255.255");
        h = new RadiusHarness(dataDir, cfg);
        DatagramSocket nas = h.nas();
        nas.setSoTimeout(300);
        AccountingRequest wrong = accounting("eve", AccountingRequest.ACCT_STATUS_TYPE_START, "49", "10.4.0.1", 9);
        h.send(nas, RadiusHarness.encode(wrong, "not-the-secret"), h.vacct);
        await().atMost(WAIT).until(() -> h.drops("RADIUS-ACCT", "radius_bad_authenticator") == 1);

        try (DatagramSocket other = new DatagramSocket(new java.net.InetSocketAddress("127.0.0.2", 0))) {
            AccountingRequest ok = accounting("eve", AccountingRequest.ACCT_STATUS_TYPE_START, "49", "10.4.0.1", 10);
            h.send(other, RadiusHarness.encode(ok, RadiusHarness.NAS_SECRET), h.vacct);
            await().atMost(WAIT).until(() -> h.drops("RADIUS-ACCT", "radius_unknown_client") == 1);
        }
        assertThatThrownBy(() -> h.receiveRaw(nas)).isInstanceOf(SocketTimeoutException.class);
        h.acct.values().forEach(a -> assertThat(a.count()).isZero());
    }

    @Test
    void aResponseWithABadAuthenticatorIsDroppedNeverForwarded() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", ""));
        h.acct.values().forEach(a -> a.mode = FakeAaa.Mode.BAD_AUTHENTICATOR);
        DatagramSocket nas = h.nas();
        nas.setSoTimeout(500);
        AccountingRequest start = accounting("carol", AccountingRequest.ACCT_STATUS_TYPE_START, "4933", "10.5.0.1", 5);
        h.send(nas, RadiusHarness.encode(start, RadiusHarness.NAS_SECRET), h.vacct);
        await().atMost(WAIT).until(() -> h.drops("RADIUS-ACCT", "radius_bad_response_authenticator") == 1);
        assertThatThrownBy(() -> h.receiveRaw(nas)).isInstanceOf(SocketTimeoutException.class);
        assertThat(h.framedIpEntry("10.5.0.1")).as("nothing learned from an unverified answer").isNull();
    }

    @Test
    void aWrongRealSecretMeansTheRealCannotDecode() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", ""), "other-aaa-secret");
        DatagramSocket nas = h.nas();
        AccountingRequest start = accounting("dave", AccountingRequest.ACCT_STATUS_TYPE_START, "4944", "10.6.0.1", 6);
        h.send(nas, RadiusHarness.encode(start, RadiusHarness.NAS_SECRET), h.vacct);
        await().atMost(WAIT).until(() -> h.acct.values().stream().anyMatch(a -> !a.undecodable().isEmpty()));
    }

    @Test
    void ciscoVsaOfTheAccessRequestIsInjectedIntoTheAccountingStartAndReSigned() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", " radius inject auth vsa cisco\n",
                " radius inject acct vsa cisco\n"));
        DatagramSocket nas = h.nas();
        AccessRequest ar = access("erin", "pw", "495555", 7);
        VendorSpecificAttribute vsa = new VendorSpecificAttribute(9);
        vsa.setDictionary(Dictionaries.standard());
        org.tinyradius.attribute.RadiusAttribute avpair = new org.tinyradius.attribute.RadiusAttribute(1,
                "correlation-id=abc123".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        avpair.setVendorId(9);
        vsa.addSubAttribute(avpair);
        ar.addAttribute(vsa);
        h.send(nas, RadiusHarness.encode(ar, RadiusHarness.NAS_SECRET), h.vauth);
        h.receive(nas, ar);

        var before = RadiusHarness.counts(h.acct);
        AccountingRequest start = accounting("erin", AccountingRequest.ACCT_STATUS_TYPE_START, "495555", null, 8);
        h.send(nas, RadiusHarness.encode(start, RadiusHarness.NAS_SECRET), h.vacct);
        RadiusPacket resp = h.receive(nas, start);
        assertThat(resp.getPacketType()).isEqualTo(RadiusPacket.ACCOUNTING_RESPONSE);
        String aaa = aaaOf(h.acct, before);
        FakeAaa real = h.acct.get("ACCT" + aaa);
        FakeAaa.Seen got = real.seen().get(real.count() - 1); // decoded: the authenticator verified
        byte[] wanted = new byte[6 + 2 + 21];
        wanted[0] = 26;
        wanted[1] = (byte) wanted.length;
        wanted[5] = 9;
        wanted[6] = 1;
        wanted[7] = 23;
        System.arraycopy("correlation-id=abc123".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, wanted, 8, 21);
        assertThat(java.util.HexFormat.of().formatHex(got.wire())).contains(java.util.HexFormat.of().formatHex(wanted));
        assertThat(got.packet().getAttribute(26)).isNotNull();
        assertThat(real.undecodable()).isEmpty();
    }

    @Test
    void localAckKeyIsTheSecretOfNasesWithoutAClientLine() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", " radius acct local-ack key 0 ack-secret\n")
                .replace("client 127.0.0.0 255.0.0.0", "client 127.0.0.1 255.255.255.255"));
        try (DatagramSocket other = new DatagramSocket(new java.net.InetSocketAddress("127.0.0.2", 0))) {
            other.setSoTimeout(3000);
            AccountingRequest start = accounting("ivy", AccountingRequest.ACCT_STATUS_TYPE_START, "497", "10.7.0.9", 12);
            h.send(other, RadiusHarness.encode(start, "ack-secret"), h.vacct);
            byte[] raw = h.receiveRaw(other);
            RadiusPacket resp = RadiusPacket.decodeResponsePacket(Dictionaries.standard(),
                    new java.io.ByteArrayInputStream(raw), "ack-secret", start);
            assertThat(resp.getPacketType()).isEqualTo(RadiusPacket.ACCOUNTING_RESPONSE);
        }
        DatagramSocket nas = h.nas(); // a listed NAS keeps its own secret
        AccountingRequest start = accounting("jo", AccountingRequest.ACCT_STATUS_TYPE_START, "498", "10.7.0.8", 13);
        h.send(nas, RadiusHarness.encode(start, RadiusHarness.NAS_SECRET), h.vacct);
        assertThat(h.receive(nas, start).getPacketType()).isEqualTo(RadiusPacket.ACCOUNTING_RESPONSE);
    }

    @Test
    void usernameStickyPrefersThe3gppImsiAndSharesTheGroup() throws Exception {
        String cfg = RadiusHarness.issueConfig("", "", "")
                .replace("sticky radius calling-station-id group 2", "sticky radius username group 3");
        h = new RadiusHarness(dataDir, cfg);
        DatagramSocket nas = h.nas();
        for (int s = 0; s < 12; s++) {
            var before = RadiusHarness.counts(h.auth);
            AccessRequest ar = access("apn-user", "pw", "none", 20 + s);
            VendorSpecificAttribute vsa = new VendorSpecificAttribute(10415);
            vsa.setDictionary(Dictionaries.standard());
            vsa.addSubAttribute("3GPP-IMSI", "2620100000000" + (10 + s));
            ar.addAttribute(vsa);
            h.send(nas, RadiusHarness.encode(ar, RadiusHarness.NAS_SECRET), h.vauth);
            h.receive(nas, ar);
            String authAaa = aaaOf(h.auth, before);
            var beforeAcct = RadiusHarness.counts(h.acct);
            AccountingRequest start = accounting("apn-user", AccountingRequest.ACCT_STATUS_TYPE_START, null, null, 60 + s);
            VendorSpecificAttribute vsa2 = new VendorSpecificAttribute(10415);
            vsa2.setDictionary(Dictionaries.standard());
            vsa2.addSubAttribute("3GPP-IMSI", "2620100000000" + (10 + s));
            start.addAttribute(vsa2);
            h.send(nas, RadiusHarness.encode(start, RadiusHarness.NAS_SECRET), h.vacct);
            h.receive(nas, start);
            assertThat(aaaOf(h.acct, beforeAcct)).isEqualTo(authAaa);
        }
        assertThat(h.auth.values().stream().filter(a -> a.count() > 0).count())
                .as("one shared User-Name, yet spread by IMSI").isGreaterThan(1);
    }

    @Test
    void messageAuthenticatorIsVerifiedFromTheNasAndRecomputedForTheReal() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", ""));
        DatagramSocket nas = h.nas();
        AccessRequest bad = access("kim", "pw", "4999", 40);
        bad.addAttribute(new org.tinyradius.attribute.RadiusAttribute(80, new byte[16]));
        byte[] badWire = RadiusHarness.encode(bad, RadiusHarness.NAS_SECRET);
        signMa(badWire, "wrong");
        h.send(nas, badWire, h.vauth);
        await().atMost(WAIT).until(() -> h.drops("RADIUS-AUTH", "radius_bad_message_authenticator") == 1);

        var before = RadiusHarness.counts(h.auth);
        AccessRequest ok = access("kim", "pw", "4999", 41);
        ok.addAttribute(new org.tinyradius.attribute.RadiusAttribute(80, new byte[16]));
        byte[] wire = RadiusHarness.encode(ok, RadiusHarness.NAS_SECRET);
        signMa(wire, RadiusHarness.NAS_SECRET);
        h.send(nas, wire, h.vauth);
        h.receive(nas, ok);
        FakeAaa aaa = h.auth.get("AUTH" + aaaOf(h.auth, before));
        byte[] upstream = aaa.seen().get(aaa.count() - 1).wire().clone();
        int at = maIndex(upstream);
        byte[] ma = java.util.Arrays.copyOfRange(upstream, at, at + 16);
        signMa(upstream, RadiusHarness.AAA_SECRET);
        assertThat(java.util.Arrays.copyOfRange(upstream, at, at + 16)).isEqualTo(ma);
        assertThat(aaa.seen().get(aaa.count() - 1).password()).isEqualTo("pw");
    }

    /** Computes the Message-Authenticator in place with javax HmacMD5 (independent of the codec). */
    static void signMa(byte[] wire, String secret) throws Exception {
        int at = maIndex(wire);
        java.util.Arrays.fill(wire, at, at + 16, (byte) 0);
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacMD5");
        mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                "HmacMD5"));
        System.arraycopy(mac.doFinal(wire), 0, wire, at, 16);
    }

    static int maIndex(byte[] wire) {
        for (int i = 20; i < wire.length; i += wire[i + 1] & 0xff) {
            if ((wire[i] & 0xff) == 80) {
                return i + 2;
            }
        }
        throw new AssertionError("no Message-Authenticator");
    }

    @Test
    void aReloadChangesTheNasSecret() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", ""));
        String text = h.text.replace("key 0 nas-secret", "key 0 new-nas-secret");
        h.runtime.reload(io.mclb.config.ConfigParser.parse("test.cfg", text, dataDir, io.mclb.service.Modules.of(h.factory).grammar()));
        DatagramSocket nas = h.nas();
        AccountingRequest old = accounting("lea", AccountingRequest.ACCT_STATUS_TYPE_START, "4911", null, 70);
        h.send(nas, RadiusHarness.encode(old, RadiusHarness.NAS_SECRET), h.vacct);
        await().atMost(WAIT).until(() -> h.drops("RADIUS-ACCT", "radius_bad_authenticator") == 1);
        AccountingRequest fresh = accounting("lea", AccountingRequest.ACCT_STATUS_TYPE_START, "4911", null, 71);
        h.send(nas, RadiusHarness.encode(fresh, "new-nas-secret"), h.vacct);
        byte[] raw = h.receiveRaw(nas);
        RadiusPacket resp = RadiusPacket.decodeResponsePacket(Dictionaries.standard(),
                new java.io.ByteArrayInputStream(raw), "new-nas-secret", fresh);
        assertThat(resp.getPacketIdentifier()).isEqualTo(71);
    }

    @Test
    void localAckAnswersAccountingItselfAndStillLearnsTheFramedIp() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", " radius acct local-ack key 0 nas-secret\n"));
        DatagramSocket nas = h.nas();
        AccountingRequest start = accounting("frank", AccountingRequest.ACCT_STATUS_TYPE_START, "496666", "10.7.0.1", 11);
        h.send(nas, RadiusHarness.encode(start, RadiusHarness.NAS_SECRET), h.vacct);
        RadiusPacket resp = h.receive(nas, start);
        assertThat(resp.getPacketType()).isEqualTo(RadiusPacket.ACCOUNTING_RESPONSE);
        assertThat(resp.getPacketIdentifier()).isEqualTo(11);
        assertThat(h.framedIpEntry("10.7.0.1")).isNotNull();
        h.acct.values().forEach(a -> assertThat(a.count()).isZero());
    }
}
