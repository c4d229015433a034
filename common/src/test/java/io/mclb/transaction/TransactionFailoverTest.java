package io.mclb.transaction;

import io.mclb.testing.TestStickyKinds;
import io.mclb.farm.RealState;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyKind;
import io.mclb.sticky.StickyValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.mclb.transaction.RelayHarness.request;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Retransmissions, reassignment (unanswered and by verdict), request timeouts feeding failure
 * detection, and sticky assignment, end to end over loopback with a manual clock for the timers.
 */
class TransactionFailoverTest {
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

    /** Index of the one real that has seen more requests than {@code before}. */
    private int realThatGot(int... before) {
        for (int i = 0; i < h.reals.size(); i++) {
            if (h.reals.get(i).count() > before[i]) {
                return i;
            }
        }
        return -1;
    }

    private int[] counts() {
        return h.reals.stream().mapToInt(FakeReal::count).toArray();
    }

    @Test
    void unansweredRetransmissionsStayOnOneRealThenMoveAfterReassign() throws Exception {
        h = new RelayHarness(dataDir, 2, "reassign 2");
        h.reals.forEach(r -> r.mode(FakeReal.Mode.SILENT));
        DatagramSocket c = h.client();
        h.send(c, request(0x0A0B, "retry-me"));
        await().atMost(WAIT).until(() -> realThatGot(0, 0) >= 0);
        int first = realThatGot(0, 0);
        int other = 1 - first;
        FakeReal silent = h.reals.get(first);
        h.reals.get(other).mode(FakeReal.Mode.ANSWER);

        h.send(c, request(0x0A0B, "retry-me")); // retransmission 1 of reassign 2: same real, same id
        await().atMost(WAIT).until(() -> silent.count() == 2);
        List<FakeReal.Seen> seen = silent.seen();
        assertEquals(seen.get(0).id(), seen.get(1).id(), "a retransmission keeps its upstream id");
        assertEquals(seen.get(0).sourcePort(), seen.get(1).sourcePort());
        assertEquals(0, h.real(first).failures());

        h.send(c, request(0x0A0B, "retry-me")); // retransmission 2: moves
        RelayHarness.Answer r = h.receive(c);
        assertEquals(0x0A0B, r.id());
        assertEquals("retry-me", r.payload());
        assertEquals(h.vip, r.from());
        assertEquals(2, silent.count());
        assertEquals(1, h.reals.get(other).count());
        assertEquals(1, h.real(first).failures());
        assertEquals(1, h.counter("mclb.reassignments", "reason", "unanswered"));
        assertEquals(2, h.counter("mclb.retransmissions"));
    }

    @Test
    void aRealThatGotTheRequestLateIsNotChargedWhenItTimesOut() throws Exception {
        h = new RelayHarness(dataDir, 2, "reassign 2");
        h.reals.forEach(r -> r.mode(FakeReal.Mode.SILENT));
        DatagramSocket c = h.client();
        h.send(c, request(5, "late"));
        await().atMost(WAIT).until(() -> realThatGot(0, 0) >= 0);
        int first = realThatGot(0, 0);
        FakeReal second = h.reals.get(1 - first);
        h.clock.advanceMillis(RelayHarness.REQUEST_TIMEOUT_MS - 50);
        h.send(c, request(5, "late"));
        h.send(c, request(5, "late"));
        await().atMost(WAIT).until(() -> second.count() == 1);
        assertEquals(1, h.real(first).failures());

        h.clock.advanceMillis(60); // the request's timeout, but only 60 ms after the second real got it
        await().atMost(WAIT).until(() -> h.counter("mclb.request.timeouts") == 1);
        assertEquals(0, h.real(1 - first).failures(), "60 ms is not a fair chance to answer");
        assertEquals(0, h.real(0).activeConnections() + h.real(1).activeConnections());
    }

    @Test
    void retransmissionsStillReachTheOnlyRealWhenThereIsNoneToMoveTo() throws Exception {
        h = new RelayHarness(dataDir, 1, "reassign 2");
        FakeReal only = h.reals.get(0);
        only.mode(FakeReal.Mode.SILENT);
        DatagramSocket c = h.client();
        for (int copy = 1; copy <= 5; copy++) {
            h.send(c, request(0x77, "again"));
            int expected = copy;
            await().atMost(WAIT).until(() -> only.count() == expected);
        }
        List<FakeReal.Seen> seen = only.seen();
        for (FakeReal.Seen s : seen) {
            assertEquals(seen.get(0).id(), s.id(), "every copy keeps the one upstream id");
        }
        assertEquals(0, h.drops("no_real_available"));
        assertEquals(2, h.real(0).failures(), "one failure per 'reassign' unanswered retransmissions");
        assertEquals(0, h.counter("mclb.reassignments", "reason", "unanswered"));

        only.mode(FakeReal.Mode.ANSWER);
        h.send(c, request(0x77, "again"));
        assertEquals(0x77, h.receive(c).id());
        assertEquals(0, h.real(0).activeConnections(), "the answered request released its hold");
    }

    @Test
    void unansweredRequestsTimeOutAndFailTheReal() throws Exception {
        h = new RelayHarness(dataDir, 2, "faildetect numconns 2");
        FakeReal silent = h.reals.get(0);
        silent.mode(FakeReal.Mode.SILENT);
        List<DatagramSocket> waiting = new ArrayList<>();
        for (int i = 0; silent.count() < 2; i++) {
            assertTrue(i < 20, "weighted round robin never chose the silent real");
            DatagramSocket c = h.client();
            int[] before = counts();
            h.send(c, request(i, "r" + i));
            await().atMost(WAIT).until(() -> realThatGot(before) >= 0);
            if (realThatGot(before) == 1) {
                assertEquals(i, h.receive(c).id());
            } else {
                waiting.add(c);
            }
        }
        assertEquals(0, h.counter("mclb.request.timeouts"));
        h.clock.advanceMillis(RelayHarness.REQUEST_TIMEOUT_MS - 1);
        assertEquals(0, h.counter("mclb.request.timeouts"), "not before the timeout");

        h.clock.advanceMillis(2);
        await().atMost(WAIT).until(() -> h.counter("mclb.request.timeouts") == 2);
        assertEquals(2, h.real(0).failures());
        assertEquals(RealState.FAILED, h.real(0).state());
        assertEquals(0, h.real(1).failures());

        for (int i = 100; i < 106; i++) {
            DatagramSocket c = h.client();
            h.send(c, request(i, "after"));
            assertEquals(i, h.receive(c).id());
        }
        assertEquals(2, silent.count(), "a FAILED real gets no new requests");
        assertEquals(0, h.real(0).activeConnections(), "timed-out requests release their real");

        // after retry (IOS default 60 s) the failed real gets one test request; its answer unfails it
        silent.mode(FakeReal.Mode.ANSWER);
        h.clock.advanceSeconds(60);
        for (int i = 200; h.real(0).state() != RealState.OPERATIONAL; i++) {
            assertTrue(i < 210, "no test request reached the failed real");
            DatagramSocket c = h.client();
            h.send(c, request(i, "probe"));
            assertEquals(i, h.receive(c).id());
        }
        assertEquals(3, silent.count());
    }

    @Test
    void rejectIsNeverForwardedAndTheRequestMovesToAnotherReal() throws Exception {
        h = new RelayHarness(dataDir, 2);
        FakeReal rejecting = h.reals.get(0);
        rejecting.mode(FakeReal.Mode.REJECT);
        for (int i = 0; i < 4; i++) {
            DatagramSocket c = h.client();
            h.send(c, request(0x100 + i, "p" + i));
            RelayHarness.Answer r = h.receive(c);
            assertEquals(EchoIdService.RESPONSE, r.type(), "the client never sees the reject");
            assertEquals(0x100 + i, r.id());
            assertEquals("p" + i, r.payload());
        }
        assertEquals(4, h.reals.get(1).count());
        int rejects = rejecting.count();
        assertTrue(rejects >= 1, "round robin must have tried the rejecting real");
        assertEquals(rejects, h.counter("mclb.reassignments", "reason", "cause"));
        assertEquals(rejects, h.real(0).failures());
        assertEquals(0, h.real(1).activeConnections(), "answered requests hold no connection");
        assertEquals(0, h.real(0).activeConnections());
    }

    @Test
    void rejectedEverywhereIsDroppedAsNoRealAvailable() throws Exception {
        h = new RelayHarness(dataDir, 2);
        h.reals.forEach(r -> r.mode(FakeReal.Mode.REJECT));
        DatagramSocket c = h.client();
        h.send(c, request(9, "nobody"));
        await().atMost(WAIT).until(() -> h.drops("no_real_available") == 1);
        assertEquals(1, h.reals.get(0).count());
        assertEquals(1, h.reals.get(1).count());
        assertEquals(0, h.real(0).activeConnections() + h.real(1).activeConnections());
        assertEquals(1, h.counter("mclb.reassignments", "reason", "cause"), "counts moves, not rejects");
    }

    @Test
    void sameStickyBytesReachTheSameReal() throws Exception {
        h = new RelayHarness(dataDir, 3);
        int[] before = counts();
        for (int i = 0; i < 12; i++) {
            DatagramSocket c = h.client();
            h.send(c, RelayHarness.datagram(EchoIdService.REQUEST, i, "alice", "x"));
            assertEquals(i, h.receive(c).id());
        }
        int target = realThatGot(before);
        assertEquals(12, h.reals.get(target).count(), "every 'alice' request on one real");
        assertEquals(h.real(target).id(), stickyReal("alice"));

        int[] mid = counts();
        for (int i = 0; i < 3; i++) {
            DatagramSocket c = h.client();
            h.send(c, RelayHarness.datagram(EchoIdService.REQUEST, i, "bob" + i, "x"));
            h.receive(c);
        }
        int spread = 0;
        for (int i = 0; i < 3; i++) {
            spread += h.reals.get(i).count() > mid[i] ? 1 : 0;
        }
        assertTrue(spread > 1, "different sticky keys are balanced");
    }

    @Test
    void aRejectRepointsTheStickyEntryToTheRealThatAnswered() throws Exception {
        h = new RelayHarness(dataDir, 2);
        FakeReal rejecting = h.reals.get(0);
        rejecting.mode(FakeReal.Mode.REJECT);
        String key = null;
        for (int k = 0; key == null; k++) {
            assertTrue(k < 10, "round robin never chose the rejecting real");
            int before = rejecting.count();
            DatagramSocket c = h.client();
            h.send(c, RelayHarness.datagram(EchoIdService.REQUEST, k, "erin" + k, "x"));
            assertEquals(EchoIdService.RESPONSE, h.receive(c).type());
            key = rejecting.count() > before ? "erin" + k : null;
        }
        assertEquals(h.real(1).id(), stickyReal(key), "the entry follows the request to the real that answered");
        int rejects = rejecting.count();
        for (int i = 0; i < 5; i++) {
            DatagramSocket c = h.client();
            h.send(c, RelayHarness.datagram(EchoIdService.REQUEST, i, key, "x"));
            assertEquals(EchoIdService.RESPONSE, h.receive(c).type());
        }
        assertEquals(rejects, rejecting.count());
    }

    @Test
    void stickyOnAnswerIsWrittenOnlyWhenTheSessionIsAccepted() throws Exception {
        h = new RelayHarness(dataDir, 2);
        h.service.stickyOnAnswer = true;
        h.reals.forEach(r -> r.mode(FakeReal.Mode.SILENT));
        DatagramSocket c = h.client();
        byte[] create = RelayHarness.datagram(EchoIdService.REQUEST, 77, "carol", "S-create");
        h.send(c, create);
        await().atMost(WAIT).until(() -> realThatGot(0, 0) >= 0);
        int target = realThatGot(0, 0);
        assertEquals(-1, stickyReal("carol"), "no entry while the request is unanswered");

        h.reals.forEach(x -> x.mode(FakeReal.Mode.ANSWER));
        h.send(c, create); // retransmission reaches the same real, which now accepts
        RelayHarness.Answer r = h.receive(c);
        assertEquals(77, r.id());
        assertEquals(h.real(target).id(), stickyReal("carol"));
        assertEquals(1, h.real(target).activeConnections(), "FORWARD_SESSION keeps the session's hold");

        h.send(c, RelayHarness.datagram(EchoIdService.REQUEST, 5, "dave", "plain"));
        h.receive(c);
        assertEquals(-1, stickyReal("dave"), "an answer that is not a session writes no entry");
    }

    @Test
    void followUpGoesToTheRealItBelongsToWhileThatRealCanTakeIt() throws Exception {
        h = new RelayHarness(dataDir, 2);
        for (int i = 0; i < 4; i++) {
            DatagramSocket c = h.client();
            h.send(c, followUp(i, h.real(1).id()));
            RelayHarness.Answer r = h.receive(c);
            assertEquals(i, r.id());
            assertEquals(h.vip, r.from());
        }
        assertEquals(0, h.reals.get(0).count());
        assertEquals(4, h.reals.get(1).count());

        h.real(1).fail(h.clock.nanoTime(), "test");
        DatagramSocket c = h.client();
        h.send(c, followUp(9, h.real(1).id()));
        assertEquals(9, h.receive(c).id(), "a follow-up of a failed real is balanced like a new request");
        h.send(c, followUp(10, 12345L));
        assertEquals(10, h.receive(c).id(), "a follow-up of an unknown real too");
        assertEquals(2, h.reals.get(0).count());
        assertEquals(4, h.reals.get(1).count());
    }

    private static byte[] followUp(int id, long realId) {
        byte[] d = RelayHarness.datagram(EchoIdService.FOLLOW_UP, id, "12345678", "f");
        java.nio.ByteBuffer.wrap(d, 4, 8).putLong(realId);
        return d;
    }

    private long stickyReal(String sticky) {
        StickyKey k = new StickyKey().set(TestStickyKinds.RADIUS_USERNAME, EchoIdService.STICKY_GROUP,
                sticky.getBytes(StandardCharsets.UTF_8));
        StickyValue v = new StickyValue();
        return h.runtime.stickyTable().get(k, v, h.clock.epochMillis()) ? v.realId() : -1;
    }
}
