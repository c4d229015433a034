package io.mclb.transaction;

import io.mclb.sticky.StickyChangeListener;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyValue;
import io.mclb.testing.TestStickyKinds;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The accepting answer of an {@code ON_ANSWER} request (a GTP create) writes its subscriber's
 * sticky entry only when that changes something: a returning subscriber accepted by the real its
 * entry names costs no write until the stored expiry lags by the refresh slack (3 s of the test
 * service's 60 s), and an entry removed or re-pointed while the request was in flight is written
 * again by the answer, as before.
 */
class StickyOnAnswerRefreshTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final int STICKY_SECONDS = 60;

    @TempDir
    Path dataDir;
    private RelayHarness h;
    private final AtomicInteger puts = new AtomicInteger();

    @AfterEach
    void stop() throws Exception {
        if (h != null) {
            h.close();
        }
    }

    private void start() throws Exception {
        h = new RelayHarness(dataDir, 2);
        h.service.stickyOnAnswer = true;
        h.runtime.stickyTable().addListener(new StickyChangeListener() {
            @Override
            public void onPut(byte[] key, byte[] value, byte[] previous) {
                puts.incrementAndGet();
            }

            @Override
            public void onRemove(byte[] key, byte[] value, RemoveReason reason) {
            }
        });
    }

    @Test
    void aReturningSubscriberAcceptedByItsRealIsRewrittenOncePerSlack() throws Exception {
        start();
        DatagramSocket c = client();
        create(c, 1);
        assertEquals(1, puts.get(), "a new subscriber's entry is written by the accepting answer");
        long real = entry().realId();
        long t0 = h.clock.epochMillis() / 1000;
        assertEquals(t0 + STICKY_SECONDS, entry().expiresEpochSeconds());

        for (int id = 2; id <= 3; id++) {
            h.clock.advanceSeconds(1);
            create(c, id);
        }
        assertEquals(1, puts.get(), "2 s after the write the entry is current: the answers wrote nothing");
        assertEquals(real, entry().realId());
        assertEquals(t0 + STICKY_SECONDS, entry().expiresEpochSeconds());

        h.clock.advanceSeconds(1);
        create(c, 4);
        assertEquals(2, puts.get(), "at the slack (3 s) the answer refreshes the entry");
        assertEquals(t0 + 3 + STICKY_SECONDS, entry().expiresEpochSeconds());
        assertEquals(real, entry().realId());
    }

    @Test
    void anEntryRemovedWhileTheCreateWasInFlightIsWrittenByItsAnswer() throws Exception {
        start();
        DatagramSocket c = client();
        create(c, 1);
        long real = entry().realId();
        int target = h.reals.indexOf(h.reals.stream().filter(r -> r.count() == 1).findFirst().orElseThrow());
        h.reals.forEach(r -> r.mode(FakeReal.Mode.SILENT));
        byte[] second = RelayHarness.datagram(EchoIdService.REQUEST, 2, "erin", "S-create");
        h.send(c, second);
        await().atMost(WAIT).until(() -> h.reals.get(target).count() == 2);
        // read by the request; now purged (a failed real, clear sticky) before the answer
        h.runtime.stickyTable().remove(key(), StickyChangeListener.RemoveReason.PURGED);

        h.reals.forEach(r -> r.mode(FakeReal.Mode.ANSWER));
        h.send(c, second); // the retransmission reaches the same real, which accepts
        assertEquals(2, h.receive(c).id());
        assertEquals(real, entry().realId(), "the answer wrote the removed entry again");
        assertEquals(2, puts.get());
    }

    /** A client that waits long enough for a first answer on a loaded build box (bounded: 30 s). */
    private DatagramSocket client() throws Exception {
        DatagramSocket c = h.client();
        c.setSoTimeout(30_000);
        return c;
    }

    /** One create of subscriber "erin" with request id {@code id}, accepted (a session answer). */
    private void create(DatagramSocket c, int id) throws Exception {
        h.send(c, RelayHarness.datagram(EchoIdService.REQUEST, id, "erin", "S-create"));
        assertEquals(id, h.receive(c).id());
    }

    private StickyKey key() {
        return new StickyKey().set(TestStickyKinds.RADIUS_USERNAME, EchoIdService.STICKY_GROUP,
                "erin".getBytes(StandardCharsets.UTF_8));
    }

    private StickyValue entry() {
        StickyValue v = new StickyValue();
        if (!h.runtime.stickyTable().get(key(), v, h.clock.epochMillis())) {
            throw new AssertionError("no entry for erin");
        }
        return v;
    }
}
