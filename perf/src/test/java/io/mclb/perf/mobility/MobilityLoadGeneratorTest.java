package io.mclb.perf.mobility;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.mclb.perf.gtp.sim.CauseMix;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MobilityLoadGeneratorTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final Duration SETTLE = Duration.ofSeconds(30);

    private MobilitySimulator sim;

    @AfterEach
    void tearDown() {
        if (sim != null) {
            sim.close();
        }
    }

    @Test
    void closedLoopRegistrationsAreEachAnsweredAndTheRejectsCounted() {
        sim = MobilitySimulator.homeAgents(List.of(new InetSocketAddress(LOOPBACK, 0)), CauseMix.parse("0:75,130:25"), 0, 1);
        try (MobilityLoadGenerator g = MobilityLoadGenerator.builder(new MipLoad(600)).target(sim.boundAddresses().get(0))
                .sockets(3).ratePerSecond(0).window(8).subscribers(1_000).timeoutMs(3_000)
                .maxDuration(Duration.ofMillis(500)).start()) {
            await().atMost(SETTLE).until(g::isDone);
            MobilityLoadGenerator.Snapshot s = g.snapshot();
            assertThat(s.sent()).isPositive().isEqualTo(sim.answered());
            assertThat(s.answered()).isEqualTo(s.sent());
            assertThat(s.accepted()).isPositive();
            assertThat(s.rejected()).isPositive();
            assertThat(s.lost()).isZero();
            assertThat(s.unmatched()).isZero();
            assertThat(s.p50Micros()).isPositive().isLessThanOrEqualTo(s.p99Micros());
        }
    }

    @Test
    void pacedPreAttachmentsStayUnderTheRateAndAreAllAccepted() {
        sim = MobilitySimulator.asnGateways(List.of(new InetSocketAddress(LOOPBACK, 0)), 0);
        try (MobilityLoadGenerator g = MobilityLoadGenerator.builder(new AsnLoad(0x0002_0000_0000L))
                .target(sim.boundAddresses().get(0)).sockets(2).ratePerSecond(1_000).timeoutMs(3_000)
                .maxDuration(Duration.ofMillis(500)).start()) {
            await().atMost(SETTLE).until(g::isDone);
            MobilityLoadGenerator.Snapshot s = g.snapshot();
            // 1000/s for 0.5 s: never more; fewer when a loaded machine stalls the loop
            assertThat(s.sent()).isPositive().isLessThanOrEqualTo(510L);
            assertThat(s.accepted()).isEqualTo(s.sent());
            assertThat(s.lost()).isZero();
        }
    }

    @Test
    void aRequestNobodyAnswersIsLost() throws Exception {
        try (DatagramSocket sink = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0));
             MobilityLoadGenerator g = MobilityLoadGenerator.builder(new MipLoad(600))
                     .target((InetSocketAddress) sink.getLocalSocketAddress()).sockets(1).ratePerSecond(100)
                     .timeoutMs(100).maxDuration(Duration.ofMillis(200)).start()) {
            await().atMost(SETTLE).until(g::isDone);
            MobilityLoadGenerator.Snapshot s = g.snapshot();
            assertThat(s.sent()).isPositive();
            assertThat(s.lost()).isEqualTo(s.sent());
            assertThat(s.answered()).isZero();
        }
    }

    @Test
    void settingsOutsideTheirRangeAreRefusedWithTheirName() {
        MobilityLoadGenerator.Builder b = MobilityLoadGenerator.builder(new MipLoad(600));
        // the flow number sits in 8 bits of a Mobile IP Identification
        assertThatThrownBy(() -> b.sockets(257)).hasMessage("sockets must be in 1..256: 257");
        assertThatThrownBy(() -> b.window(0)).hasMessage("window must be in 1..4096: 0");
        assertThatThrownBy(() -> b.maxDuration(Duration.ofSeconds(-1))).hasMessageContaining("maxDuration must be positive");
        assertThatThrownBy(b::start).isInstanceOf(IllegalStateException.class).hasMessage("target is required");
    }
}
