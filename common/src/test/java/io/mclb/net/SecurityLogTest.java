package io.mclb.net;

import io.mclb.time.ManualClock;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.helpers.MessageFormatter;

import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Once per source and key per minute, with the count of what was held back. */
class SecurityLogTest {
    private final List<String> lines = new ArrayList<>();
    private final ManualClock clock = new ManualClock();
    private final SecurityLog log = new SecurityLog(capturing(lines), clock);

    /** A Logger that keeps each warn line, formatted. */
    private static Logger capturing(List<String> into) {
        return (Logger) Proxy.newProxyInstance(Logger.class.getClassLoader(), new Class<?>[] {Logger.class},
                (p, m, args) -> {
                    if (m.getName().equals("warn")) {
                        Object[] rest = args.length == 2 && args[1] instanceof Object[] a ? a
                                : java.util.Arrays.copyOfRange(args, 1, args.length);
                        into.add(MessageFormatter.arrayFormat((String) args[0], rest).getMessage());
                    }
                    return m.getReturnType() == boolean.class ? Boolean.TRUE : null;
                });
    }

    @Test
    void oncePerSourceAndKeyPerMinuteThenSaysHowManyWereHeldBack() throws Exception {
        InetAddress nas = InetAddress.getByName("192.0.2.7");
        InetAddress other = InetAddress.getByName("192.0.2.8");
        log.warn(nas, "radius-secret", "wrong shared secret");
        log.warn(nas, "radius-secret", "wrong shared secret");
        log.warn(nas, "radius-secret", "wrong shared secret");
        log.warn(nas, "radius-client", "unknown client");
        log.warn(other, "radius-secret", "wrong shared secret");
        assertThat(lines).containsExactly("wrong shared secret from 192.0.2.7", "unknown client from 192.0.2.7",
                "wrong shared secret from 192.0.2.8");

        clock.advance(Duration.ofSeconds(59));
        log.warn(nas, "radius-secret", "wrong shared secret");
        assertThat(lines).hasSize(3);
        clock.advance(Duration.ofSeconds(1));
        log.warn(nas, "radius-secret", "wrong shared secret");
        assertThat(lines).hasSize(4).last().isEqualTo("wrong shared secret from 192.0.2.7 (3 more from this source"
                + " since its last line, not logged)");
    }

    @Test
    void aFloodOfSourcesIsLoggedButNotRemembered() throws Exception {
        for (int i = 0; i < SecurityLog.MAX_SOURCES + 10; i++) {
            log.warn(InetAddress.getByAddress(new byte[] {10, (byte) (i >> 16), (byte) (i >> 8), (byte) i}), "k", "m");
        }
        assertThat(lines).hasSize(SecurityLog.MAX_SOURCES + 10);
        // the first ones are remembered (held back), the overflow is not (logged again), memory stays bounded
        log.warn(InetAddress.getByAddress(new byte[] {10, 0, 0, 0}), "k", "m");
        assertThat(lines).hasSize(SecurityLog.MAX_SOURCES + 10);
        int over = SecurityLog.MAX_SOURCES + 9;
        log.warn(InetAddress.getByAddress(new byte[] {10, (byte) (over >> 16), (byte) (over >> 8), (byte) over}), "k",
                "m");
        assertThat(lines).hasSize(SecurityLog.MAX_SOURCES + 11);
    }
}
