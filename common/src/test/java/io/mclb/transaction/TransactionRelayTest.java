package io.mclb.transaction;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.mclb.transaction.RelayHarness.request;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The transaction path end to end over loopback: id rewriting and restoring, answers from the
 * virtual address, local answers, bad input, unknown responses and lingering transactions.
 */
class TransactionRelayTest {
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

    @Test
    void answerComesFromTheVirtualAddressWithTheClientsIdRestored() throws Exception {
        h = new RelayHarness(dataDir, 1);
        DatagramSocket a = h.client();
        DatagramSocket b = h.client();
        h.send(a, request(0x1234, "from-a"));
        RelayHarness.Answer ra = h.receive(a);
        h.send(b, request(0x1234, "from-b"));
        RelayHarness.Answer rb = h.receive(b);

        assertEquals(h.vip, ra.from(), "answer must leave from the virtual address and port");
        assertEquals(h.vip, rb.from());
        assertEquals(EchoIdService.RESPONSE, ra.type());
        assertEquals(0x1234, ra.id());
        assertEquals("from-a", ra.payload());
        assertEquals(0x1234, rb.id());
        assertEquals("from-b", rb.payload());

        List<FakeReal.Seen> seen = h.reals.get(0).seen();
        assertEquals(2, seen.size());
        assertNotEquals(seen.get(0).id(), seen.get(1).id(), "two requests in flight on one path share no id");
        assertTrue(seen.get(0).id() != 0x1234 || seen.get(1).id() != 0x1234, "the real sees rewritten ids");
        int upstreamPort = seen.get(0).sourcePort();
        assertNotEquals(h.vip.getPort(), upstreamPort, "requests reach the real from mclb's upstream socket");
        assertNotEquals(a.getLocalPort(), upstreamPort);
        assertEquals(2, h.counter("mclb.responses"));
        assertEquals(2, h.counter("mclb.real.requests", "real", h.real(0).label()));
    }

    @Test
    void aFullStickyTableStillBalancesEveryRequestAndCountsTheMissingEntries() throws Exception {
        h = new RelayHarness(dataDir, 1000, 2);
        DatagramSocket c = h.client();
        int subscribers = 6000; // Chronicle takes about twice the configured entries before refusing
        for (int i = 0; i < subscribers; i++) {
            // the second half writes its entries when the answer comes, the first half at assignment
            h.service.stickyOnAnswer = i >= subscribers / 2;
            h.send(c, RelayHarness.datagram(EchoIdService.REQUEST, i & 0xffff, "sub-" + i, "p" + i));
            RelayHarness.Answer a = h.receive(c);
            assertEquals(i & 0xffff, a.id());
            assertEquals("p" + i, a.payload());
        }
        double refused = h.runtime.registry().get(io.mclb.metrics.MetricNames.STICKY_REFUSED_FULL).functionCounter()
                .count();
        assertTrue(refused > 0, "the table filled up");
        assertEquals(refused, h.runtime.stickyTable().refusedFull());
        assertEquals(0, h.drops("internal_error"));
        assertEquals(subscribers, h.counter("mclb.responses"));
        assertEquals(0, h.real(0).activeConnections() + h.real(1).activeConnections(),
                "every answered request gave its real back");
    }

    @Test
    void aNarrowIdSpaceIsMultipliedByTheUpstreamSockets() throws Exception {
        h = new RelayHarness(dataDir, 10_000, s -> {
            s.idBits = 8;          // RADIUS-like: 256 ids per path
            s.upstreamSockets = 4; // four paths to the one real
        }, 1);
        h.reals.get(0).mode(FakeReal.Mode.SILENT); // every request stays in flight
        DatagramSocket c = h.client();
        for (int i = 0; i < 1034; i++) {
            h.send(c, request(i, "x"));
            if (i % 64 == 63 && i < 1024) { // paced: the fake real's socket buffer is small
                int sent = i + 1;
                await().atMost(Duration.ofSeconds(20)).until(() -> h.reals.get(0).count() == sent);
            }
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> h.reals.get(0).count() == 1024
                && h.drops("id_space_exhausted") == 10);
        List<FakeReal.Seen> seen = h.reals.get(0).seen();
        assertEquals(4, seen.stream().mapToInt(FakeReal.Seen::sourcePort).distinct().count(),
                "the requests left from four upstream sockets");
        assertEquals(1024, seen.stream().map(x -> x.sourcePort() + "/" + x.id()).distinct().count(),
                "each (socket, id) pair names one request");
    }

    @Test
    void concurrentRequestsWithTheSameClientIdEachGetTheirOwnAnswer() throws Exception {
        h = new RelayHarness(dataDir, 2);
        int n = 300;
        List<DatagramSocket> clients = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            clients.add(h.client());
        }
        for (int i = 0; i < n; i++) {
            h.send(clients.get(i), request(7, "client-" + i));
        }
        for (int i = 0; i < n; i++) {
            RelayHarness.Answer r = h.receive(clients.get(i));
            assertEquals(7, r.id(), "client " + i);
            assertEquals("client-" + i, r.payload(), "client " + i + " got someone else's answer");
            assertEquals(h.vip, r.from());
        }
        int total = 0;
        for (FakeReal real : h.reals) {
            Set<Integer> ids = new HashSet<>();
            for (FakeReal.Seen s : real.seen()) {
                assertTrue(ids.add(s.id()), "upstream id " + s.id() + " reused on one path while in flight");
            }
            total += ids.size();
        }
        assertEquals(n, total);
        assertEquals(0, h.drops("unknown_response"));
    }

    @Test
    void localEchoIsAnsweredByMclbWithoutAnyReal() throws Exception {
        h = new RelayHarness(dataDir, 2);
        DatagramSocket c = h.client();
        h.send(c, RelayHarness.datagram(EchoIdService.LOCAL_ECHO, 0xBEEF, "", ""));
        RelayHarness.Answer r = h.receive(c);
        assertEquals(EchoIdService.RESPONSE, r.type());
        assertEquals(0xBEEF, r.id());
        assertEquals(h.vip, r.from());
        assertEquals(1, h.counter("mclb.local.answers"));
        assertEquals(0, h.reals.get(0).count() + h.reals.get(1).count());
    }

    @Test
    void malformedRequestsAreDroppedAndCountedAndTheRelayKeepsWorking() throws Exception {
        h = new RelayHarness(dataDir, 1);
        DatagramSocket c = h.client();
        h.send(c, new byte[] {1, 0});                          // truncated header
        h.send(c, new byte[] {1, 0, 5, 4, 'a'});               // sticky length beyond the datagram
        h.send(c, RelayHarness.datagram(9, 5, "", "x"));       // unknown type
        h.send(c, RelayHarness.datagram(EchoIdService.RESPONSE, 5, "", "x")); // a response sent to the VIP
        await().atMost(WAIT).until(() -> h.drops("malformed") == 4);
        h.send(c, new byte[0]);                                // empty
        h.send(c, request(5, "after"));
        RelayHarness.Answer r = h.receive(c);
        assertEquals("after", r.payload());
        assertEquals(5, r.id());
        await().atMost(WAIT).until(() -> h.drops("malformed") == 5);
        assertEquals(1, h.reals.get(0).count());
    }

    @Test
    void responseWithAnUnknownIdIsDroppedAsUnknownResponse() throws Exception {
        h = new RelayHarness(dataDir, 1);
        DatagramSocket c = h.client();
        FakeReal real = h.reals.get(0);
        h.send(c, request(1, "x"));
        h.receive(c);
        int used = real.seen().get(0).id();
        InetSocketAddress upstream = real.lastPeer();
        InetSocketAddress toMclb = new InetSocketAddress("127.0.0.1", upstream.getPort());
        real.send(RelayHarness.datagram(EchoIdService.RESPONSE, (used + 1000) & 0xffff, "", "stray"), toMclb);
        await().atMost(WAIT).until(() -> h.drops("unknown_response") == 1);
        real.send(RelayHarness.datagram(EchoIdService.REQUEST, 1, "", "not a response"), toMclb);
        await().atMost(WAIT).until(() -> h.drops("malformed") == 1);
        c.setSoTimeout(200);
        assertTrue(noDatagram(c), "the stray response must not reach any client");
    }

    @Test
    void lateRetransmissionOfAnAnsweredRequestIsAnsweredAgain() throws Exception {
        h = new RelayHarness(dataDir, 2);
        DatagramSocket c = h.client();
        h.send(c, request(42, "once"));
        assertEquals(42, h.receive(c).id());
        h.send(c, request(42, "once"));
        RelayHarness.Answer again = h.receive(c);
        assertEquals(42, again.id());
        assertEquals("once", again.payload());
        assertEquals(h.vip, again.from());

        List<FakeReal.Seen> all = new ArrayList<>();
        h.reals.forEach(r -> all.addAll(r.seen()));
        assertEquals(2, all.size(), "both copies reach the same real, one real only");
        assertTrue(h.reals.get(0).count() == 2 || h.reals.get(1).count() == 2);
        assertEquals(all.get(0).id(), all.get(1).id(), "the retransmission keeps its upstream id");
        assertEquals(1, h.counter("mclb.retransmissions"));
        assertEquals(2, h.counter("mclb.responses"));

        // once it has aged out, the same id is a new request; an answered one never counts as a timeout
        assertEquals(1, h.gauge("mclb.transactions.active"), "the answered transaction lingers");
        h.clock.advanceMillis(RelayHarness.REQUEST_TIMEOUT_MS);
        await().atMost(WAIT).until(() -> h.gauge("mclb.transactions.active") == 0);
        h.send(c, request(42, "new"));
        assertEquals("new", h.receive(c).payload());
        assertEquals(1, h.counter("mclb.retransmissions"), "after ageing the same id is a new request");
        assertEquals(0, h.counter("mclb.request.timeouts"));
        assertEquals(0, h.real(0).activeConnections() + h.real(1).activeConnections());
    }

    @Test
    void answerJudgedDropIsNotForwarded() throws Exception {
        h = new RelayHarness(dataDir, 1);
        DatagramSocket c = h.client();
        h.send(c, request(3, "Drop-me"));
        await().atMost(WAIT).until(() -> h.drops("rejected_by_inspector") == 1);
        h.send(c, request(4, "keep"));
        assertEquals("keep", h.receive(c).payload());
        assertEquals(1, h.counter("mclb.responses"));
    }

    private static boolean noDatagram(DatagramSocket c) throws java.io.IOException {
        try {
            c.receive(new java.net.DatagramPacket(new byte[64], 64));
            return false;
        } catch (java.net.SocketTimeoutException expected) {
            return true;
        }
    }
}
