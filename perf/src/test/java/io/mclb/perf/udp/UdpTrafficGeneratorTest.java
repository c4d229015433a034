package io.mclb.perf.udp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class UdpTrafficGeneratorTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final Duration SETTLE = Duration.ofSeconds(20);

    private UdpResponderFarm farm;

    @BeforeEach
    void setUp() {
        farm = UdpResponderFarm.start(List.of(new InetSocketAddress(LOOPBACK, 0), new InetSocketAddress(LOOPBACK, 0)));
    }

    @AfterEach
    void tearDown() {
        farm.close();
    }

    @Test
    void theRecentPercentileCoversTheAnswersSinceItWasLastAskedForAndTheCumulativeOneAllOfThem() {
        try (UdpTrafficGenerator generator = UdpTrafficGenerator.builder()
                .target(farm.boundAddresses().get(0)).source(LOOPBACK)
                .flows(2).ratePerSecond(1_000).timeoutMs(2_000).maxDuration(Duration.ofMillis(300))
                .start()) {
            await().atMost(SETTLE).until(generator::isDone);
            assertThat(generator.snapshot().answered()).isPositive();
            long recent = generator.driver().recentLatencyMicros(99);
            assertThat(recent).as("the run's answers").isPositive();
            assertThat(generator.driver().recentLatencyMicros(99)).as("none since").isZero();
            assertThat(generator.snapshot().p99Micros()).as("cumulative: all of them still").isPositive();
        }
    }

    @Test
    void pacedTrafficGetsEveryAnswerAndStopsByItself() {
        try (UdpTrafficGenerator generator = UdpTrafficGenerator.builder()
                .target(farm.boundAddresses().get(0)).source(LOOPBACK)
                .flows(4).ratePerSecond(2_000).timeoutMs(2_000).maxDuration(Duration.ofMillis(500))
                .start()) {
            await().atMost(SETTLE).until(generator::isDone);
            UdpTrafficGenerator.Snapshot s = generator.snapshot();

            // 2000/s for 0.5 s: never more; fewer only if a loaded machine stalled the loop (missed sends are skipped).
            assertThat(s.sent()).isBetween(100L, 1_010L);
            assertThat(s.answered()).isEqualTo(s.sent());
            assertThat(s.lost()).isZero();
            assertThat(s.inFlight()).isZero();
            assertThat(s.sending()).isFalse();
            assertThat(s.p50Micros()).isPositive().isLessThanOrEqualTo(s.p99Micros());
            assertThat(s.p99Micros()).isLessThanOrEqualTo(s.maxMicros());
            assertThat(farm.received(0)).isEqualTo(s.sent());
            assertThat(farm.received(1)).isZero();
        }
    }

    @Test
    void flowsSpreadOverConsecutiveSourceAddresses() throws Exception {
        Set<InetAddress> senders = new HashSet<>();
        try (DatagramSocket sink = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0));
             UdpTrafficGenerator generator = UdpTrafficGenerator.builder()
                     .target((InetSocketAddress) sink.getLocalSocketAddress())
                     .source(InetAddress.getByName("127.0.0.1")).sourceCount(3)
                     .flows(6).ratePerSecond(600).timeoutMs(1_000).maxDuration(Duration.ofSeconds(5))
                     .start()) {
            sink.setSoTimeout(2_000);
            DatagramPacket request = new DatagramPacket(new byte[128], 128);
            for (int i = 0; i < 60; i++) {
                sink.receive(request);
                senders.add(request.getAddress());
            }
        }
        assertThat(senders).containsExactlyInAnyOrder(InetAddress.getByName("127.0.0.1"),
                InetAddress.getByName("127.0.0.2"), InetAddress.getByName("127.0.0.3"));
        assertThatThrownBy(() -> UdpTrafficGenerator.builder().target(farm.boundAddresses().get(0))
                .source(InetAddress.getByName("::1")).sourceCount(2).build()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void closedLoopKeepsTheWindowFullAndGetsEveryAnswer() {
        try (UdpTrafficGenerator generator = UdpTrafficGenerator.builder()
                .target(farm.boundAddresses().get(1)).flows(2).ratePerSecond(0).windowPerFlow(8)
                .timeoutMs(2_000).maxDuration(Duration.ofMillis(300))
                .start()) {
            await().atMost(SETTLE).until(generator::isDone);
            UdpTrafficGenerator.Snapshot s = generator.snapshot();

            // Each answer frees a slot at once: more than a few windows in 300 ms, however busy the
            // machine (a generator that waited for the 2 s timeout would send one window per flow).
            assertThat(s.sent()).isGreaterThan(4L * 2 * 8);
            assertThat(s.answered()).isEqualTo(s.sent());
            assertThat(s.lost()).isZero();
            assertThat(farm.answered(1)).isEqualTo(s.sent());
        }
    }

    @Test
    void silentResponderTurnsEveryRequestIntoLossAfterTheTimeout() {
        farm.setSilent(0, true);
        try (UdpTrafficGenerator generator = UdpTrafficGenerator.builder()
                .target(farm.boundAddresses().get(0)).flows(2).ratePerSecond(200).timeoutMs(100)
                .maxDuration(Duration.ofMillis(300))
                .start()) {
            await().atMost(SETTLE).until(generator::isDone);
            UdpTrafficGenerator.Snapshot s = generator.snapshot();

            assertThat(s.sent()).isPositive();
            assertThat(s.lost()).isEqualTo(s.sent());
            assertThat(s.answered()).isZero();
            assertThat(s.p99Micros()).isZero();
            assertThat(farm.received(0)).isEqualTo(s.sent());
            assertThat(farm.answered(0)).isZero();
        }
    }

    @Test
    void silencingMidRunCountsOnlyTheUnansweredAsLost() {
        try (UdpTrafficGenerator generator = UdpTrafficGenerator.builder()
                .target(farm.boundAddresses().get(0)).flows(2).ratePerSecond(1_000).timeoutMs(1_500)
                .maxDuration(Duration.ofSeconds(30))
                .start()) {
            await().atMost(SETTLE).until(() -> generator.snapshot().answered() >= 100);
            farm.setSilent(0, true);
            long answeredBefore = farm.answered(0);
            await().atMost(SETTLE).until(() -> generator.snapshot().lost() >= 50);
            generator.stopSending();
            await().atMost(SETTLE).until(generator::isDone);
            UdpTrafficGenerator.Snapshot s = generator.snapshot();

            assertThat(s.sent()).isEqualTo(s.answered() + s.lost());
            // Every echo reached the generator (within the timeout, generous so that a starved loop
            // does not turn a late echo into a loss); after silencing at most the datagram being
            // handled was answered.
            assertThat(s.answered()).isEqualTo(farm.answered(0)).isBetween(answeredBefore, answeredBefore + 1);
            assertThat(s.lost()).isEqualTo(farm.received(0) - farm.answered(0));
        }
    }

    @Test
    void snapshotAfterCloseKeepsTheFinalCounters() {
        UdpTrafficGenerator generator = UdpTrafficGenerator.builder()
                .target(farm.boundAddresses().get(0)).flows(1).ratePerSecond(500).timeoutMs(1_000)
                .start();
        await().atMost(SETTLE).until(() -> generator.snapshot().answered() >= 20);
        generator.close();
        UdpTrafficGenerator.Snapshot last = generator.snapshot();
        assertThat(last.answered()).isGreaterThanOrEqualTo(20);
        assertThat(last.sending()).isFalse();
        assertThat(generator.snapshot()).isEqualTo(last);
        generator.close();
    }

    @Test
    void rejectsBadSettings() {
        assertThatThrownBy(() -> UdpTrafficGenerator.builder().build()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> UdpTrafficGenerator.builder().flows(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> UdpTrafficGenerator.builder().requestBytes(7)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> UdpTrafficGenerator.builder().maxDuration(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aWarmUpIsLeftOutOfTheMeasuredWindowCountsAndLatency() throws Exception {
        // The first requests are answered a second late, the rest at once: those late answers all
        // arrive inside the 2 s warm-up, so the measured window must not see them.
        ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
        try (DatagramSocket responder = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0))) {
            Thread echo = new Thread(() -> {
                int seen = 0;
                try {
                    while (true) {
                        DatagramPacket p = new DatagramPacket(new byte[2048], 2048);
                        responder.receive(p);
                        DatagramPacket answer = new DatagramPacket(
                                Arrays.copyOf(p.getData(), p.getLength()), p.getLength(), p.getSocketAddress());
                        if (seen++ < 5) {
                            later.schedule(() -> send(responder, answer), 1, TimeUnit.SECONDS);
                        } else {
                            send(responder, answer);
                        }
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            }, "late-then-prompt-echo");
            echo.setDaemon(true);
            echo.start();
            try (UdpTrafficGenerator generator = UdpTrafficGenerator.builder()
                    .target((InetSocketAddress) responder.getLocalSocketAddress()).flows(1).ratePerSecond(50)
                    .timeoutMs(3_000).maxDuration(Duration.ofSeconds(3)).start()) {
                generator.markAfter(Duration.ofSeconds(2));
                assertThat(generator.marked()).isNull();
                await().atMost(SETTLE).until(generator::isDone);
                UdpTrafficGenerator.Snapshot last = generator.snapshot();
                UdpTrafficGenerator.Snapshot base = generator.marked();
                UdpTrafficGenerator.Snapshot window = generator.since(last, base);

                assertThat(base).isNotNull();
                assertThat(base.sending()).isTrue();
                assertThat(base.maxMicros()).isGreaterThanOrEqualTo(1_000_000L);
                assertThat(base.sent()).isPositive().isLessThan(last.sent());
                assertThat(window.sent()).isEqualTo(last.sent() - base.sent());
                assertThat(window.answered()).isEqualTo(last.answered() - base.answered()).isPositive();
                assertThat(window.lost()).isZero();
                assertThat(window.maxMicros()).isPositive().isLessThan(1_000_000L);
            }
        } finally {
            later.shutdownNow();
        }
    }

    private static void send(DatagramSocket socket, DatagramPacket p) {
        try {
            socket.send(p);
        } catch (IOException closed) {
            // the test is over
        }
    }
}
