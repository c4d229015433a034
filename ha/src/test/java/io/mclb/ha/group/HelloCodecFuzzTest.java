package io.mclb.ha.group;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mclb.testing.FuzzCorpus;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzz target: the HA group hello ({@link HelloCodec#decode}); seeds in fuzz/ha-hello/. The
 * datagram sits in a larger receive buffer, as {@code HelloSockets} reads it. With the input's
 * last bit set, the input is first signed with the group key (HMAC-SHA256 by {@code javax.crypto},
 * independent of the codec's Bouncy Castle one) so the fuzzer reaches the field checks behind
 * the authentication. Whatever arrives: decode never throws; it returns a hello or a refusal,
 * never both or neither; it reads nothing past the datagram's length (the same datagram in a
 * buffer with other octets after it decodes the same); and a decoded hello re-encodes into a
 * datagram that decodes into the same hello.
 */
@Tag("fuzz")
class HelloCodecFuzzTest {
    private static final byte[] KEY = "ha-secret".getBytes(StandardCharsets.US_ASCII);
    private final HelloCodec keyed = new HelloCodec(KEY);
    private final HelloCodec open = new HelloCodec(null);

    static Stream<byte[]> seeds() {
        return FuzzCorpus.seeds("ha-hello");
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "60s")
    void decode(byte[] input) throws Exception {
        boolean sign = input.length > 0 && (input[input.length - 1] & 1) != 0;
        byte[] datagram = input;
        if (sign && input.length == HelloCodec.HEADER + 1 + HelloCodec.MAC_LEN) {
            datagram = input.clone();
            datagram[HelloCodec.HEADER] = HelloCodec.MAC_LEN;
            System.arraycopy(hmac(datagram), 0, datagram, HelloCodec.HEADER + 1, HelloCodec.MAC_LEN);
        }
        for (HelloCodec codec : new HelloCodec[] {keyed, open}) {
            HelloCodec.Decoded d = codec.decode(inBuffer(datagram, (byte) 0x00), datagram.length);
            assertThat(d.hello() == null).as("a hello or a refusal").isNotEqualTo(d.refusal() == null);
            assertThat(codec.decode(inBuffer(datagram, (byte) 0xFF), datagram.length))
                .as("nothing past the datagram is read").isEqualTo(d);
            if (d.hello() != null) {
                byte[] again = codec.encode(d.hello());
                assertThat(codec.decode(again, again.length).hello()).as("re-encoded").isEqualTo(d.hello());
            }
        }
    }

    /** The datagram at the start of a receive buffer twice its size (plus the largest hello), the rest {@code fill}. */
    private static byte[] inBuffer(byte[] datagram, byte fill) {
        byte[] b = new byte[datagram.length * 2 + 128];
        Arrays.fill(b, fill);
        System.arraycopy(datagram, 0, b, 0, datagram.length);
        return b;
    }

    private static byte[] hmac(byte[] datagram) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(KEY, "HmacSHA256"));
        mac.update(datagram, 0, HelloCodec.HEADER);
        return mac.doFinal();
    }
}
