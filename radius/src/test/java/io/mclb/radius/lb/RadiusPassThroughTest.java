package io.mclb.radius.lb;

import org.junit.jupiter.api.Test;
import org.tinyradius.packet.AccessRequest;
import org.tinyradius.packet.AccountingRequest;
import org.tinyradius.packet.RadiusPacket;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Pass-through virtual servers (no {@code mclb radius client} line, no {@code mclb radius key}):
 * the AAAs share the NAS's secret, requests and answers cross mclb byte for byte, and what needs
 * no secret (sticky keys, framed-IP learning, the Accounting-On/Off purge) still works.
 */
class RadiusPassThroughTest extends RadiusHarnessTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final String SECRET = RadiusHarness.NAS_SECRET;

    /** The issue configuration without client lines and real keys: both virtual servers pass-through. */
    static String passThroughConfig(String extraAuth, String extraAcct) {
        String c = RadiusHarness.issueConfig("", extraAuth, extraAcct)
                .replace("mclb radius client 127.0.0.0 255.0.0.0 key 0 nas-secret\n", "")
                .replace("  mclb radius key 0 aaa-secret\n", "");
        assertThat(c).doesNotContain("key");
        return c;
    }

    private void start(String config) throws Exception {
        h = new RadiusHarness(dataDir, config, SECRET); // the AAAs know the NASes' secret, as behind IOS SLB
    }

    /** A response to {@code request} signed with the NAS's secret, as an AAA sends it. */
    static byte[] answer(byte[] request, int code, byte[]... attributes) {
        List<byte[]> parts = new ArrayList<>();
        parts.add(new byte[] {(byte) code, request[1], 0, 0});
        parts.add(new byte[16]);
        parts.addAll(Arrays.asList(attributes));
        byte[] w = RadiusWire.concat(parts);
        w[2] = (byte) (w.length >>> 8);
        w[3] = (byte) w.length;
        RadiusWire.signResponse(w, request[0] & 0xff, Arrays.copyOfRange(request, 4, 20), SECRET);
        return w;
    }

    private static byte[] framedIp(String ip) throws Exception {
        return RadiusWire.attr(8, InetAddress.getByName(ip).getAddress());
    }

    /** Answers every request correctly, remembering what it received and sent. */
    private static final class Recorder implements FakeAaa.Responder {
        final List<byte[]> received = new CopyOnWriteArrayList<>();
        final List<byte[]> sent = new CopyOnWriteArrayList<>();
        volatile byte[][] attributes = new byte[0][];

        @Override
        public List<byte[]> answer(byte[] request, String secret) {
            received.add(request);
            int code = request[0] & 0xff;
            byte[] a = RadiusPassThroughTest.answer(request, code == 4 ? 5 : 2, code == 1 ? attributes : new byte[0][]);
            sent.add(a);
            return List.of(a);
        }
    }

    /** Nothing (more) came back: the answer was dropped, or there was none (short bounded wait). */
    private void assertNoAnswer(DatagramSocket nas) throws Exception {
        int t = nas.getSoTimeout();
        nas.setSoTimeout(500);
        try {
            assertThatThrownBy(() -> h.receiveRaw(nas)).isInstanceOf(SocketTimeoutException.class);
        } finally {
            nas.setSoTimeout(t);
        }
    }

    private Recorder record(Map<String, FakeAaa> fakes) {
        Recorder r = new Recorder();
        fakes.values().forEach(f -> f.responder = r);
        return r;
    }

    @Test
    void requestsAndAnswersCrossMclbByteForByte() throws Exception {
        start(passThroughConfig("", ""));
        Recorder auth = record(h.auth);
        Recorder acct = record(h.acct);
        auth.attributes = new byte[][] {framedIp("10.1.0.9"), RadiusWire.attr(18, "welcome".getBytes())};
        DatagramSocket nas = h.nas();

        AccessRequest ar = RadiusProxyTest.access("alice", "alice-pw-longer-than-16", "491700001", 77);
        byte[] request = RadiusHarness.encode(ar, SECRET);
        h.send(nas, request, h.vauth);
        byte[] got = h.receiveRaw(nas);
        assertThat(auth.received).hasSize(1);
        assertThat(auth.received.get(0)).as("the Access-Request the AAA received").isEqualTo(request);
        assertThat(got).as("the Access-Accept the NAS received").isEqualTo(auth.sent.get(0));
        assertThat(RadiusHarness.decodeAnswer(got, ar).getPacketType()).isEqualTo(RadiusPacket.ACCESS_ACCEPT);

        AccountingRequest start = RadiusProxyTest.accounting("alice", AccountingRequest.ACCT_STATUS_TYPE_START,
                "491700001", "10.1.0.9", 78);
        byte[] accounting = RadiusHarness.encode(start, SECRET);
        h.send(nas, accounting, h.vacct);
        byte[] response = h.receiveRaw(nas);
        assertThat(acct.received.get(0)).as("the Accounting-Request the AAA received").isEqualTo(accounting);
        assertThat(response).as("the Accounting-Response the NAS received").isEqualTo(acct.sent.get(0));
        assertThat(h.counter(RadiusInspector.UNVERIFIED, "RADIUS-AUTH", "direction", "request")).isEqualTo(1);
        assertThat(h.counter(RadiusInspector.UNVERIFIED, "RADIUS-ACCT", "direction", "response")).isEqualTo(1);
    }

    @Test
    void stickyKeysFramedIpLearningAndThePurgeStillWork() throws Exception {
        start(passThroughConfig("", ""));
        h.auth.values().forEach(a -> a.framedIp = "10.1.0.3");
        DatagramSocket nas = h.nas();
        String csid = "491700003";
        var before = RadiusHarness.counts(h.auth);
        AccessRequest ar = RadiusProxyTest.access("bob", "bob-pw", csid, 3);
        h.send(nas, RadiusHarness.encode(ar, SECRET), h.vauth);
        assertThat(h.receive(nas, ar).getPacketType()).isEqualTo(RadiusPacket.ACCESS_ACCEPT);
        String aaa = RadiusHarness.grew(h.auth, before).substring(4);
        assertThat(h.callingStationEntry(csid).address().getHostAddress()).isEqualTo("127.0.0." + aaa);
        assertThat(h.framedIpEntry("10.1.0.3").address().getHostAddress()).as("learned from the Access-Accept")
                .isEqualTo("127.0.0." + aaa);

        // accounting follows the subscriber to the same AAA address, and is verified there with the NAS's secret
        for (int i = 0; i < 4; i++) {
            var acctBefore = RadiusHarness.counts(h.acct);
            AccountingRequest interim = RadiusProxyTest.accounting("bob",
                    AccountingRequest.ACCT_STATUS_TYPE_INTERIM_UPDATE, csid, "10.1.0.3", 10 + i);
            h.send(nas, RadiusHarness.encode(interim, SECRET), h.vacct);
            assertThat(h.receive(nas, interim).getPacketType()).isEqualTo(RadiusPacket.ACCOUNTING_RESPONSE);
            assertThat(RadiusHarness.grew(h.acct, acctBefore)).isEqualTo("ACCT" + aaa);
        }
        h.acct.values().forEach(a -> assertThat(a.undecodable()).isEmpty());

        // an Accounting-On purges the NAS's framed-IP entries once an AAA answered it, not before
        h.acct.values().forEach(a -> a.mode = FakeAaa.Mode.SILENT);
        AccountingRequest on = RadiusProxyTest.accounting("nas", 7, null, null, 40);
        byte[] onWire = RadiusHarness.encode(on, SECRET);
        h.send(nas, onWire, h.vacct);
        await().atMost(WAIT).until(() -> h.acct.values().stream().mapToInt(FakeAaa::count).sum() == 1 + 4);
        assertNoAnswer(nas);
        assertThat(h.framedIpEntry("10.1.0.3")).as("an unanswered, unverified Accounting-On purges nothing").isNotNull();
        h.acct.values().forEach(a -> a.mode = FakeAaa.Mode.ANSWER);
        h.send(nas, onWire, h.vacct); // the NAS retransmits: same AAA, now it answers
        assertThat(h.receive(nas, on).getPacketType()).isEqualTo(RadiusPacket.ACCOUNTING_RESPONSE);
        await().atMost(WAIT).until(() -> h.framedIpEntry("10.1.0.3") == null);
    }

    @Test
    void aStopEndsItsFramedIpEntryOnceAnswered() throws Exception {
        start(passThroughConfig("", ""));
        DatagramSocket nas = h.nas();
        AccountingRequest start = RadiusProxyTest.accounting("carol", AccountingRequest.ACCT_STATUS_TYPE_START,
                "491700004", "10.1.0.4", 1);
        h.send(nas, RadiusHarness.encode(start, SECRET), h.vacct);
        assertThat(h.receive(nas, start).getPacketType()).isEqualTo(RadiusPacket.ACCOUNTING_RESPONSE);
        assertThat(h.framedIpEntry("10.1.0.4")).as("learned from the answered Start").isNotNull();
        AccountingRequest stop = RadiusProxyTest.accounting("carol", AccountingRequest.ACCT_STATUS_TYPE_STOP,
                "491700004", "10.1.0.4", 2);
        h.send(nas, RadiusHarness.encode(stop, SECRET), h.vacct);
        assertThat(h.receive(nas, stop).getPacketType()).isEqualTo(RadiusPacket.ACCOUNTING_RESPONSE);
        assertThat(h.framedIpEntry("10.1.0.4")).isNull();
    }

    @Test
    void aRetransmissionReachesTheSameAaaUnchanged() throws Exception {
        start(passThroughConfig("", ""));
        h.auth.values().forEach(a -> a.mode = FakeAaa.Mode.SILENT);
        DatagramSocket nas = h.nas();
        AccessRequest ar = RadiusProxyTest.access("dave", "dave-pw", "491700005", 9);
        byte[] wire = RadiusHarness.encode(ar, SECRET);
        h.send(nas, wire, h.vauth);
        await().atMost(WAIT).until(() -> h.auth.values().stream().mapToInt(FakeAaa::count).sum() == 1);
        h.send(nas, wire, h.vauth);
        await().atMost(WAIT).until(() -> h.auth.values().stream().mapToInt(FakeAaa::count).sum() == 2);
        FakeAaa aaa = h.auth.values().stream().filter(a -> a.count() > 0).findFirst().orElseThrow();
        assertThat(aaa.count()).as("both sends at one AAA").isEqualTo(2);
        assertThat(aaa.seen().get(0).wire()).isEqualTo(wire);
        assertThat(aaa.seen().get(1).wire()).isEqualTo(wire);
        assertThat(aaa.seen().get(1).from()).as("same path: the AAA's duplicate detection sees a duplicate")
                .isEqualTo(aaa.seen().get(0).from());
    }

    /**
     * Two NASes send the same Identifier to one AAA at once (the same Calling-Station-Id keeps
     * them together): the second goes out on another upstream socket, so the AAA tells them apart
     * and each answer reaches the NAS it belongs to (TinyRadius verifies it against that NAS's request).
     */
    @Test
    void twoNasesUsingOneIdentifierAtOnceAreBothAnswered() throws Exception {
        start(passThroughConfig("", ""));
        List<byte[]> held = new CopyOnWriteArrayList<>();
        List<InetSocketAddress> from = new CopyOnWriteArrayList<>();
        for (FakeAaa a : h.auth.values()) {
            a.responder = (request, secret) -> {
                held.add(request);
                from.add(a.sender());
                if (held.size() == 2) { // both in flight: now answer each to where it came from
                    a.sendTo(answer(held.get(0), 2, RadiusWire.attr(18, "first".getBytes())), from.get(0));
                    a.sendTo(answer(held.get(1), 2, RadiusWire.attr(18, "second".getBytes())), from.get(1));
                }
                return List.of();
            };
        }
        DatagramSocket nas1 = h.nas();
        DatagramSocket nas2 = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
        try {
            nas2.setSoTimeout(3000);
            AccessRequest r1 = RadiusProxyTest.access("erin", "pw-1", "491700006", 200);
            AccessRequest r2 = RadiusProxyTest.access("erin", "pw-2", "491700006", 200);
            h.send(nas1, RadiusHarness.encode(r1, SECRET), h.vauth);
            await().atMost(WAIT).until(() -> held.size() == 1);
            h.send(nas2, RadiusHarness.encode(r2, SECRET), h.vauth);
            RadiusPacket a1 = h.receive(nas1, r1);
            RadiusPacket a2 = h.receive(nas2, r2);
            assertThat(a1.getAttributeValue("Reply-Message")).isEqualTo("first");
            assertThat(a2.getAttributeValue("Reply-Message")).isEqualTo("second");
            assertThat(from.get(0)).as("two paths to the AAA").isNotEqualTo(from.get(1));
            assertThat(held.get(0)[1]).isEqualTo(held.get(1)[1]).isEqualTo((byte) 200);
        } finally {
            nas2.close();
        }
    }

    @Test
    void statusServerIsForwardedAndAWrongAnswerCodeIsDropped() throws Exception {
        start(passThroughConfig("", ""));
        Recorder auth = record(h.auth);
        DatagramSocket nas = h.nas();
        byte[] ss = RadiusWire.concat(List.of(new byte[] {12, 5, 0, 38}, "0123456789abcdef".getBytes(),
                RadiusWire.attr(80, new byte[16])));
        RadiusWire.signRequest(ss, SECRET);
        h.send(nas, ss, h.vauth);
        byte[] got = h.receiveRaw(nas);
        assertThat(auth.received.get(0)).isEqualTo(ss);
        assertThat(got).as("the AAA's own answer, not mclb's").isEqualTo(auth.sent.get(0));

        for (FakeAaa a : h.auth.values()) {
            a.responder = (request, secret) -> List.of(answer(request, 5)); // Accounting-Response to an Access-Request
        }
        AccessRequest ar = RadiusProxyTest.access("frank", "pw", "491700007", 6);
        h.send(nas, RadiusHarness.encode(ar, SECRET), h.vauth);
        await().atMost(WAIT).until(() -> h.drops("RADIUS-AUTH", "radius_response_code_mismatch") == 1);
        assertNoAnswer(nas);
    }
}
