package io.mclb.ha.group;

import io.mclb.ha.vip.NoopVirtualAddressControl;
import io.mclb.net.SecurityLog;
import io.mclb.time.ManualClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** A hello that fails the group's authentication is logged once per sender per minute, besides its counter. */
class HelloSecurityLogTest {

    @Test
    void aBadlyAuthenticatedHelloIsLoggedOncePerSenderPerMinute() throws Exception {
        ManualClock clock = new ManualClock();
        SimpleMeterRegistry reg = new SimpleMeterRegistry();
        InetAddress peer = InetAddress.getByName("127.0.0.2");
        GroupConfig c = new GroupConfig("lo", InetAddress.getByName("127.0.0.3"), 8, 2, 100, "SLB-HA",
                InetAddress.getByName("127.0.0.100"), 100, false, 0, 50, 200,
                "ha-secret".getBytes(StandardCharsets.UTF_8), List.of(), List.of(peer));
        GroupManager m = new GroupManager(List.of(c), new NoopVirtualAddressControl(), new LinkState.Fixed(), reg,
                clock, io.mclb.testing.Ports.freeUdp("127.0.0.3"));
        Hello hello = new Hello(Hello.Type.HELLO, 100, HsrpState.ACTIVE, 255, false, 1000, 50, 200, 7, 5, 0, peer,
                InetAddress.getByName("127.0.0.100"));
        byte[] wrongKey = new HelloCodec("other".getBytes(StandardCharsets.UTF_8)).encode(hello);
        InetSocketAddress from = new InetSocketAddress(peer, 1985);
        List<String> lines = new CopyOnWriteArrayList<>();
        try (AutoCloseable capture = SecurityLog.capture(lines::add)) {
            for (int i = 0; i < 5; i++) {
                m.received(null, from, wrongKey, wrongKey.length);
            }
            assertThat(lines).hasSize(1);
            assertThat(lines.get(0)).contains("ha group SLB-HA", "bad_auth", "from 127.0.0.2;");
            clock.advanceSeconds(60);
            m.received(null, from, wrongKey, wrongKey.length);
            assertThat(lines).as("again a minute later").hasSize(2);
        } finally {
            m.close();
        }
        assertThat(reg.find(HaMetrics.HELLOS_REFUSED).tag("reason", "bad_auth").counter().count()).isEqualTo(6);
    }
}
