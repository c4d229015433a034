package io.mclb.net;

import io.mclb.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Security-relevant input is logged once per source and key per minute, with the source address. */
class SecurityLogTest {
    private final ManualClock clock = new ManualClock();
    private final SecurityLog log = new SecurityLog(clock);

    @Test
    void oncePerSourceAndKeyPerMinuteWithTheSourceAddress() throws Exception {
        InetAddress nas = InetAddress.getByName("10.0.0.7");
        List<String> lines = new ArrayList<>();
        try (AutoCloseable c = SecurityLog.capture(lines::add)) {
            assertThat(log.warn(nas, "radius-secret/V", "wrong secret")).isTrue();
            for (int i = 0; i < 1000; i++) {
                assertThat(log.warn(nas, "radius-secret/V", "wrong secret")).isFalse();
            }
            assertThat(log.warn(nas, "radius-client/V", "unknown NAS")).as("another key").isTrue();
            assertThat(log.warn(InetAddress.getByName("10.0.0.8"), "radius-secret/V", "wrong secret"))
                    .as("another source").isTrue();
            clock.advanceMillis(59_999);
            assertThat(log.warn(nas, "radius-secret/V", "wrong secret")).isFalse();
            clock.advanceMillis(1);
            assertThat(log.warn(nas, "radius-secret/V", "wrong secret")).as("a minute later").isTrue();
        }
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).startsWith("wrong secret (from 10.0.0.7;");
    }

    @Test
    void aSpoofedFloodOfSourcesIsBoundedPerMinute() throws Exception {
        int logged = 0;
        for (int i = 0; i < 3 * SecurityLog.MAX_SOURCES; i++) {
            logged += log.warn(InetAddress.getByName("10.9." + (i >> 8 & 0xff) + "." + (i & 0xff)), "k", "m") ? 1 : 0;
        }
        assertThat(logged).isEqualTo(SecurityLog.MAX_SOURCES);
        clock.advanceSeconds(60);
        assertThat(log.warn(InetAddress.getByName("10.8.0.1"), "k", "m")).as("room again after a minute").isTrue();
    }
}
