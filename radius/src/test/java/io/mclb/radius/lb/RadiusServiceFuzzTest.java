package io.mclb.radius.lb;

import io.mclb.radius.codec.RadiusCodes;
import io.mclb.radius.lb.RadiusFuzzRequests.Shot;
import io.mclb.sticky.StickyKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tinyradius.attribute.RadiusAttribute;
import org.tinyradius.packet.AccessRequest;
import org.tinyradius.packet.AccountingRequest;
import org.tinyradius.packet.RadiusPacket;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * "A malformed packet is dropped and counted by reason, never crashes a loop", through the whole
 * running service and in both directions: a seeded stream of mutated requests from two NASes
 * (most of them re-signed correctly after mutation, so that they pass verification and reach
 * stickiness, route map, VSA correlation, purge, local-ack and re-signing), and fake AAAs that
 * answer with mutated but correctly signed responses (re-signing for the NAS, framed-IP learning).
 *
 * <p>The stream is sent in windows; after each window the service is left to go idle and these
 * hold exactly:
 * <ul>
 * <li><b>Accounting.</b> {@code requests + answersFromReals == drops - id_space_exhausted +
 *     assignments + retransmissions + responses}, summed over the virtual servers whose farms
 *     hold those reals: RADIUS-AUTH (the auth fakes), RADIUS-ACCT with RADIUS-ACK (both use the
 *     accounting fakes, and the fakes cannot tell the two apart). Each NAS
 *     datagram ({@code mclb.requests}) ends as one drop (one reason), a local answer (counted in
 *     {@code mclb.responses}), a new transaction ({@code mclb.assignments}) or a retransmission
 *     ({@code mclb.retransmissions}); each datagram a real sends (the engine has no meter for
 *     them: the fakes count what they sent) ends as one drop or one forwarded answer
 *     ({@code mclb.responses}). Local answers are in {@code mclb.responses} on both sides of the
 *     sum, so they cancel. {@code id_space_exhausted} is the one drop the engine counts after it
 *     already counted the datagram as an assignment or retransmission. The relation cannot say
 *     which direction a codec reason came from ({@code radius_attribute_overrun} is counted for a
 *     bad request and a bad response alike); timeouts are no datagrams and are outside it.</li>
 * <li>Each virtual server saw every datagram sent to it ({@code mclb.requests} == sent), and the
 *     fakes every request the engine forwarded ({@code mclb.real.requests}).</li>
 * <li>Every answer the NAS sockets received from a virtual server ({@code mclb.responses} of that
 *     virtual server, no more, no fewer) is a
 *     response code, as long as its Length, and its Response Authenticator (and
 *     Message-Authenticator) verify with that NAS's secret against a request that socket sent
 *     with that identifier.</li>
 * <li>Every datagram reaching a real is a well-formed request that verifies with the real's
 *     secret.</li>
 * <li>{@code internal_error} (an exception on the data path) is 0.</li>
 * </ul>
 * Afterwards valid Access-, Accounting- and Status-Server requests still get correctly signed answers.
 *
 * <p>This class is the storm, its invariants and the NAS-side oracle. The requests come from
 * {@link RadiusFuzzRequests} (and {@link RadiusFuzzMutations}), the fakes answer through
 * {@link RadiusFuzzResponder}, and both sides build and check packets with {@link RadiusWire},
 * not with the production codec.
 */
class RadiusServiceFuzzTest {
    private static final long SEED = 0x4d434c4252414446L;
    private static final int WINDOWS = 160;
    private static final int WINDOW = 32;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String NAS_SECRET = RadiusHarness.NAS_SECRET;
    private static final String ACK_SECRET = "ack-secret";
    private static final String[] VSERVERS = {"RADIUS-AUTH", "RADIUS-ACCT", "RADIUS-ACK"};

    @TempDir
    Path dataDir;
    private RadiusHarness h;
    private int ackPort;

    /** Answers the NAS sockets received: socket index, virtual port, bytes. */
    private record Answer(int socket, int port, byte[] wire) {
    }

    private final ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
    /** Answers received from each virtual server (index in {@link #VSERVERS}). */
    private final AtomicIntegerArray answersReceived = new AtomicIntegerArray(VSERVERS.length);
    private int[] ports;
    /** (socket, port, identifier) -> code and authenticator of each request sent with it, for the NAS oracle. */
    private final Map<Long, List<byte[]>> sent = new HashMap<>();
    /** What the fakes found wrong in a request mclb forwarded, and what they saw and sent. */
    private final RadiusFuzzResponder.Findings findings = new RadiusFuzzResponder.Findings();
    /** Datagrams a NAS socket received from anything but a virtual server. */
    private final ConcurrentLinkedQueue<String> strays = new ConcurrentLinkedQueue<>();

    @AfterEach
    void stop() throws Exception {
        if (h != null) {
            h.close();
        }
    }

    static String config(int ackPort) {
        return RadiusHarness.issueConfig(RadiusEdgeTest.ROUTE_MAP,
                        " sticky radius username group 3\n radius inject auth vsa cisco\n idle radius request 1\n",
                        " radius inject acct vsa cisco\n idle radius request 1\n")
                .replace(" serverfarm AAA-ACCT\n sticky", " serverfarm ROUTED backup AAA-ACCT\n sticky")
                .replace("client 127.0.0.0 255.0.0.0", "client 127.0.0.1 255.255.255.255")
                // in-band failure detection stays on (retransmissions move requests), but the failed
                // requests of a window must not take a fake out of the farm
                .replace("  reassign 2\n", "  reassign 2\n  faildetect numconns 255\n")
                + "ip slb vserver RADIUS-ACK\n virtual 127.0.0.100 udp " + ackPort + " service radius\n"
                + " serverfarm ROUTED backup AAA-ACCT\n sticky radius framed-ip group 2\n idle radius request 1\n"
                + " radius acct local-ack key 0 " + ACK_SECRET + "\n inservice\n";
    }

    @Test
    void mutatedRequestsAndResponsesAreDroppedByReasonOrAnsweredCorrectlySignedNeverAnInternalError()
            throws Exception {
        ackPort = freePort();
        h = new RadiusHarness(dataDir, config(ackPort));
        ports = new int[] {h.vauth, h.vacct, ackPort};
        int i = 0;
        for (FakeAaa f : h.auth.values()) {
            f.responder = new RadiusFuzzResponder(SEED + ++i, findings);
        }
        for (FakeAaa f : h.acct.values()) {
            f.responder = new RadiusFuzzResponder(SEED + ++i, findings);
        }
        // socket 0: a NAS with a client line (nas-secret); socket 1: a NAS without one (local-ack key or nothing)
        DatagramSocket[] nas = {listen(0, "127.0.0.1"), listen(1, "127.0.0.2")};
        RadiusFuzzRequests stream = new RadiusFuzzRequests(new SplittableRandom(SEED), ports, NAS_SECRET, ACK_SECRET);

        long[] sentCount = new long[VSERVERS.length];
        long maxFramedEntries = 0;
        long maxSubscriberEntries = 0;
        int mutatedForwarded = 0;
        for (int w = 0; w < WINDOWS; w++) {
            for (int k = 0; k < WINDOW; k++) {
                Shot s = stream.next();
                if (s.wire().length >= 20) {
                    sent.computeIfAbsent(sentKey(s.socket(), s.port(), s.wire()[1] & 0xff), x -> new ArrayList<>())
                            .add(Arrays.copyOfRange(s.wire(), 0, 20));
                }
                nas[s.socket()].send(new DatagramPacket(s.wire(), s.wire().length,
                        InetAddress.getByName("127.0.0.100"), s.port()));
                sentCount[vserverAt(s.port())]++;
            }
            quiesce(w, sentCount);
            for (String vs : VSERVERS) {
                assertThat(h.drops(vs, "internal_error")).as("window %d, %s: internal_error", w, vs).isZero();
            }
            assertThat(findings.realSideFailures()).as("window %d: requests a real could not verify", w).isEmpty();
            assertThat(strays).as("window %d: datagrams to a NAS not from a virtual server", w).isEmpty();
            for (FakeAaa f : h.auth.values()) {
                assertThat(f.undecodable()).as("window %d: fake %s", w, f.address()).isEmpty();
            }
            for (FakeAaa f : h.acct.values()) {
                assertThat(f.undecodable()).as("window %d: fake %s", w, f.address()).isEmpty();
            }
            Answer a;
            while ((a = answers.poll()) != null) {
                String why = checkAnswer(a);
                assertThat(why).as("window %d: answer %s to socket %d from %s", w, RadiusWire.hex(a.wire), a.socket,
                        VSERVERS[vserverAt(a.port)]).isNull();
                if (RadiusFuzzResponder.marked(a.wire)) {
                    mutatedForwarded++;
                }
            }
            maxFramedEntries = Math.max(maxFramedEntries, h.runtime.stickyTable().size(RadiusStickyKinds.FRAMED_IP));
            maxSubscriberEntries = Math.max(maxSubscriberEntries,
                    h.runtime.stickyTable().size(RadiusStickyKinds.CALLING_STATION_ID)
                            + h.runtime.stickyTable().size(RadiusStickyKinds.USERNAME));
            // pending requests time out (idle radius request 1) so that upstream ids are freed
            h.clock.advanceMillis(1100);
        }

        Map<String, Double> reasons = dropsByReason();
        System.out.printf("radius service fuzz: %d datagrams, drops %s, assignments %.0f, retransmissions %.0f "
                        + "(%.0f moved), responses %.0f, local %.0f, timeouts %.0f, mutated answers sent %d / forwarded %d, "
                        + "injected VSAs seen by reals %d, framed-ip entries max %d, subscriber entries max %d%n",
                Arrays.stream(sentCount).sum(), reasons, total("mclb.assignments"), total("mclb.retransmissions"),
                total("mclb.reassignments"), total("mclb.responses"), total("mclb.local.answers"), total("mclb.request.timeouts"),
                findings.mutatedAnswersSent().get(), mutatedForwarded, findings.injectedSeen().get(), maxFramedEntries,
                maxSubscriberEntries);
        // the stream must have reached the deep paths, not only the framing checks
        for (String r : List.of("radius_short_packet", "radius_bad_length", "radius_bad_attribute_length",
                "radius_attribute_overrun", "radius_bad_message_authenticator_attribute", "radius_bad_authenticator",
                "radius_bad_message_authenticator", "radius_missing_message_authenticator",
                "radius_bad_hidden_attribute", "radius_not_a_request", "radius_unknown_client",
                "radius_unsupported_code", "radius_bad_response_authenticator", "unknown_response", "malformed",
                "oversized")) {
            assertThat(reasons.getOrDefault(r, 0.0)).as("drops %s", r).isPositive();
        }
        for (String vs : VSERVERS) {
            assertThat(h.counter("mclb.assignments", vs)).as("%s forwarded requests", vs).isPositive();
            assertThat(h.counter("mclb.local.answers", vs)).as("%s answered itself", vs).isPositive();
        }
        assertThat(mutatedForwarded).as("mutated answers re-signed for the NAS").isGreaterThan(50);
        assertThat(findings.injectedSeen().get()).as("Accounting-Starts carrying injected Cisco VSAs").isPositive();
        assertThat(maxFramedEntries).as("framed-IP entries learned").isPositive();
        assertThat(maxSubscriberEntries).as("subscriber sticky entries").isPositive();

        stillServesValidRequests();
    }

    // ---- after the storm ----

    private void stillServesValidRequests() throws Exception {
        for (FakeAaa f : h.auth.values()) {
            f.responder = null;
        }
        for (FakeAaa f : h.acct.values()) {
            f.responder = null;
        }
        DatagramSocket nas = h.nas();

        AccessRequest ar = RadiusProxyTest.access("after-fuzz", "pw-after", "4917999999", 201);
        ar.addAttribute(new RadiusAttribute(80, new byte[16]));
        byte[] arWire = RadiusHarness.encode(ar, NAS_SECRET);
        RadiusProxyTest.signMa(arWire, NAS_SECRET);
        h.send(nas, arWire, h.vauth);
        byte[] accept = h.receiveRaw(nas);
        assertThat(accept[0] & 0xff).isEqualTo(RadiusCodes.ACCESS_ACCEPT);
        assertThat(accept[1] & 0xff).isEqualTo(201);
        assertThat(verifiesAsAnswerTo(accept, arWire, NAS_SECRET)).as("Access-Accept signed for the NAS").isTrue();

        AccountingRequest start = RadiusProxyTest.accounting("after-fuzz", AccountingRequest.ACCT_STATUS_TYPE_START,
                "4917999999", "10.9.200.1", 202);
        byte[] startWire = RadiusHarness.encode(start, NAS_SECRET);
        h.send(nas, startWire, h.vacct);
        RadiusPacket resp = h.receive(nas, start); // TinyRadius checks the Response Authenticator too
        assertThat(resp.getPacketType()).isEqualTo(RadiusPacket.ACCOUNTING_RESPONSE);
        assertThat(resp.getPacketIdentifier()).isEqualTo(202);

        AccountingRequest local = RadiusProxyTest.accounting("after-fuzz", AccountingRequest.ACCT_STATUS_TYPE_START,
                "4917999998", "10.9.200.2", 203);
        byte[] localWire = RadiusHarness.encode(local, NAS_SECRET);
        h.send(nas, localWire, ackPort);
        byte[] ack = h.receiveRaw(nas);
        assertThat(ack[0] & 0xff).isEqualTo(RadiusCodes.ACCOUNTING_RESPONSE);
        assertThat(verifiesAsAnswerTo(ack, localWire, NAS_SECRET)).as("local-ack signed for the NAS").isTrue();

        byte[] ss = new byte[38];
        new SplittableRandom(SEED).nextBytes(ss); // the Request Authenticator
        ss[0] = (byte) RadiusCodes.STATUS_SERVER;
        ss[1] = (byte) 204;
        ss[2] = 0;
        ss[3] = 38;
        ss[20] = 80;
        ss[21] = 18;
        RadiusWire.signRequest(ss, NAS_SECRET);
        h.send(nas, ss, h.vacct);
        byte[] ssAnswer = h.receiveRaw(nas);
        assertThat(verifiesAsAnswerTo(ssAnswer, ss, NAS_SECRET)).as("Status-Server answer").isTrue();

        for (String vs : VSERVERS) {
            assertThat(h.drops(vs, "internal_error")).as("%s: internal_error", vs).isZero();
        }
    }

    private static boolean verifiesAsAnswerTo(byte[] answer, byte[] request, String secret) {
        return answer.length >= 20 && RadiusWire.u16(answer, 2) == answer.length
                && RadiusWire.answerVerifies(answer, request[0] & 0xff, Arrays.copyOfRange(request, 4, 20), secret);
    }

    // ---- waiting for idle, and the accounting relation ----

    private void quiesce(int w, long[] sentCount) {
        for (int v = 0; v < VSERVERS.length; v++) {
            String vs = VSERVERS[v];
            long want = sentCount[v];
            await("window " + w + ": every datagram reached " + vs).atMost(WAIT).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(1)).until(() -> h.counter("mclb.requests", vs) == want);
        }
        await("window " + w + ": the fakes handled every forwarded request").atMost(WAIT).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(1)).until(() -> fakes(h.auth, true) + fakes(h.acct, true)
                        == total(VSERVERS, "mclb.real.requests"));
        accounted(w, new String[] {"RADIUS-AUTH"}, h.auth);
        accounted(w, new String[] {"RADIUS-ACCT", "RADIUS-ACK"}, h.acct);
        for (int v = 0; v < VSERVERS.length; v++) {
            int index = v;
            await().atMost(WAIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).untilAsserted(() ->
                    assertThat((double) answersReceived.get(index)).as("window %d: answers the NASes received from %s",
                            w, VSERVERS[index]).isEqualTo(h.counter("mclb.responses", VSERVERS[index])));
        }
    }

    /** The relation of the class comment for these virtual servers and the fakes of their farms. */
    private void accounted(int w, String[] vservers, Map<String, FakeAaa> fakes) {
        await().atMost(WAIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).untilAsserted(() ->
                assertThat(total(vservers, "mclb.drops") - total(vservers, "mclb.drops", "reason", "id_space_exhausted")
                        + total(vservers, "mclb.assignments") + total(vservers, "mclb.retransmissions")
                        + total(vservers, "mclb.responses"))
                        .as("window %d, %s: drops - id_space_exhausted + assignments + retransmissions + responses"
                                + " == requests + answers from reals; drops %s", w, Arrays.toString(vservers),
                                dropsByReason())
                        .isEqualTo(total(vservers, "mclb.requests") + fakes(fakes, false)));
    }

    private int vserverAt(int port) {
        int v = indexOf(port);
        if (v < 0) {
            throw new AssertionError("no virtual server on port " + port);
        }
        return v;
    }

    private int indexOf(int port) {
        for (int v = 0; v < ports.length; v++) {
            if (ports[v] == port) {
                return v;
            }
        }
        return -1;
    }

    private double total(String name, String... tags) {
        return total(VSERVERS, name, tags);
    }

    private double total(String[] vservers, String name, String... tags) {
        return h.total(vservers, name, tags);
    }

    private static double fakes(Map<String, FakeAaa> fakes, boolean handled) {
        return RadiusHarness.fakes(fakes, handled);
    }

    private Map<String, Double> dropsByReason() {
        return h.dropsByReason(VSERVERS);
    }

    // ---- the NAS side ----

    private DatagramSocket listen(int index, String address) throws IOException {
        return h.listen(address, (wire, from) -> {
            int v = indexOf(from.getPort());
            if (v < 0 || !from.getAddress().getHostAddress().equals("127.0.0.100")) {
                strays.add(from + ": " + RadiusWire.hex(wire));
                return;
            }
            answers.add(new Answer(index, from.getPort(), wire));
            answersReceived.incrementAndGet(v);
        });
    }

    private static long sentKey(int socket, int port, int id) {
        return ((long) socket << 40) | ((long) port << 8) | id;
    }

    /** Null when the answer is a response this socket may receive, signed with its secret; else why not. */
    private String checkAnswer(Answer a) {
        byte[] w = a.wire;
        if (w.length < 20) {
            return "shorter than a header";
        }
        int len = RadiusWire.u16(w, 2);
        if (len != w.length) {
            return "Length " + len + " but " + w.length + " octets";
        }
        if (!RadiusWire.wellFormed(w, len)) {
            return "attributes do not fit";
        }
        if (!RadiusWire.isResponse(w[0] & 0xff)) {
            return "not a response code";
        }
        String secret = a.socket == 0 ? NAS_SECRET : ACK_SECRET;
        List<byte[]> requests = sent.getOrDefault(sentKey(a.socket, a.port, w[1] & 0xff), List.of());
        for (byte[] r : requests) {
            if (RadiusWire.answerVerifies(w, r[0] & 0xff, Arrays.copyOfRange(r, 4, 20), secret)) {
                return null;
            }
        }
        return "verifies against none of the " + requests.size() + " requests sent with identifier " + (w[1] & 0xff);
    }

    private static int freePort() throws IOException {
        return io.mclb.testing.Ports.freeUdp("127.0.0.100");
    }
}
