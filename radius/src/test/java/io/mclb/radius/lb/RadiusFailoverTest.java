package io.mclb.radius.lb;

import io.mclb.farm.RealState;
import org.junit.jupiter.api.Test;
import org.tinyradius.packet.AccessRequest;
import org.tinyradius.packet.AccountingRequest;
import org.tinyradius.packet.RadiusPacket;

import java.net.DatagramSocket;
import java.time.Duration;
import java.util.Arrays;

import static io.mclb.radius.lb.RadiusProxyTest.access;
import static io.mclb.radius.lb.RadiusProxyTest.accounting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Retransmissions keep real and upstream identifier; a silent AAA fails and its subscribers move. */
class RadiusFailoverTest extends RadiusHarnessTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    private String only(java.util.Map<String, FakeAaa> fakes) {
        return fakes.entrySet().stream().filter(e -> e.getValue().count() > 0).map(java.util.Map.Entry::getKey)
                .reduce((a, b) -> a + "," + b).orElse("");
    }

    @Test
    void aRetransmissionGoesToTheSameRealWithTheSameIdentifierAndAuthenticator() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", "").replace("reassign 2", "reassign 4"));
        h.auth.values().forEach(a -> a.mode = FakeAaa.Mode.SILENT);
        DatagramSocket nas = h.nas();
        AccessRequest ar = access("gina", "secret-pw", "497777", 33);
        byte[] wire = RadiusHarness.encode(ar, RadiusHarness.NAS_SECRET);
        h.send(nas, wire, h.vauth);
        await().atMost(WAIT).until(() -> !only(h.auth).isEmpty());
        String first = only(h.auth);
        h.send(nas, wire, h.vauth);
        h.send(nas, wire, h.vauth);
        FakeAaa aaa = h.auth.get(first);
        await().atMost(WAIT).until(() -> aaa.count() == 3);
        assertThat(only(h.auth)).isEqualTo(first);
        var seen = aaa.seen();
        for (FakeAaa.Seen s : seen) {
            assertThat(s.id()).isEqualTo(seen.get(0).id());
            assertThat(s.from()).isEqualTo(seen.get(0).from());
            assertThat(Arrays.equals(s.authenticator(), seen.get(0).authenticator())).isTrue();
            assertThat(s.password()).isEqualTo("secret-pw");
        }
        aaa.mode = FakeAaa.Mode.ANSWER;
        h.send(nas, wire, h.vauth);
        RadiusPacket accept = h.receive(nas, ar);
        assertThat(accept.getPacketIdentifier()).isEqualTo(33);
    }

    @Test
    void anAaaThatStopsAnsweringFailsAndItsSubscribersMove() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", "")
                .replace("reassign 2", "reassign 2\n  faildetect numconns 1"));
        DatagramSocket nas = h.nas();
        AccessRequest ar = access("hank", "pw", "498888", 1);
        h.send(nas, RadiusHarness.encode(ar, RadiusHarness.NAS_SECRET), h.vauth);
        h.receive(nas, ar);
        String first = only(h.auth);
        FakeAaa silent = h.auth.get(first);
        silent.mode = FakeAaa.Mode.SILENT;
        String address = "127.0.0." + first.substring(4);

        AccessRequest again = access("hank", "pw", "498888", 2);
        byte[] wire = RadiusHarness.encode(again, RadiusHarness.NAS_SECRET);
        h.send(nas, wire, h.vauth);
        await().atMost(WAIT).until(() -> silent.count() == 2);
        h.send(nas, wire, h.vauth); // retransmission 1 of reassign 2: same real
        await().atMost(WAIT).until(() -> silent.count() == 3);
        h.send(nas, wire, h.vauth); // retransmission 2: the real is charged and the request moves
        RadiusPacket accept = h.receive(nas, again);
        assertThat(accept.getPacketType()).isEqualTo(RadiusPacket.ACCESS_ACCEPT);
        assertThat(h.real("AAA-FARM", address).state()).isEqualTo(RealState.FAILED);
        assertThat(h.callingStationEntry("498888").address().getHostAddress()).isNotEqualTo(address);
        String moved = h.callingStationEntry("498888").address().getHostAddress();

        var before = RadiusHarness.counts(h.acct);
        AccountingRequest start = accounting("hank", AccountingRequest.ACCT_STATUS_TYPE_START, "498888", null, 3);
        h.send(nas, RadiusHarness.encode(start, RadiusHarness.NAS_SECRET), h.vacct);
        h.receive(nas, start);
        String acctAaa = RadiusHarness.grew(h.acct, before);
        assertThat("127.0.0." + acctAaa.substring(4)).isEqualTo(moved);
    }
}
