package io.mclb.perf.radius.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mclb.radius.codec.Dictionaries;
import io.mclb.radius.codec.RadiusSecret;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tinyradius.attribute.RadiusAttribute;
import org.tinyradius.packet.AccessRequest;
import org.tinyradius.packet.AccountingRequest;
import org.tinyradius.packet.RadiusPacket;
import org.tinyradius.util.RadiusException;

/** The simulator's answers checked by TinyRadius (the independent implementation) and javax HMAC-MD5. */
class AaaSimulatorTest {
    private static final String SECRET = "aaa-secret";
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private AaaSimulator sim;
    private DatagramSocket nas;

    @AfterEach
    void tearDown() {
        if (nas != null) {
            nas.close();
        }
        if (sim != null) {
            sim.close();
        }
    }

    private void start(AaaSimulator.Builder b) throws Exception {
        sim = b.listenAuth(new InetSocketAddress(LOOPBACK, 0)).listenAcct(new InetSocketAddress(LOOPBACK, 0))
                .secret(RadiusSecret.ofString(SECRET)).start();
        nas = new DatagramSocket(0, LOOPBACK);
        nas.setSoTimeout(5_000);
    }

    @Test
    void accessRequestGetsSignedAcceptWithFramedIpFromThePool() throws Exception {
        start(AaaSimulator.builder().password("pw-123").framedPool("10.99.0.0/30"));
        for (int i = 0; i < 5; i++) {
            AccessRequest r = access(i, "pw-123");
            RadiusPacket answer = exchange(r, sim.authAddresses().get(0), SECRET);
            assertThat(answer.getPacketType()).isEqualTo(RadiusPacket.ACCESS_ACCEPT);
            assertThat(answer.getPacketIdentifier()).isEqualTo(i);
            assertThat(answer.getAttributeValue("Framed-IP-Address")).isEqualTo("10.99.0." + (i % 4));
        }
        assertThat(sim.received(RadiusPacket.ACCESS_REQUEST)).isEqualTo(5);
        assertThat(sim.sent(RadiusPacket.ACCESS_ACCEPT)).isEqualTo(5);
        assertThat(sim.badPasswords()).isZero();
    }

    /** RFC 2865 5.8: a Framed-IP-Address in the Access-Request is the NAS's hint; the simulator grants it and leaves the pool alone. */
    @Test
    void aFramedIpHintIsGrantedAndTheSelectionValuesAreNot() throws Exception {
        start(AaaSimulator.builder().password("pw-123").framedPool("10.99.0.0/30"));
        String[][] cases = {{"10.64.1.7", "10.64.1.7"}, {"255.255.255.255", "10.99.0.0"}, {"255.255.255.254", "10.99.0.1"},
            {"10.64.1.8", "10.64.1.8"}, {null, "10.99.0.2"}};
        int id = 0;
        for (String[] c : cases) {
            AccessRequest r = access(id++, "pw-123");
            if (c[0] != null) {
                r.addAttribute("Framed-IP-Address", c[0]);
            }
            RadiusPacket answer = exchange(r, sim.authAddresses().get(0), SECRET);
            assertThat(answer.getPacketType()).isEqualTo(RadiusPacket.ACCESS_ACCEPT);
            assertThat(answer.getAttributeValue("Framed-IP-Address")).as("hint %s", c[0]).isEqualTo(c[1]);
        }
    }

    @Test
    void wrongPasswordAndRejectShareGetSignedRejects() throws Exception {
        start(AaaSimulator.builder().password("pw-123"));
        RadiusPacket answer = exchange(access(1, "wrong"), sim.authAddresses().get(0), SECRET);
        assertThat(answer.getPacketType()).isEqualTo(RadiusPacket.ACCESS_REJECT);
        assertThat(answer.getAttribute(8)).isNull();
        assertThat(sim.badPasswords()).isEqualTo(1);
        sim.close();
        nas.close();
        start(AaaSimulator.builder().rejectPercent(100));
        assertThat(exchange(access(2, "any"), sim.authAddresses().get(0), SECRET).getPacketType())
                .isEqualTo(RadiusPacket.ACCESS_REJECT);
    }

    @Test
    void messageAuthenticatorIsVerifiedAndAnsweredInKind() throws Exception {
        start(AaaSimulator.builder());
        AccessRequest bad = access(3, "x");
        bad.addAttribute(new RadiusAttribute(80, new byte[16]));
        byte[] badWire = encode(bad, SECRET); // MA left zero: must be dropped, never answered
        AccessRequest good = access(4, "x");
        good.addAttribute(new RadiusAttribute(80, new byte[16]));
        byte[] wire = encode(good, SECRET);
        signMa(wire, null);
        send(badWire, sim.authAddresses().get(0));
        send(wire, sim.authAddresses().get(0));
        byte[] answer = receive(); // one event loop answers in order: the first reply is the good one's
        assertThat(answer[1] & 0xFF).isEqualTo(4);
        assertMaVerifies(answer, Arrays.copyOfRange(wire, 4, 20));
        RadiusPacket decoded = RadiusPacket.decodeResponsePacket(Dictionaries.standard(), new ByteArrayInputStream(answer),
                SECRET, good);
        assertThat(decoded.getPacketType()).isEqualTo(RadiusPacket.ACCESS_ACCEPT);
        assertThat(sim.badAuthenticators()).isEqualTo(1);
    }

    @Test
    void accountingIsVerifiedAndAnswered() throws Exception {
        start(AaaSimulator.builder());
        AccountingRequest wrong = accounting(5);
        send(encode(wrong, "not-the-secret"), sim.acctAddresses().get(0));
        AccountingRequest start = accounting(6);
        RadiusPacket answer = exchange(start, sim.acctAddresses().get(0), SECRET);
        assertThat(answer.getPacketType()).isEqualTo(RadiusPacket.ACCOUNTING_RESPONSE);
        assertThat(answer.getPacketIdentifier()).isEqualTo(6);
        assertThat(sim.badAuthenticators()).isEqualTo(1);
        assertThat(sim.sent(RadiusPacket.ACCOUNTING_RESPONSE)).isEqualTo(1);
    }

    @Test
    void statusServerIsAnsweredPerPortWithMessageAuthenticator() throws Exception {
        start(AaaSimulator.builder());
        for (boolean acct : new boolean[] {false, true}) {
            RadiusPacket ss = new RadiusPacket(RadiusPacket.STATUS_SERVER, acct ? 21 : 20);
            ss.setDictionary(Dictionaries.standard());
            ss.addAttribute(new RadiusAttribute(80, new byte[16]));
            byte[] wire = encode(ss, SECRET);
            signMa(wire, null);
            send(wire, acct ? sim.acctAddresses().get(0) : sim.authAddresses().get(0));
            byte[] answer = receive();
            assertThat(answer[0] & 0xFF).isEqualTo(acct ? RadiusPacket.ACCOUNTING_RESPONSE : RadiusPacket.ACCESS_ACCEPT);
            assertMaVerifies(answer, Arrays.copyOfRange(wire, 4, 20));
            RadiusPacket.decodeResponsePacket(Dictionaries.standard(), new ByteArrayInputStream(answer), SECRET, ss);
        }
    }

    @Test
    void wrongSecretModeAnswersWhatNoClientCanVerify() throws Exception {
        start(AaaSimulator.builder().failure(AaaFailure.WRONG_SECRET));
        AccessRequest r = access(7, "x");
        send(encode(r, SECRET), sim.authAddresses().get(0));
        byte[] answer = receive();
        assertThatThrownBy(() -> RadiusPacket.decodeResponsePacket(Dictionaries.standard(),
                new ByteArrayInputStream(answer), SECRET, r)).isInstanceOf(RadiusException.class);
    }

    @Test
    void silentModeCountsButNeverAnswers() throws Exception {
        start(AaaSimulator.builder().failure(AaaFailure.SILENT));
        send(encode(access(8, "x"), SECRET), sim.authAddresses().get(0));
        nas.setSoTimeout(300);
        assertThatThrownBy(this::receive).isInstanceOf(java.net.SocketTimeoutException.class);
        assertThat(sim.dropped()).isEqualTo(1);
    }

    // ---- helpers ----------------------------------------------------------------------------

    private static AccessRequest access(int id, String password) {
        AccessRequest r = new AccessRequest("sub" + id + "@mclb", password);
        r.setDictionary(Dictionaries.standard());
        r.setPacketIdentifier(id);
        r.addAttribute("Calling-Station-Id", "49170000000" + id);
        return r;
    }

    private static AccountingRequest accounting(int id) {
        AccountingRequest r = new AccountingRequest("sub@mclb", AccountingRequest.ACCT_STATUS_TYPE_START);
        r.setDictionary(Dictionaries.standard());
        r.setPacketIdentifier(id);
        r.addAttribute("Framed-IP-Address", "10.64.0.9");
        r.addAttribute("Acct-Session-Id", "s-" + id);
        return r;
    }

    private RadiusPacket exchange(RadiusPacket request, InetSocketAddress to, String secret) throws Exception {
        send(encode(request, secret), to);
        return RadiusPacket.decodeResponsePacket(Dictionaries.standard(), new ByteArrayInputStream(receive()), secret,
                request);
    }

    private static byte[] encode(RadiusPacket p, String secret) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        p.encodeRequestPacket(out, secret);
        return out.toByteArray();
    }

    private void send(byte[] wire, InetSocketAddress to) throws Exception {
        nas.send(new DatagramPacket(wire, wire.length, to));
    }

    private byte[] receive() throws Exception {
        DatagramPacket p = new DatagramPacket(new byte[4096], 4096);
        nas.receive(p);
        return Arrays.copyOf(p.getData(), p.getLength());
    }

    /** HMAC-MD5 with javax over the packet with the MA value zeroed (TinyRadius cannot sign MA). */
    private static void signMa(byte[] wire, byte[] field) throws Exception {
        int ma = maIndex(wire);
        Arrays.fill(wire, ma, ma + 16, (byte) 0);
        System.arraycopy(hmac(wire, field), 0, wire, ma, 16);
    }

    private static int maIndex(byte[] wire) {
        for (int i = 20; i < wire.length; i += wire[i + 1] & 0xFF) {
            if ((wire[i] & 0xFF) == 80) {
                return i + 2;
            }
        }
        return -1;
    }

    private static void assertMaVerifies(byte[] answer, byte[] requestAuthenticator) throws Exception {
        int ma = maIndex(answer);
        assertThat(ma).as("Message-Authenticator present").isPositive();
        byte[] zeroed = answer.clone();
        Arrays.fill(zeroed, ma, ma + 16, (byte) 0);
        assertThat(hmac(zeroed, requestAuthenticator)).isEqualTo(Arrays.copyOfRange(answer, ma, ma + 16));
    }

    private static byte[] hmac(byte[] wire, byte[] field) throws Exception {
        byte[] w = wire.clone();
        if (field != null) {
            System.arraycopy(field, 0, w, 4, 16);
        }
        Mac mac = Mac.getInstance("HmacMD5");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacMD5"));
        return mac.doFinal(w);
    }
}
