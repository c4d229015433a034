package io.mclb.radius.codec;

import io.mclb.config.CiscoType7;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SecretsTest {
    @Test
    void knownType7Vectors() {
        // G. Hoffman, "Cisco Type 7 decryption" (IOS key chain shows "cisco").
        assertThat(CiscoType7.decode("0822455D0A16")).isEqualTo("cisco");
        // l0pht Cisco decryptor note.
        assertThat(CiscoType7.decode("08204E")).isEqualTo("ab");
        assertThat(CiscoType7.decode("1513090F")).isEqualTo("abc");
        assertThat(CiscoType7.decode("104F0B1A011214")).isEqualTo("abcdef");
        assertThat(CiscoType7.encode("cisco", 8)).isEqualTo("0822455D0A16");
    }

    @Test
    void type7RoundTripForEverySeed() {
        for (int seed = 0; seed < 53; seed++) {
            String enc = CiscoType7.encode("testing123-very-long-secret-over-53-chars-to-wrap-the-xlat", seed);
            assertThat(CiscoType7.decode(enc)).isEqualTo("testing123-very-long-secret-over-53-chars-to-wrap-the-xlat");
        }
    }

    @Test
    void type7RejectsGarbage() {
        assertThatThrownBy(() -> CiscoType7.decode("0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CiscoType7.decode("99AA")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CiscoType7.decode("08ZZ")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keySyntaxAndNoLeakInToString() {
        assertThat(RadiusSecret.parseKey("7 0822455D0A16")).isEqualTo(RadiusSecret.ofString("cisco"));
        assertThat(RadiusSecret.parseKey("0 cisco")).isEqualTo(RadiusSecret.ofString("cisco"));
        assertThat(RadiusSecret.parseKey("cisco")).isEqualTo(RadiusSecret.ofString("cisco"));
        assertThat(RadiusSecret.ofString("cisco").toString()).doesNotContain("cisco").contains("5");
        assertThat(RadiusSecret.parseKey("7 " + RadiusSecret.ofString("s3").toType7(3))).isEqualTo(RadiusSecret.ofString("s3"));
    }

    @Test
    void longSecretHmacMatchesJavax() throws Exception {
        // Keys over 64 octets are hashed first (RFC 2104); checked through a Status-Server MA.
        String longSecret = "x".repeat(100);
        byte[] wire = RadiusTestPackets.statusServer(longSecret);
        RadiusPacket p = new RadiusPacket();
        assertThat(p.wrap(io.netty.buffer.Unpooled.wrappedBuffer(wire))).isNull();
        assertThat(new RadiusCrypto().verifyMessageAuthenticator(p, RadiusSecret.ofString(longSecret), 12, null)).isTrue();
    }
}
