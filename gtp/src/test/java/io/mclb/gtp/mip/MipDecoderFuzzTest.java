package io.mclb.gtp.mip;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mclb.testing.FuzzCorpus;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzz target: the Mobile IP registration flyweight ({@link MipMessage}); seeds in fuzz/mip/.
 * A refusal names its reason; an accepted message (forwarded byte for byte) answers every
 * accessor from inside the datagram, and the engine's reply-id hook agrees with the flyweight.
 */
@Tag("fuzz")
class MipDecoderFuzzTest {
    private final MipMessage m = new MipMessage();
    private final byte[] nai = new byte[255];

    static Stream<byte[]> seeds() {
        return FuzzCorpus.seeds("mip");
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "60s")
    void wrapAndRead(byte[] datagram) {
        ByteBuf buf = FuzzCorpus.datagram(datagram);
        long replyId = MipMessage.replyId(buf);
        if (!m.wrap(buf)) {
            assertThat(m.reason()).isNotNull();
            return;
        }
        long sink = m.type() + m.code() + m.lifetime() + m.homeAddress() + m.homeAgent() + m.idHigh() + m.idLow();
        int n = m.nai(nai);
        assertThat(n).isBetween(0, 255).isEqualTo(m.hasNai() ? n : 0);
        assertThat(replyId).isEqualTo(m.isRequest() ? -1 : m.idLow());
        assertThat(ByteBufUtil.getBytes(buf)).isEqualTo(datagram);
        assertThat(sink).isNotNull();
    }
}
