package io.mclb.radius.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.mclb.config.ConfigException;
import io.mclb.config.ConfigParser;
import io.mclb.service.Modules;
import java.net.DatagramSocket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tinyradius.packet.AccessRequest;
import org.tinyradius.packet.AccountingRequest;
import org.tinyradius.packet.RadiusPacket;

/**
 * {@code radius require message-authenticator [client|server]}, the BlastRADIUS (CVE-2024-3596)
 * defence of a proxy: an Access-Request or an answer to one that carries no Message-Authenticator
 * proves nothing about the secret, and its Response Authenticator (MD5) can be forged by a
 * chosen-prefix collision; the HMAC-MD5 of a Message-Authenticator cannot. Every
 * Message-Authenticator here is written and checked with the JDK's HMAC ({@link MessageAuthenticators}).
 */
class RadiusMessageAuthenticatorTest extends RadiusHarnessTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    private static AccessRequest access(String user, int id) {
        return RadiusProxyTest.access(user, "pw-" + user, "4917" + id, id);
    }

    @Test
    void fromClientsAnAccessRequestWithoutOneIsDroppedAndOneWithItIsAnswered() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", " radius require message-authenticator client\n", ""));
        DatagramSocket nas = h.nas();
        AccessRequest unsigned = access("u1", 1);
        h.send(nas, RadiusHarness.encode(unsigned, RadiusHarness.NAS_SECRET), h.vauth);
        await().atMost(WAIT).until(() -> h.drops("RADIUS-AUTH", "radius_missing_message_authenticator") == 1);
        assertThat(RadiusHarness.fakes(h.auth, true)).as("nothing forwarded").isZero();

        AccessRequest signed = access("u2", 2);
        h.send(nas, MessageAuthenticators.signRequest(RadiusHarness.encode(signed, RadiusHarness.NAS_SECRET),
                RadiusHarness.NAS_SECRET), h.vauth);
        assertThat(h.receive(nas, signed).getPacketType()).isEqualTo(RadiusPacket.ACCESS_ACCEPT);
        FakeAaa.Seen seen = h.auth.values().stream().filter(a -> a.count() == 1).findFirst().orElseThrow().seen().get(0);
        assertThat(MessageAuthenticators.verifies(seen.wire(), null, RadiusHarness.AAA_SECRET))
                .as("re-signed with the AAA's secret").isTrue();

        // accounting proves its secret by its authenticator: the requirement is the Access-Request's
        AccountingRequest start = RadiusProxyTest.accounting("u2", AccountingRequest.ACCT_STATUS_TYPE_START, "49172",
                "10.9.0.2", 3);
        h.send(nas, RadiusHarness.encode(start, RadiusHarness.NAS_SECRET), h.vacct);
        assertThat(h.receive(nas, start).getPacketType()).isEqualTo(RadiusPacket.ACCOUNTING_RESPONSE);
        assertThat(h.drops("RADIUS-AUTH", "radius_missing_message_authenticator")).isEqualTo(1);
    }

    @Test
    void fromServersMclbSignsWhatItSendsAndDropsAnAnswerThatIsNotSigned() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", " radius require message-authenticator server\n", ""));
        DatagramSocket nas = h.nas();
        nas.setSoTimeout(1000);
        AccessRequest first = access("u1", 1);
        byte[] fromNas = RadiusHarness.encode(first, RadiusHarness.NAS_SECRET);
        assertThat(MessageAuthenticators.find(fromNas)).as("the NAS sends none").isNegative();
        h.send(nas, fromNas, h.vauth);
        assertThatThrownBy(() -> h.receiveRaw(nas)).as("an unsigned answer never reaches the NAS")
                .isInstanceOf(SocketTimeoutException.class);
        assertThat(h.drops("RADIUS-AUTH", "radius_response_missing_message_authenticator")).isEqualTo(1);
        FakeAaa aaa = h.auth.values().stream().filter(a -> a.count() == 1).findFirst().orElseThrow();
        byte[] upstream = aaa.seen().get(0).wire();
        assertThat(upstream.length).isEqualTo(fromNas.length + 18);
        assertThat(MessageAuthenticators.verifies(upstream, null, RadiusHarness.AAA_SECRET))
                .as("mclb added one, signed with the AAA's secret").isTrue();
        assertThat(aaa.seen().get(0).password()).as("the request is otherwise intact").isEqualTo("pw-u1");

        h.auth.values().forEach(a -> a.signAnswers = true);
        AccessRequest second = access("u1", 2); // the same subscriber: the same AAA
        h.send(nas, RadiusHarness.encode(second, RadiusHarness.NAS_SECRET), h.vauth);
        byte[] answer = h.receiveRaw(nas);
        assertThat(RadiusHarness.decodeAnswer(answer, second).getPacketType()).isEqualTo(RadiusPacket.ACCESS_ACCEPT);
        assertThat(MessageAuthenticators.verifies(answer, second.getAuthenticator(), RadiusHarness.NAS_SECRET))
                .as("the AAA's Message-Authenticator, re-signed for the NAS").isTrue();
        assertThat(h.drops("RADIUS-AUTH", "radius_response_missing_message_authenticator")).isEqualTo(1);
    }

    @Test
    void aSignedAccessRequestIsAnsweredSignedWhenTheAaaLeftItOut() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", ""));
        DatagramSocket nas = h.nas();
        AccessRequest r = access("u1", 1);
        h.send(nas, MessageAuthenticators.signRequest(RadiusHarness.encode(r, RadiusHarness.NAS_SECRET),
                RadiusHarness.NAS_SECRET), h.vauth);
        byte[] answer = h.receiveRaw(nas);
        assertThat(RadiusHarness.decodeAnswer(answer, r).getPacketType()).isEqualTo(RadiusPacket.ACCESS_ACCEPT);
        FakeAaa aaa = h.auth.values().stream().filter(a -> a.count() == 1).findFirst().orElseThrow();
        assertThat(aaa.signAnswers).as("the AAA answers unsigned").isFalse();
        assertThat(MessageAuthenticators.verifies(answer, r.getAuthenticator(), RadiusHarness.NAS_SECRET))
                .as("mclb signed the answer for the NAS that signed its request").isTrue();

        // a NAS that does not sign gets what it always got: the AAA's answer, re-signed, no more
        AccessRequest plain = access("u2", 2);
        h.send(nas, RadiusHarness.encode(plain, RadiusHarness.NAS_SECRET), h.vauth);
        byte[] plainAnswer = h.receiveRaw(nas);
        assertThat(RadiusHarness.decodeAnswer(plainAnswer, plain).getPacketType()).isEqualTo(RadiusPacket.ACCESS_ACCEPT);
        assertThat(MessageAuthenticators.find(plainAnswer)).isNegative();
    }

    @Test
    void withoutTheLineNothingChanges() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", ""));
        DatagramSocket nas = h.nas();
        AccessRequest r = access("u1", 1);
        byte[] fromNas = RadiusHarness.encode(r, RadiusHarness.NAS_SECRET);
        h.send(nas, fromNas, h.vauth);
        assertThat(h.receive(nas, r).getPacketType()).isEqualTo(RadiusPacket.ACCESS_ACCEPT);
        byte[] upstream = h.auth.values().stream().filter(a -> a.count() == 1).findFirst().orElseThrow().seen().get(0).wire();
        assertThat(upstream.length).isEqualTo(fromNas.length);
        assertThat(MessageAuthenticators.find(upstream)).isNegative();
    }

    private List<String> errors(String text) {
        try {
            ConfigParser.parse("test.cfg", text.replace("DATA", dataDir.toString()), dataDir,
                    Modules.of(new RadiusServiceModule()).grammar());
            return List.of();
        } catch (ConfigException e) {
            return e.errors().stream().map(Object::toString).toList();
        }
    }

    @Test
    void theLineSaysWhatItTakesAndIsRefusedWhereMclbHoldsNoSecret() {
        assertThat(errors(RadiusHarness.issueConfig("", " radius require message-authenticator nas\n", "")
                .replace("VAUTH", "1812").replace("VACCT", "1813").replaceAll("AUTH\\d|ACCT\\d", "1812")))
                .singleElement().asString()
                .contains("radius require message-authenticator: expected nothing more, 'client' or 'server'");
        String passThrough = String.join("\n", "mclb data-dir /tmp/x",
                "ip slb serverfarm AAA", " real 127.0.0.5 1812", "  inservice",
                "ip slb vserver R", " virtual 127.0.0.100 udp 1812 service radius", " serverfarm AAA",
                " radius require message-authenticator", " inservice", "");
        assertThat(errors(passThrough)).anySatisfy(e -> assertThat(e).startsWith("test.cfg:8: ")
                .contains("vserver R is pass-through (mclb holds no secret for it), so it cannot verify"));
    }
}
