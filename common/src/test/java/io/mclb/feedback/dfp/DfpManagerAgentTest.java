package io.mclb.feedback.dfp;

import io.mclb.config.SourceRef;
import io.mclb.farm.RealConfigs;
import io.mclb.farm.RealServer;
import io.mclb.farm.RealState;
import io.mclb.feedback.FeedbackLines.AgentLine;
import io.mclb.feedback.FeedbackLines.ManagerConfig;
import io.mclb.metrics.MetricNames;
import io.mclb.net.Transports;
import io.mclb.testing.Metrics;
import io.mclb.time.ManualClock;
import io.mclb.time.NanoClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * mclb's DFP manager against mclb's DFP agent over loopback TCP, and each against a peer that
 * misbehaves on purpose (raw sockets): weights arrive, weight 0 throttles, static weights return
 * when the agent closes or falls silent past the timeout, a wrong password is a security error,
 * and malformed streams are refused and counted without touching a weight.
 */
class DfpManagerAgentTest {
    private static final int REAL = 0x0a14010b;
    private final EventLoopGroup group = Transports.newGroup(1, "test-dfp");
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<AutoCloseable> closeMe = new ArrayList<>();
    private final RealServer real = new RealServer("GGSN", RealConfigs.real("10.20.1.11", 8), new ManualClock(), null);

    @AfterEach
    void tearDown() throws Exception {
        for (int i = closeMe.size() - 1; i >= 0; i--) {
            closeMe.get(i).close();
        }
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    private DfpAgentServer agent(AtomicReference<List<HostWeight>> weights, String password) throws Exception {
        DfpAgentServer a = new DfpAgentServer("A", group.next(), NanoClock.system(), registry, weights::get);
        closeMe.add(a);
        a.configure(new DfpAgentServer.Settings(new InetSocketAddress("127.0.0.1", 0), password, 0, 30, true));
        return a;
    }

    private DfpManager manager(int port, int timeout, String password) throws Exception {
        DfpManager m = new DfpManager(group.next(), NanoClock.system(), registry, new DfpWeights());
        closeMe.add(m);
        AgentLine line = new AgentLine(InetAddress.getByName("127.0.0.1"), port, timeout, 0, 1, SourceRef.NONE);
        m.configure(new ManagerConfig(password, 180, List.of(line), List.of(), SourceRef.NONE),
                List.of(new DfpWeights.Target(real, REAL, new int[] {2123}, 0)));
        return m;
    }

    private static List<HostWeight> weight(int w) {
        return List.of(new HostWeight(REAL, 2123, DfpWire.PROTOCOL_UDP, 0, w));
    }

    private AgentState state(DfpManager m) {
        return m.status().get(0).state();
    }

    @Test
    void weightsFlowThrottleAndStaticWeightsReturnTheMomentTheAgentGoes() throws Exception {
        AtomicReference<List<HostWeight>> w = new AtomicReference<>(weight(20));
        DfpAgentServer a = agent(w, "pw");
        DfpManager m = manager(a.localAddress().getPort(), 30, "pw");
        await().atMost(Duration.ofSeconds(10)).until(() -> real.operWeight() == 20);
        assertThat(state(m)).isEqualTo(AgentState.OPEN);

        // a sudden change is reported at once, not at the 30 s interval
        long t0 = System.nanoTime();
        w.set(weight(0));
        await().atMost(Duration.ofSeconds(5)).until(() -> real.state() == RealState.DFP_THROTTLED);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("DFP weight change 20 -> 0 reached the real after " + ms + " ms (early report; interval 30 s)");
        assertThat(ms).as("well inside one 30 s report interval").isLessThan(30_000);

        a.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> real.operWeight() == 8 && real.dfpWeight() == -1);
        assertThat(state(m)).isIn(AgentState.TRYING, AgentState.CONNECTING);
        assertThat(Metrics.count(registry, MetricNames.DFP_REPORTS, "agent", "127.0.0.1:" + m.status().get(0).config().port())).isGreaterThanOrEqualTo(2);
    }

    @Test
    void anAgentSilentPastTheTimeoutLosesItsWeightsAfterTheTimeoutNotBefore() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 5, InetAddress.getByName("127.0.0.1"))) {
            DfpManager m = manager(silent.getLocalPort(), 3, null);
            try (Socket s = silent.accept()) {
                byte[] report = prefInfo(40, null);
                s.getOutputStream().write(report);
                await().atMost(Duration.ofSeconds(5)).until(() -> real.operWeight() == 40);
                long since = System.nanoTime();
                await().atMost(Duration.ofSeconds(10)).until(() -> real.operWeight() == 8);
                long waited = (System.nanoTime() - since) / 1_000_000;
                assertThat(waited).as("the weight lasted until the 3 s timeout").isGreaterThanOrEqualTo(2500);
                assertThat(m.status().get(0).lastError()).contains("timeout");
            }
        }
    }

    @Test
    void aWrongPasswordIsASecurityErrorAndNoWeightIsTaken() throws Exception {
        AtomicReference<List<HostWeight>> w = new AtomicReference<>(weight(20));
        DfpAgentServer a = agent(w, "agent-pw");
        DfpManager m = manager(a.localAddress().getPort(), 30, "manager-pw");
        String agent = "127.0.0.1:" + a.localAddress().getPort();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> Metrics.count(registry, MetricNames.DFP_REFUSED, "agent", agent, "reason", "security") >= 1);
        assertThat(state(m)).isIn(AgentState.SECURITY_ERROR, AgentState.CONNECTING, AgentState.OPEN);
        assertThat(real.operWeight()).isEqualTo(8);
        assertThat(Metrics.count(registry, MetricNames.DFP_REFUSED, "agent", "A", "reason", "security"))
                .as("the agent refused the manager's parameters too").isGreaterThanOrEqualTo(1);
    }

    /**
     * A misbehaving agent: each connection sends a valid report of weight 30, then a corrupted one
     * carrying weight 0. The corrupted one is refused by reason; weight 0 is never applied; the
     * connection closes and the real is static again.
     */
    @Test
    void corruptedReportsAreRefusedCountedAndNeverApplied() throws Exception {
        List<Integer> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (ServerSocket bad = new ServerSocket(0, 5, InetAddress.getByName("127.0.0.1"))) {
            DfpManager m = manager(bad.getLocalPort(), 0, null);
            String agent = "127.0.0.1:" + bad.getLocalPort();
            Thread watch = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    seen.add(real.operWeight());
                    java.util.concurrent.locks.LockSupport.parkNanos(200_000);
                }
            });
            watch.start();
            Random rnd = new Random(5);
            int[] corruptAt = {0, 4, 6, 11, 17};   // version, length (too long), length (longer than sent), TLV length, host count
            for (int round = 0; round < corruptAt.length; round++) {
                try (Socket s = bad.accept()) {
                    OutputStream out = s.getOutputStream();
                    out.write(prefInfo(30, null));
                    await().atMost(Duration.ofSeconds(5)).until(() -> real.operWeight() == 30);
                    byte[] evil = prefInfo(0, null);
                    evil[corruptAt[round]] ^= (byte) (1 + rnd.nextInt(127));
                    out.write(evil);
                    s.shutdownOutput();
                    InputStream in = s.getInputStream();
                    while (in.read() >= 0) {
                        // the manager's parameters and bind request, then its close
                    }
                    await().atMost(Duration.ofSeconds(5)).until(() -> real.operWeight() == 8);
                }
            }
            watch.interrupt();
            watch.join();
            assertThat(seen).as("weight 0 of a refused report was never applied").doesNotContain(0);
            double refused = 0;
            for (DfpRefusal r : DfpRefusal.values()) {
                refused += Metrics.count(registry, MetricNames.DFP_REFUSED, "agent", agent, "reason", r.label());
            }
            assertThat(refused).isEqualTo(corruptAt.length);
            assertThat(Metrics.count(registry, MetricNames.DFP_REFUSED, "agent", agent, "reason", "bad_version")).isEqualTo(1);
            assertThat(m.status().get(0).reports()).isEqualTo(corruptAt.length);
        }
    }

    /**
     * Fuzzed managers against mclb's agent: each connection sends random or mutated messages; the
     * agent refuses exactly the inconsistent streams (closing them, counting by reason) and keeps
     * reporting to a well-behaved manager all along.
     */
    @Test
    void theAgentRefusesFuzzedManagersAndKeepsServingTheGoodOne() throws Exception {
        AtomicReference<List<HostWeight>> w = new AtomicReference<>(weight(17));
        DfpAgentServer a = agent(w, null);
        int port = a.localAddress().getPort();
        manager(port, 30, null);
        await().atMost(Duration.ofSeconds(10)).until(() -> real.operWeight() == 17);
        Random rnd = new Random(3);
        int expectRefused = 0;
        for (int round = 0; round < 60; round++) {
            byte[] params = parameters(rnd.nextInt(100));
            byte[] stream;
            if (round % 3 == 0) {
                stream = new byte[8 + rnd.nextInt(40)];
                rnd.nextBytes(stream);
                stream[0] = 1;
                stream[4] = 0;
                stream[5] = 0;
            } else {
                stream = params.clone();
                stream[rnd.nextInt(stream.length)] = (byte) rnd.nextInt(256);
            }
            expectRefused += DfpFrameDecoderTest.independentReading(stream).refusal() != null ? 1 : 0;
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.setSoTimeout(3000);
                s.getOutputStream().write(stream);
                s.shutdownOutput();
                InputStream in = s.getInputStream();
                while (in.read() >= 0) {
                    // the agent's first report, then its close (refused) or ours
                }
            } catch (java.net.SocketTimeoutException e) {
                throw new AssertionError("round " + round + ": the agent neither closed nor answered", e);
            }
        }
        int expected = expectRefused;
        await().atMost(Duration.ofSeconds(5)).until(() -> refusedByAgent() >= expected);
        assertThat(refusedByAgent()).as("refused = inconsistent streams (truncated ones included)")
                .isEqualTo(expected);
        w.set(weight(9));
        await().atMost(Duration.ofSeconds(5)).until(() -> real.operWeight() == 9);
    }

    private double refusedByAgent() {
        double n = 0;
        for (DfpRefusal r : DfpRefusal.values()) {
            n += Metrics.count(registry, MetricNames.DFP_REFUSED, "agent", "A", "reason", r.label());
        }
        return n;
    }

    private static byte[] prefInfo(int weight, byte[] pw) {
        io.netty.buffer.ByteBuf b = io.netty.buffer.Unpooled.buffer();
        new DfpWriter().preferenceInformation(b, weight(weight), pw);
        return DfpCodecTest.bytes(b);
    }

    private static byte[] parameters(int keepAlive) {
        io.netty.buffer.ByteBuf b = io.netty.buffer.Unpooled.buffer();
        new DfpWriter().parameters(b, keepAlive, null);
        return DfpCodecTest.bytes(b);
    }
}
