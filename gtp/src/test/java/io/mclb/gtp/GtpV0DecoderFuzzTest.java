package io.mclb.gtp;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.mclb.testing.FuzzCorpus;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.provider.MethodSource;

/** Fuzz target: the GTPv0 flyweight and IE walker ({@link GtpDecoderFuzzChecks}); seeds in fuzz/gtp-v0/. */
@Tag("fuzz")
class GtpV0DecoderFuzzTest {
    private final GtpDecoderFuzzChecks checks = new GtpDecoderFuzzChecks();

    static Stream<byte[]> seeds() {
        return FuzzCorpus.seeds("gtp-v0");
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "60s")
    void wrapReadPatchForward(byte[] datagram) {
        checks.check(0, datagram);
    }
}
