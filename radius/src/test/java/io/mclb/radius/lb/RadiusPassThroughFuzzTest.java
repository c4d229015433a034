package io.mclb.radius.lb;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The storm of {@link RadiusServiceFuzzTest} (valid, mutated, broken, garbage and retransmitted
 * requests from two NASes) against pass-through virtual servers, whose fakes answer each request
 * with a correct answer, a mutated one, a wrong code, garbage or nothing. Per window of 32:
 * <ul>
 * <li>nothing mclb forwarded was changed: every datagram a fake received is byte for byte one a
 *     NAS sent, and every datagram a NAS received from a virtual server is one a fake sent;</li>
 * <li>the datagram balance: drops (less {@code upstream_id_in_use}, counted after an assignment)
 *     + assignments + retransmissions + responses == requests + answers from the fakes;</li>
 * <li>{@code internal_error} is 0.</li>
 * </ul>
 * Afterwards a valid Access-Request is still answered. Seeded: a failure replays.
 */
class RadiusPassThroughFuzzTest {
    private static final long SEED = 0x5041535354485255L;
    private static final int WINDOWS = 60;
    private static final int WINDOW = 32;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String[] VSERVERS = {"RADIUS-AUTH", "RADIUS-ACCT"};
    private static final HexFormat HEX = HexFormat.of();

    @TempDir
    Path dataDir;
    private RadiusHarness h;
    private final Set<String> sentByNases = ConcurrentHashMap.newKeySet();
    private final Set<String> sentByFakes = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<String> changed = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<byte[]> received = new ConcurrentLinkedQueue<>();
    private final AtomicLong nasReceived = new AtomicLong();

    @AfterEach
    void stop() throws Exception {
        if (h != null) {
            h.close();
        }
    }

    /** A fake AAA without a secret's worth of care: any answer, or none. */
    private FakeAaa.Responder responder(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        return (request, secret) -> {
            if (!sentByNases.contains(HEX.formatHex(request))) {
                changed.add(HEX.formatHex(request));
            }
            if (request.length < 20) {
                return List.of();
            }
            int code = request[0] & 0xff;
            int right = code == 4 ? 5 : code == 40 ? 41 : code == 43 ? 44 : 2;
            byte[] a;
            int roll = rnd.nextInt(10);
            if (roll == 0) {
                return List.of();
            } else if (roll < 6) {
                a = RadiusPassThroughTest.answer(request, right);
            } else if (roll == 6) {
                a = RadiusPassThroughTest.answer(request, right == 5 ? 2 : 5); // a code that does not answer it
            } else if (roll == 7) {
                a = RadiusPassThroughTest.answer(request, right, RadiusWire.attr(18, "x".getBytes()));
                a[20 + rnd.nextInt(a.length - 20)] ^= (byte) (1 + rnd.nextInt(255)); // broken inside its attributes
            } else if (roll == 8) {
                a = Arrays.copyOf(RadiusPassThroughTest.answer(request, right), 4 + rnd.nextInt(16)); // truncated
            } else {
                a = new byte[20 + rnd.nextInt(60)];
                rnd.nextBytes(a);
                a[1] = request[1];
            }
            sentByFakes.add(HEX.formatHex(a));
            return List.of(a);
        };
    }

    private DatagramSocket listen(String address) throws Exception {
        return h.listen(address, (wire, from) -> {
            received.add(wire);
            nasReceived.incrementAndGet();
        });
    }

    @Test
    void nothingForwardedIsChangedEveryDatagramIsAccountedForNeverAnInternalError() throws Exception {
        h = new RadiusHarness(dataDir, RadiusPassThroughTest.passThroughConfig(" idle radius request 1\n",
                " idle radius request 1\n").replace("  reassign 2\n", "  reassign 2\n  faildetect numconns 255\n"),
                RadiusHarness.NAS_SECRET);
        int i = 0;
        for (FakeAaa f : h.auth.values()) {
            f.responder = responder(SEED + ++i);
        }
        for (FakeAaa f : h.acct.values()) {
            f.responder = responder(SEED + ++i);
        }
        DatagramSocket[] nas = {listen("127.0.0.1"), listen("127.0.0.2")};
        RadiusFuzzRequests stream = new RadiusFuzzRequests(new SplittableRandom(SEED),
                new int[] {h.vauth, h.vacct, h.vacct}, RadiusHarness.NAS_SECRET, "other-secret");
        long sent = 0;
        for (int w = 0; w < WINDOWS; w++) {
            for (int k = 0; k < WINDOW; k++) {
                RadiusFuzzRequests.Shot s = stream.next();
                sentByNases.add(HEX.formatHex(s.wire()));
                nas[s.socket()].send(new DatagramPacket(s.wire(), s.wire().length,
                        InetAddress.getByName("127.0.0.100"), s.port()));
                sent++;
            }
            long want = sent;
            int window = w;
            await("window " + w + ": every datagram reached mclb").atMost(WAIT).pollInterval(Duration.ofMillis(1))
                    .until(() -> total("mclb.requests") == want);
            await("window " + w + ": the fakes handled every forwarded request").atMost(WAIT)
                    .pollInterval(Duration.ofMillis(1)).until(() -> fakes(true) == total("mclb.real.requests"));
            await().atMost(WAIT).pollInterval(Duration.ofMillis(1)).untilAsserted(() -> assertThat(
                    total("mclb.drops") - total("mclb.drops", "reason", "upstream_id_in_use") + total("mclb.assignments")
                            + total("mclb.retransmissions") + total("mclb.responses"))
                    .as("window %d: drops - upstream_id_in_use + assignments + retransmissions + responses == requests"
                            + " + answers from reals; drops %s", window, dropsByReason())
                    .isEqualTo(total("mclb.requests") + fakes(false)));
            await().atMost(WAIT).pollInterval(Duration.ofMillis(1))
                    .until(() -> nasReceived.get() == (long) total("mclb.responses"));
            assertThat(total("mclb.drops", "reason", "internal_error")).as("window %d: internal_error", w).isZero();
            assertThat(changed).as("window %d: requests a fake received that no NAS sent", w).isEmpty();
            byte[] a;
            while ((a = received.poll()) != null) {
                assertThat(sentByFakes).as("window %d: an answer no fake sent", w).contains(HEX.formatHex(a));
            }
            h.clock.advanceMillis(1100); // pending requests time out (idle radius request 1)
        }
        Map<String, Double> reasons = dropsByReason();
        System.out.printf("radius pass-through fuzz: %d datagrams, drops %s, assignments %.0f, responses %.0f%n",
                sent, reasons, total("mclb.assignments"), total("mclb.responses"));
        for (String r : List.of("radius_short_packet", "radius_bad_length", "radius_attribute_overrun",
                "radius_not_a_request", "radius_response_code_mismatch", "malformed", "oversized")) {
            assertThat(reasons.getOrDefault(r, 0.0)).as("drops %s", r).isPositive();
        }
        assertThat(total("mclb.responses")).as("answers forwarded").isGreaterThan(200);

        for (FakeAaa f : h.auth.values()) {
            f.responder = null;
        }
        DatagramSocket after = h.nas();
        var ar = RadiusProxyTest.access("after-fuzz", "pw", "4917999999", 99);
        h.send(after, RadiusHarness.encode(ar, RadiusHarness.NAS_SECRET), h.vauth);
        assertThat(h.receive(after, ar).getPacketIdentifier()).isEqualTo(99);
    }

    private double total(String name, String... tags) {
        return h.total(VSERVERS, name, tags);
    }

    private double fakes(boolean handled) {
        return RadiusHarness.fakes(h.auth, handled) + RadiusHarness.fakes(h.acct, handled);
    }

    private Map<String, Double> dropsByReason() {
        return h.dropsByReason(VSERVERS);
    }
}
