package io.mclb.transaction;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.mclb.transaction.RelayHarness.datagram;
import static io.mclb.transaction.RelayHarness.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The two engine variations a protocol may ask for, end to end over loopback: ids that pass
 * through to the real unmodified (Mobile IP: the MN-HA authenticator covers the Identification)
 * with collisions on a path handled explicitly, and one-way requests (a WiMAX R6 Ack) that
 * continue the exchange they acknowledge and are never waited for.
 */
class PassThroughAndOneWayTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    @TempDir
    Path dataDir;
    private RelayHarness h;

    @AfterEach
    void stop() throws Exception {
        if (h != null) {
            h.close();
        }
    }

    private void passThrough(int sockets) throws Exception {
        h = new RelayHarness(dataDir, 10_000, s -> {
            s.idsPassThrough = true;
            s.upstreamSockets = sockets;
        }, 1);
    }

    @Test
    void theRealSeesTheClientsOwnIdAndTheAnswerMatchesIt() throws Exception {
        passThrough(1);
        DatagramSocket c = h.client();
        byte[] sent = request(0x4242, "registration");
        h.send(c, sent);
        RelayHarness.Answer a = h.receive(c);
        assertThat(a.id()).isEqualTo(0x4242);
        assertThat(a.payload()).isEqualTo("registration");
        assertThat(a.from()).isEqualTo(h.vip);
        List<FakeReal.Seen> seen = h.reals.get(0).seen();
        assertThat(seen).hasSize(1);
        assertThat(seen.get(0).datagram()).as("forwarded byte for byte").isEqualTo(sent);
    }

    @Test
    void aSecondWaitingRequestWithTheSameIdTakesAnotherSocketAndBothAreAnswered() throws Exception {
        passThrough(2);
        h.reals.get(0).mode(FakeReal.Mode.SILENT);
        DatagramSocket a = h.client();
        DatagramSocket b = h.client();
        h.send(a, request(7, "from-a"));
        h.send(b, request(7, "from-b"));
        await().atMost(WAIT).until(() -> h.reals.get(0).count() == 2);
        List<FakeReal.Seen> seen = h.reals.get(0).seen();
        assertThat(seen).extracting(FakeReal.Seen::id).containsOnly(7);
        assertThat(seen.get(0).sourcePort()).as("two paths: two source ports").isNotEqualTo(seen.get(1).sourcePort());

        // the real answers each on the path it came by; each answer finds its own client
        FakeReal real = h.reals.get(0);
        for (FakeReal.Seen s : seen) {
            byte[] answer = s.datagram().clone();
            answer[0] = EchoIdService.RESPONSE;
            real.send(answer, new InetSocketAddress("127.0.0.1", s.sourcePort()));
        }
        assertThat(h.receive(a).payload()).isEqualTo("from-a");
        assertThat(h.receive(b).payload()).isEqualTo("from-b");
        assertThat(h.drops("upstream_id_in_use")).isZero();
    }

    @Test
    void whenEverySocketHasTheIdWaitingTheRequestIsDroppedAndCountedNotMismatched() throws Exception {
        passThrough(1);
        h.reals.get(0).mode(FakeReal.Mode.SILENT);
        DatagramSocket a = h.client();
        DatagramSocket b = h.client();
        h.send(a, request(9, "first"));
        await().atMost(WAIT).until(() -> h.reals.get(0).count() == 1);
        h.send(b, request(9, "second"));
        await().atMost(WAIT).until(() -> h.drops("upstream_id_in_use") == 1);
        assertThat(h.reals.get(0).count()).as("the second never reached the real").isEqualTo(1);
        assertThat(h.real(0).activeConnections()).as("its hold was given back").isEqualTo(1);

        // once the first is answered, the id is free again on that path
        h.reals.get(0).mode(FakeReal.Mode.ANSWER);
        h.send(a, request(9, "first")); // the first one's retransmission: same path, same id
        assertThat(h.receive(a).payload()).isEqualTo("first");
        h.send(b, request(9, "second"));
        assertThat(h.receive(b).payload()).isEqualTo("second");
    }

    @Test
    void aOneWayRequestContinuesTheExchangeItAcknowledgesOnTheSamePathWithTheSameUpstreamId() throws Exception {
        h = new RelayHarness(dataDir, 3);
        DatagramSocket c = h.client();
        h.send(c, request(0x0505, "req"));
        assertThat(h.receive(c).id()).isEqualTo(0x0505);
        h.send(c, datagram(EchoIdService.ONE_WAY, 0x0505, "", "ack"));
        await().atMost(WAIT).until(() -> h.reals.stream().mapToInt(FakeReal::count).sum() == 2);
        FakeReal got = h.reals.stream().filter(r -> r.count() == 2).findFirst().orElseThrow();
        List<FakeReal.Seen> seen = got.seen();
        assertThat(seen.get(1).id()).as("the ack carries the request's upstream id").isEqualTo(seen.get(0).id());
        assertThat(seen.get(1).sourcePort()).isEqualTo(seen.get(0).sourcePort());
        assertThat(h.counter("mclb.one.way")).isEqualTo(1);
        assertThat(h.counter("mclb.retransmissions")).as("an ack is not a retransmission").isZero();
        assertThat(h.counter("mclb.assignments")).isEqualTo(1);
    }

    @Test
    void aOneWayRequestOfNoTrackedExchangeIsForwardedAndNeverChargedAsUnanswered() throws Exception {
        h = new RelayHarness(dataDir, 1, "faildetect numconns 1");
        DatagramSocket c = h.client();
        h.send(c, datagram(EchoIdService.ONE_WAY, 77, "", "lonely ack"));
        await().atMost(WAIT).until(() -> h.reals.get(0).count() == 1);
        assertThat(h.real(0).activeConnections()).as("no hold: nothing is awaited").isZero();
        h.clock.advanceMillis(RelayHarness.REQUEST_TIMEOUT_MS * 2L);
        await().atMost(WAIT).until(() -> h.gauge("mclb.transactions.active") == 0);
        assertThat(h.counter("mclb.request.timeouts")).isZero();
        assertThat(h.real(0).state().name()).isEqualTo("OPERATIONAL");
        assertThat(h.counter("mclb.one.way")).isEqualTo(1);
        // the real still takes requests
        h.send(c, request(78, "after"));
        assertThat(h.receive(c).payload()).isEqualTo("after");
    }
}
