package io.mclb.feedback.dfp;

import io.mclb.metrics.MetricNames;
import io.mclb.net.SecurityLog;
import io.mclb.net.Transports;
import io.mclb.testing.Metrics;
import io.mclb.time.ManualClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A DFP message without the configured password is logged once per peer address per minute, besides its counter. */
class DfpSecurityLogTest {
    private final EventLoopGroup group = Transports.newGroup(1, "test-dfp-sec");
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ManualClock clock = new ManualClock();

    @AfterEach
    void tearDown() {
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static void sendUnsigned(InetSocketAddress to) throws Exception {
        ByteBuf out = Unpooled.buffer();
        new DfpWriter().parameters(out, 30, null);
        try (Socket s = new Socket(to.getAddress(), to.getPort())) {
            OutputStream o = s.getOutputStream();
            o.write(ByteBufUtil.getBytes(out));
            o.flush();
            s.getInputStream().read(); // the agent closes the connection on the refusal
        }
    }

    private double refusedSecurity() {
        return Metrics.count(registry, MetricNames.DFP_REFUSED, "agent", "A", "reason", "security");
    }

    @Test
    void aManagerWithoutThePasswordIsLoggedOncePerMinuteAndCountedEveryTime() throws Exception {
        try (DfpAgentServer a = new DfpAgentServer("A", group.next(), clock, registry, List::of)) {
            a.configure(new DfpAgentServer.Settings(new InetSocketAddress("127.0.0.1", 0), "agent-pw", 0, 30, true));
            InetSocketAddress at = a.localAddress();
            List<String> lines = new CopyOnWriteArrayList<>();
            try (AutoCloseable capture = SecurityLog.capture(lines::add)) {
                for (int i = 1; i <= 3; i++) {
                    sendUnsigned(at);
                    int n = i;
                    await().atMost(Duration.ofSeconds(10)).until(() -> refusedSecurity() == n);
                }
                assertThat(lines).hasSize(1);
                assertThat(lines.get(0)).contains("dfp", "password", "from 127.0.0.1;");
                clock.advanceSeconds(60);
                sendUnsigned(at);
                await().atMost(Duration.ofSeconds(10)).until(() -> lines.size() == 2);
            }
        }
    }
}
