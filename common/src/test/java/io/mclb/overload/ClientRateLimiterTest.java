package io.mclb.overload;

import io.mclb.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

/** The synguard buckets with an injected clock: N per window per client, fixed memory, eviction. */
class ClientRateLimiterTest {
    private final ManualClock clock = new ManualClock();

    private static InetAddress ip(String s) throws Exception {
        return InetAddress.getByName(s);
    }

    private static int admitted(ClientRateLimiter l, InetAddress a, int tries, long nowNs) {
        int n = 0;
        for (int i = 0; i < tries; i++) {
            n += l.admit(a, nowNs) ? 1 : 0;
        }
        return n;
    }

    @Test
    void atMostNPerIntervalPerClientAndTheNextWindowOpensAfterTheInterval() throws Exception {
        ClientRateLimiter l = new ClientRateLimiter(3, 100);
        InetAddress sgsn = ip("10.0.0.1");
        assertThat(admitted(l, sgsn, 10, clock.nanoTime())).isEqualTo(3);

        clock.advanceMillis(99);
        assertThat(l.admit(sgsn, clock.nanoTime())).as("still inside the window").isFalse();
        clock.advanceMillis(1);
        assertThat(admitted(l, sgsn, 10, clock.nanoTime())).as("a new window after 100 ms").isEqualTo(3);
    }

    @Test
    void oneClientsStormLeavesOtherClientsTheirWholeBudget() throws Exception {
        ClientRateLimiter l = new ClientRateLimiter(5, 100);
        long now = clock.nanoTime();
        assertThat(admitted(l, ip("10.0.0.1"), 10_000, now)).isEqualTo(5);
        assertThat(admitted(l, ip("10.0.0.2"), 5, now)).isEqualTo(5);
        assertThat(admitted(l, ip("2001:db8::1"), 7, now)).isEqualTo(5);
        assertThat(admitted(l, ip("2001:db8::2"), 7, now)).as("IPv6 clients are told apart").isEqualTo(5);
        assertThat(l.evictions()).isZero();
    }

    @Test
    void manyClientsFitInFixedMemoryAndExpiredBucketsAreReusedBeforeActiveOnesAreEvicted() throws Exception {
        ClientRateLimiter l = new ClientRateLimiter(1, 100);
        long now = clock.nanoTime();
        int clients = ClientRateLimiter.SLOTS / 8;
        for (int i = 0; i < clients; i++) {
            assertThat(l.admit(ip("10.1." + (i >> 8) + "." + (i & 0xff)), now)).isTrue();
        }
        for (int i = 0; i < clients; i++) {
            assertThat(l.admit(ip("10.1." + (i >> 8) + "." + (i & 0xff)), now))
                    .as("client %d keeps its bucket while the table has room", i).isFalse();
        }
        assertThat(l.evictions()).isZero();

        clock.advanceMillis(100);
        long later = clock.nanoTime();
        for (int i = 0; i < 50_000; i++) {
            l.admit(ip("10.2." + (i >> 8 & 0xff) + "." + (i & 0xff)), later); // new clients take expired slots
        }
        assertThat(l.evictions()).as("50,000 clients in one interval: the table stays fixed and evicts")
                .isPositive();
    }

    @Test
    void theClientKeyIsExactForIpv4AndNeverTheEmptySlot() throws Exception {
        assertThat(ClientRateLimiter.keyOf(ip("0.0.0.0"))).isNotZero();
        assertThat(ClientRateLimiter.keyOf(ip("10.0.0.1"))).isEqualTo((1L << 32) | 0x0A000001L);
        assertThat(ClientRateLimiter.keyOf(ip("::"))).isNegative();
    }
}
