package io.mclb.probe;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class SynSequenceTest {
    /** The reference vectors' key 00..0f and 16-byte message 00..0f, packed little-endian as SipHash packs them. */
    @Test
    void theHashIsSipHash24() {
        long k0 = 0x0706050403020100L;
        long k1 = 0x0f0e0d0c0b0a0908L;
        long m0 = 0x0706050403020100L;
        long m1 = 0x0f0e0d0c0b0a0908L;
        assertThat(SynSequence.siphash24(k0, k1, m0, m1, 16L << 56)).isEqualTo(0x3f2acc7f57c29bdbL);
    }

    @Test
    void theOffsetDependsOnTheKeyTheAddressAndThePort() throws Exception {
        InetAddress a = InetAddress.getByName("10.0.0.1");
        InetAddress b = InetAddress.getByName("10.0.0.2");
        InetAddress v6 = InetAddress.getByName("2001:db8::1");
        SynSequence one = new SynSequence(1, 2);
        assertThat(one.offset(a, 80)).isEqualTo(new SynSequence(1, 2).offset(InetAddress.getByName("10.0.0.1"), 80));
        Set<Integer> seen = new HashSet<>();
        seen.add(one.offset(a, 80));
        seen.add(one.offset(a, 81));
        seen.add(one.offset(b, 80));
        seen.add(one.offset(v6, 80));
        seen.add(new SynSequence(1, 3).offset(a, 80));
        assertThat(seen).hasSize(5);
    }
}
