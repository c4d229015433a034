package io.mclb.perf.radius.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mclb.perf.radius.sim.AaaFailure;
import io.mclb.perf.radius.sim.AaaSimulator;
import io.mclb.radius.codec.RadiusCodes;
import io.mclb.radius.codec.RadiusSecret;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RadiusLoadGeneratorTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final Duration SETTLE = Duration.ofSeconds(30);
    private static final RadiusSecret SECRET = RadiusSecret.ofString("aaa-secret");

    private AaaSimulator sim;

    @AfterEach
    void tearDown() {
        if (sim != null) {
            sim.close();
        }
    }

    private void startSim(AaaSimulator.Builder b) {
        sim = b.listenAuth(new InetSocketAddress(LOOPBACK, 0)).listenAcct(new InetSocketAddress(LOOPBACK, 0))
                .secret(SECRET).password("pw").start();
    }

    private RadiusLoadGenerator.Builder generator(RadiusLoadGenerator.Kind kind) {
        InetSocketAddress target = kind == RadiusLoadGenerator.Kind.AUTH ? sim.authAddresses().get(0)
                : sim.acctAddresses().get(0);
        return RadiusLoadGenerator.builder().target(target).source(LOOPBACK).kind(kind).secret(SECRET).password("pw")
                .sockets(4).subscribers(1_000).timeoutMs(3_000).maxDuration(Duration.ofMillis(500));
    }

    @ParameterizedTest
    @CsvSource({"AUTH, true", "AUTH, false", "ACCT, true", "ACCT, false"})
    void closedLoopGetsEveryAnswerVerified(RadiusLoadGenerator.Kind kind, boolean messageAuthenticator) {
        startSim(AaaSimulator.builder());
        try (RadiusLoadGenerator g = generator(kind).ratePerSecond(0).window(16)
                .messageAuthenticator(messageAuthenticator).start()) {
            await().atMost(SETTLE).until(g::isDone);
            RadiusLoadGenerator.Snapshot s = g.snapshot();
            assertThat(s.sent()).isPositive();
            assertThat(s.answered()).isEqualTo(s.sent());
            assertThat(kind == RadiusLoadGenerator.Kind.AUTH ? s.accepts() : s.acctResponses()).isEqualTo(s.sent());
            assertThat(s.badAuthenticators()).isZero();
            assertThat(s.lost()).isZero();
            assertThat(s.unmatched()).isZero();
            assertThat(s.p50Micros()).isPositive().isLessThanOrEqualTo(s.p99Micros());
            int code = kind == RadiusLoadGenerator.Kind.AUTH ? RadiusCodes.ACCESS_REQUEST : RadiusCodes.ACCOUNTING_REQUEST;
            assertThat(sim.received(code)).isEqualTo(s.sent());
        }
        assertThat(sim.badAuthenticators()).isZero();
        assertThat(sim.badPasswords()).as("User-Password hidden so the simulator reveals it").isZero();
    }

    /** With the hint each Access-Request names its subscriber's address, framedBase + i, as its accounting does; without it none. */
    @ParameterizedTest
    @CsvSource({"true", "false"})
    void framedHintsNameEachSubscribersAddress(boolean hint) throws Exception {
        try (java.net.DatagramSocket aaa = new java.net.DatagramSocket(0, LOOPBACK)) {
            aaa.setSoTimeout(5_000);
            try (RadiusLoadGenerator g = RadiusLoadGenerator.builder().target((InetSocketAddress) aaa.getLocalSocketAddress())
                    .source(LOOPBACK).kind(RadiusLoadGenerator.Kind.AUTH).secret(SECRET).password("pw").sockets(1)
                    .window(4).ratePerSecond(0).subscribers(3).framedHint(hint).timeoutMs(3_000)
                    .maxDuration(Duration.ofMillis(200)).start()) {
                for (int i = 0; i < 4; i++) {
                    java.net.DatagramPacket d = new java.net.DatagramPacket(new byte[4096], 4096);
                    aaa.receive(d);
                    org.tinyradius.packet.RadiusPacket r = org.tinyradius.packet.RadiusPacket.decodeRequestPacket(
                            io.mclb.radius.codec.Dictionaries.standard(),
                            new java.io.ByteArrayInputStream(d.getData(), 0, d.getLength()), "aaa-secret");
                    assertThat(r.getAttributeValue("Framed-IP-Address")).as("request %d", i)
                            .isEqualTo(hint ? "10.64.0." + (i % 3) : null);
                }
            }
        }
    }

    @Test
    void pacedLoadCountsRejects() {
        startSim(AaaSimulator.builder().rejectPercent(30));
        try (RadiusLoadGenerator g = generator(RadiusLoadGenerator.Kind.AUTH).ratePerSecond(2_000).start()) {
            await().atMost(SETTLE).until(g::isDone);
            RadiusLoadGenerator.Snapshot s = g.snapshot();
            assertThat(s.sent()).isBetween(500L, 1_500L);
            assertThat(s.rejects()).isPositive();
            assertThat(s.accepts()).isPositive();
            assertThat(s.answered()).isEqualTo(s.sent());
            assertThat(s.badAuthenticators()).isZero();
        }
    }

    @Test
    void answersSignedWithAnotherSecretAreAllBad() {
        startSim(AaaSimulator.builder().failure(AaaFailure.WRONG_SECRET));
        try (RadiusLoadGenerator g = generator(RadiusLoadGenerator.Kind.AUTH).ratePerSecond(0).window(8).start()) {
            await().atMost(SETTLE).until(g::isDone);
            RadiusLoadGenerator.Snapshot s = g.snapshot();
            assertThat(s.sent()).isPositive();
            assertThat(s.badAuthenticators()).isEqualTo(s.sent());
            assertThat(s.answered()).isZero();
        }
    }

    @Test
    void requestsSignedWithAnotherSecretAreDroppedByTheServerAndLost() {
        startSim(AaaSimulator.builder());
        try (RadiusLoadGenerator g = generator(RadiusLoadGenerator.Kind.ACCT).secret(RadiusSecret.ofString("nope"))
                .ratePerSecond(1_000).timeoutMs(200).maxDuration(Duration.ofMillis(200)).start()) {
            await().atMost(SETTLE).until(g::isDone);
            RadiusLoadGenerator.Snapshot s = g.snapshot();
            assertThat(s.sent()).isPositive();
            assertThat(s.lost()).isEqualTo(s.sent());
            assertThat(sim.badAuthenticators()).isEqualTo(s.sent());
        }
    }
}
