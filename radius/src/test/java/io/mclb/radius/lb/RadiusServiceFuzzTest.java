package io.mclb.radius.lb;

import io.mclb.radius.codec.RadiusCodes;
import io.mclb.sticky.StickyKind;
import io.mclb.testing.Metrics;
import io.micrometer.core.instrument.Counter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tinyradius.attribute.RadiusAttribute;
import org.tinyradius.packet.AccessRequest;
import org.tinyradius.packet.AccountingRequest;
import org.tinyradius.packet.RadiusPacket;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
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
 */
class RadiusServiceFuzzTest {
    private static final long SEED = 0x4d434c4252414446L;
    private static final int WINDOWS = 160;
    private static final int WINDOW = 32;
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String NAS_SECRET = RadiusHarness.NAS_SECRET;
    private static final String ACK_SECRET = "ack-secret";
    private static final String[] VSERVERS = {"RADIUS-AUTH", "RADIUS-ACCT", "RADIUS-ACK"};
    private static final String MARKER = "fuzz-mutated";
    private static final HexFormat HEX = HexFormat.of();

    @TempDir
    Path dataDir;
    private RadiusHarness h;
    private final List<DatagramSocket> sockets = new ArrayList<>();
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
    /** What the fakes found wrong in a request mclb forwarded. */
    private final ConcurrentLinkedQueue<String> realSideFailures = new ConcurrentLinkedQueue<>();
    /** Datagrams a NAS socket received from anything but a virtual server. */
    private final ConcurrentLinkedQueue<String> strays = new ConcurrentLinkedQueue<>();
    private final AtomicInteger injectedSeen = new AtomicInteger();
    private final AtomicInteger mutatedAnswersSent = new AtomicInteger();

    @AfterEach
    void stop() throws Exception {
        sockets.forEach(DatagramSocket::close);
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
            f.responder = new AaaResponder(SEED + ++i);
        }
        for (FakeAaa f : h.acct.values()) {
            f.responder = new AaaResponder(SEED + ++i);
        }
        // socket 0: a NAS with a client line (nas-secret); socket 1: a NAS without one (local-ack key or nothing)
        DatagramSocket[] nas = {listen(0, "127.0.0.1"), listen(1, "127.0.0.2")};
        RequestStream stream = new RequestStream(new SplittableRandom(SEED), ports);

        long[] sentCount = new long[VSERVERS.length];
        long maxFramedEntries = 0;
        long maxSubscriberEntries = 0;
        int mutatedForwarded = 0;
        for (int w = 0; w < WINDOWS; w++) {
            for (int k = 0; k < WINDOW; k++) {
                Shot s = stream.next();
                if (s.wire.length >= 20) {
                    sent.computeIfAbsent(sentKey(s.socket, s.port, s.wire[1] & 0xff), x -> new ArrayList<>())
                            .add(Arrays.copyOfRange(s.wire, 0, 20));
                }
                nas[s.socket].send(new DatagramPacket(s.wire, s.wire.length,
                        InetAddress.getByName("127.0.0.100"), s.port));
                sentCount[vserverAt(s.port)]++;
            }
            quiesce(w, sentCount);
            for (String vs : VSERVERS) {
                assertThat(h.drops(vs, "internal_error")).as("window %d, %s: internal_error", w, vs).isZero();
            }
            assertThat(realSideFailures).as("window %d: requests a real could not verify", w).isEmpty();
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
                assertThat(why).as("window %d: answer %s to socket %d from %s", w, hex(a.wire), a.socket,
                        VSERVERS[vserverAt(a.port)]).isNull();
                if (hasMarker(a.wire)) {
                    mutatedForwarded++;
                }
            }
            maxFramedEntries = Math.max(maxFramedEntries, h.runtime.stickyTable().size(StickyKind.RADIUS_FRAMED_IP));
            maxSubscriberEntries = Math.max(maxSubscriberEntries,
                    h.runtime.stickyTable().size(StickyKind.RADIUS_CALLING_STATION_ID)
                            + h.runtime.stickyTable().size(StickyKind.RADIUS_USERNAME));
            // pending requests time out (idle radius request 1) so that upstream ids are freed
            h.clock.advanceMillis(1100);
        }

        Map<String, Double> reasons = dropsByReason();
        System.out.printf("radius service fuzz: %d datagrams, drops %s, assignments %.0f, retransmissions %.0f "
                        + "(%.0f moved), responses %.0f, local %.0f, timeouts %.0f, mutated answers sent %d / forwarded %d, "
                        + "injected VSAs seen by reals %d, framed-ip entries max %d, subscriber entries max %d%n",
                Arrays.stream(sentCount).sum(), reasons, total("mclb.assignments"), total("mclb.retransmissions"),
                total("mclb.reassignments"), total("mclb.responses"), total("mclb.local.answers"), total("mclb.request.timeouts"),
                mutatedAnswersSent.get(), mutatedForwarded, injectedSeen.get(), maxFramedEntries,
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
        assertThat(injectedSeen.get()).as("Accounting-Starts carrying injected Cisco VSAs").isPositive();
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
        Wire.signRequest(ss, NAS_SECRET);
        h.send(nas, ss, h.vacct);
        byte[] ssAnswer = h.receiveRaw(nas);
        assertThat(verifiesAsAnswerTo(ssAnswer, ss, NAS_SECRET)).as("Status-Server answer").isTrue();

        for (String vs : VSERVERS) {
            assertThat(h.drops(vs, "internal_error")).as("%s: internal_error", vs).isZero();
        }
    }

    private static boolean verifiesAsAnswerTo(byte[] answer, byte[] request, String secret) {
        return answer.length >= 20 && Wire.u16(answer, 2) == answer.length
                && Wire.answerVerifies(answer, request[0] & 0xff, Arrays.copyOfRange(request, 4, 20), secret);
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

    private static String hex(byte[] b) {
        String x = HEX.formatHex(b, 0, Math.min(b.length, 160));
        return b.length > 160 ? x + "... (" + b.length + " octets)" : x;
    }

    private double total(String name, String... tags) {
        return total(VSERVERS, name, tags);
    }

    private double total(String[] vservers, String name, String... tags) {
        double sum = 0;
        for (String vs : vservers) {
            String[] t = Arrays.copyOf(tags, tags.length + 2);
            t[tags.length] = "vserver";
            t[tags.length + 1] = vs;
            sum += Metrics.count(h.runtime.registry(), name, t);
        }
        return sum;
    }

    /** Requests the fakes dealt with, or datagrams they sent back. */
    private static double fakes(Map<String, FakeAaa> fakes, boolean handled) {
        double sum = 0;
        for (FakeAaa f : fakes.values()) {
            sum += handled ? f.handled() : f.answers();
        }
        return sum;
    }

    private Map<String, Double> dropsByReason() {
        Map<String, Double> m = new TreeMap<>();
        for (String vs : VSERVERS) {
            for (Counter c : h.runtime.registry().find("mclb.drops").tag("vserver", vs).counters()) {
                if (c.count() > 0) {
                    m.merge(c.getId().getTag("reason"), c.count(), Double::sum);
                }
            }
        }
        return m;
    }

    // ---- the NAS side ----

    private DatagramSocket listen(int index, String address) throws IOException {
        DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0));
        sockets.add(s);
        Thread t = new Thread(() -> {
            byte[] buf = new byte[65535];
            while (!s.isClosed()) {
                try {
                    DatagramPacket d = new DatagramPacket(buf, buf.length);
                    s.receive(d);
                    int v = indexOf(d.getPort());
                    if (v < 0 || !d.getAddress().getHostAddress().equals("127.0.0.100")) {
                        strays.add(d.getSocketAddress() + ": " + hex(Arrays.copyOf(buf, d.getLength())));
                        continue;
                    }
                    answers.add(new Answer(index, d.getPort(), Arrays.copyOf(buf, d.getLength())));
                    answersReceived.incrementAndGet(v);
                } catch (IOException e) {
                    // closed at the end of the test
                }
            }
        }, "fuzz-nas-" + index);
        t.setDaemon(true);
        t.start();
        return s;
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
        int len = Wire.u16(w, 2);
        if (len != w.length) {
            return "Length " + len + " but " + w.length + " octets";
        }
        if (!Wire.wellFormed(w, len)) {
            return "attributes do not fit";
        }
        if (!Wire.isResponse(w[0] & 0xff)) {
            return "not a response code";
        }
        String secret = a.socket == 0 ? NAS_SECRET : ACK_SECRET;
        List<byte[]> requests = sent.getOrDefault(sentKey(a.socket, a.port, w[1] & 0xff), List.of());
        for (byte[] r : requests) {
            if (Wire.answerVerifies(w, r[0] & 0xff, Arrays.copyOfRange(r, 4, 20), secret)) {
                return null;
            }
        }
        return "verifies against none of the " + requests.size() + " requests sent with identifier " + (w[1] & 0xff);
    }

    private static boolean hasMarker(byte[] w) {
        int len = Wire.u16(w, 2);
        for (int i = 20; i + 2 <= len; i += w[i + 1] & 0xff) {
            int alen = w[i + 1] & 0xff;
            if (alen < 2) {
                return false;
            }
            if ((w[i] & 0xff) == 18 && new String(w, i + 2, alen - 2, StandardCharsets.ISO_8859_1).equals(MARKER)) {
                return true;
            }
        }
        return false;
    }

    private static int freePort() throws IOException {
        return io.mclb.testing.Ports.freeUdp("127.0.0.100");
    }

    // ---- the requests ----

    /** One datagram to send: from which NAS socket, to which virtual port. */
    private record Shot(int socket, int port, byte[] wire) {
    }

    /** A request before serialisation: what the mutations work on. */
    private static final class Draft {
        int socket;
        int port;
        int code;
        int id;
        final byte[] auth = new byte[16];
        List<byte[]> attrs = new ArrayList<>();
        String secret;
        int padding;
        /** Length field written before signing (attributes beyond it become padding), or -1. */
        int lengthField = -1;
    }

    /**
     * The seeded request stream: valid requests, requests mutated then re-signed (most), requests
     * broken after signing, retransmissions, raw garbage.
     */
    private static final class RequestStream {
        private final SplittableRandom rnd;
        private final int vauth;
        private final int vacct;
        private final int vack;
        private final List<Shot> recent = new ArrayList<>();
        private int n;

        RequestStream(SplittableRandom rnd, int[] ports) {
            this.rnd = rnd;
            this.vauth = ports[0];
            this.vacct = ports[1];
            this.vack = ports[2];
        }

        Shot next() {
            n++;
            int roll = rnd.nextInt(100);
            Shot s;
            if (roll < 3 && !recent.isEmpty()) {
                s = recent.get(rnd.nextInt(recent.size())); // a retransmission, byte for byte
            } else if (roll < 8) {
                s = garbage();
            } else {
                Draft d = base();
                if (roll < 30) {
                    s = new Shot(d.socket, d.port, serialiseAndSign(d));
                } else if (roll < 90) {
                    int m = 1 + rnd.nextInt(3);
                    for (int i = 0; i < m; i++) {
                        mutate(d);
                    }
                    s = new Shot(d.socket, d.port, serialiseAndSign(d));
                } else {
                    if (rnd.nextBoolean()) {
                        mutate(d);
                    }
                    s = new Shot(d.socket, d.port, breakAfterSigning(serialiseAndSign(d)));
                }
            }
            recent.add(s);
            if (recent.size() > 16) {
                recent.remove(0);
            }
            return s;
        }

        private Shot garbage() {
            int socket = rnd.nextInt(10) == 0 ? 1 : 0;
            int port = pick(vauth, vacct, vack);
            int kind = rnd.nextInt(20);
            byte[] w;
            if (kind == 0) {
                w = new byte[9001 + rnd.nextInt(3000)]; // beyond what the engine relays
                rnd.nextBytes(w);
            } else if (kind == 1) {
                w = new byte[0];
            } else if (kind < 8) {
                w = new byte[1 + rnd.nextInt(40)];
                rnd.nextBytes(w);
            } else {
                w = new byte[20 + rnd.nextInt(300)];
                rnd.nextBytes(w);
                w[0] = (byte) pick(1, 4, 12, 40, 43, 2, 5);
                int len = rnd.nextInt(4) == 0 ? rnd.nextInt(65536) : w.length;
                w[2] = (byte) (len >> 8);
                w[3] = (byte) len;
            }
            return new Shot(socket, port, w);
        }

        private int pick(int... v) {
            return v[rnd.nextInt(v.length)];
        }

        private byte[] random(int len) {
            byte[] b = new byte[len];
            rnd.nextBytes(b);
            return b;
        }

        // -- valid requests --

        private Draft base() {
            Draft d = new Draft();
            d.socket = rnd.nextInt(100) < 8 ? 1 : 0;
            if (d.socket == 0) {
                d.secret = rnd.nextInt(100) < 3 ? "not-the-secret" : NAS_SECRET;
            } else {
                d.secret = rnd.nextInt(100) < 70 ? ACK_SECRET : NAS_SECRET;
            }
            d.id = rnd.nextInt(256);
            rnd.nextBytes(d.auth);
            int s = rnd.nextInt(48);
            int kind = rnd.nextInt(100);
            if (kind < 42) {
                accessRequest(d, s);
                d.port = weighted(vauth, 80, vacct, 10, vack);
            } else if (kind < 84) {
                accountingRequest(d, s);
                d.port = weighted(vacct, 60, vack, 30, vauth);
            } else if (kind < 94) {
                d.code = 12;
                if (rnd.nextInt(100) < 30) {
                    d.attrs.add(Wire.attr(32, ascii("nas-" + s)));
                }
                if (rnd.nextInt(100) < 92) {
                    d.attrs.add(rnd.nextInt(d.attrs.size() + 1), Wire.attr(80, new byte[16]));
                }
                d.port = pick(vauth, vacct, vack);
            } else {
                d.code = rnd.nextBoolean() ? 43 : 40; // CoA / Disconnect: computed authenticator, forwarded
                d.attrs.add(Wire.attr(1, ascii(user(s))));
                d.attrs.add(Wire.attr(31, ascii(csid(s))));
                if (rnd.nextInt(100) < 30) {
                    d.attrs.add(Wire.attr(80, new byte[16]));
                }
                d.port = pick(vauth, vacct, vack);
            }
            return d;
        }

        private int weighted(int a, int pa, int b, int pb, int c) {
            int r = rnd.nextInt(100);
            return r < pa ? a : r < pa + pb ? b : c;
        }

        private void accessRequest(Draft d, int s) {
            d.code = 1;
            d.attrs.add(Wire.attr(1, ascii(user(s))));
            byte[] pw = ascii("pw-" + s + "-" + "x".repeat(rnd.nextInt(40)));
            d.attrs.add(Wire.attr(2, Wire.hidePassword(pw, d.auth, d.secret)));
            if (rnd.nextInt(100) < 85) {
                d.attrs.add(Wire.attr(31, ascii(csid(s))));
            }
            d.attrs.add(Wire.attr(4, new byte[] {127, 0, 0, 1}));
            d.attrs.add(Wire.attr(5, Wire.int32(rnd.nextInt(1 << 16))));
            if (rnd.nextInt(100) < 60) {
                d.attrs.add(Wire.vsa(9, Wire.sub(1, ascii("subscriber:corr-id=" + s + "-" + n))));
            }
            if (rnd.nextInt(100) < 30) {
                d.attrs.add(Wire.vsa(10415, Wire.sub(1, ascii(imsi(s)))));
            }
            if (rnd.nextInt(100) < 45) {
                d.attrs.add(Wire.attr(80, new byte[16]));
            }
            if (rnd.nextInt(100) < 5) {
                d.attrs.add(Wire.attr(79, random(1 + rnd.nextInt(60))));
                if (rnd.nextInt(100) < 70) {
                    d.attrs.add(Wire.attr(80, new byte[16]));
                }
            }
        }

        private void accountingRequest(Draft d, int s) {
            d.code = 4;
            int r = rnd.nextInt(100);
            int status = r < 40 ? 1 : r < 65 ? 3 : r < 90 ? 2 : r < 95 ? 7 : 8;
            d.attrs.add(Wire.attr(1, ascii(user(s))));
            d.attrs.add(Wire.attr(40, Wire.int32(status)));
            if (rnd.nextInt(100) < 90) {
                d.attrs.add(Wire.attr(31, ascii(csid(s))));
            }
            if (status <= 3 && rnd.nextInt(100) < 85) {
                d.attrs.add(Wire.attr(8, framed(s)));
            }
            d.attrs.add(Wire.attr(44, ascii("sess-" + s)));
            d.attrs.add(Wire.attr(4, new byte[] {127, 0, 0, 1}));
            if (rnd.nextInt(100) < 30) {
                d.attrs.add(Wire.vsa(10415, Wire.sub(1, ascii(imsi(s)))));
            }
            if (rnd.nextInt(100) < 15) {
                d.attrs.add(Wire.attr(80, new byte[16]));
            }
        }

        private static String user(int s) {
            return "sub" + s + "@apn";
        }

        private static String csid(int s) {
            return String.format("4917%08d", s);
        }

        private static String imsi(int s) {
            return String.format("26201%010d", s);
        }

        /** Even subscribers match the route map (10.9/16, next hop 127.0.0.6), odd ones do not. */
        private static byte[] framed(int s) {
            return new byte[] {10, (byte) (s % 2 == 0 ? 9 : 8), (byte) s, 1};
        }

        private static byte[] ascii(String s) {
            return s.getBytes(StandardCharsets.US_ASCII);
        }

        // -- mutations --

        private void insert(Draft d, byte[] attr) {
            d.attrs.add(rnd.nextInt(d.attrs.size() + 1), attr);
        }

        private void replaceOrAdd(Draft d, int type, byte[] attr) {
            for (int i = 0; i < d.attrs.size(); i++) {
                byte[] a = d.attrs.get(i);
                if (a.length >= 1 && (a[0] & 0xff) == type) {
                    d.attrs.set(i, attr);
                    return;
                }
            }
            insert(d, attr);
        }

        private void removeAll(Draft d, int type) {
            d.attrs.removeIf(a -> a.length >= 1 && (a[0] & 0xff) == type);
        }

        private int size(Draft d) {
            int n = 20;
            for (byte[] a : d.attrs) {
                n += a.length;
            }
            return n;
        }

        private void mutate(Draft d) {
            switch (rnd.nextInt(18)) {
                case 0 -> insert(d, new byte[] {(byte) rnd.nextInt(256), (byte) rnd.nextInt(2)}); // length 0 or 1
                case 1 -> {
                    if (rnd.nextBoolean()) { // the last attribute claims more than is left
                        d.attrs.add(new byte[] {(byte) pick(1, 8, 26, 31, 80), (byte) (4 + rnd.nextInt(250)), 0});
                    } else {
                        d.attrs.add(new byte[] {(byte) rnd.nextInt(256)}); // a dangling octet
                    }
                }
                case 2 -> fill(d, pick(600, 2000, 4096, 4096, 4097 + rnd.nextInt(200), 8990));
                case 3 -> insert(d, oddVsa(d.code == 1));
                case 4 -> {
                    switch (rnd.nextInt(4)) {
                        case 0 -> {
                            insert(d, Wire.attr(80, new byte[16]));
                            insert(d, Wire.attr(80, new byte[16]));
                        }
                        case 1 -> insert(d, Wire.attr(80, random(pick(0, 1, 8, 15, 17, 32))));
                        case 2 -> {
                            removeAll(d, 80);
                            d.attrs.add(0, Wire.attr(80, new byte[16]));
                        }
                        default -> removeAll(d, 80);
                    }
                }
                case 5 -> {
                    switch (rnd.nextInt(4)) {
                        case 0 -> replaceOrAdd(d, 8, Wire.attr(8, random(pick(0, 1, 3, 5, 8, 16))));
                        case 1 -> {
                            insert(d, Wire.attr(8, framed(rnd.nextInt(48))));
                            insert(d, Wire.attr(8, framed(rnd.nextInt(48))));
                        }
                        case 2 -> replaceOrAdd(d, 8, Wire.attr(8, pick(0, 1) == 0 ? new byte[4]
                                : new byte[] {-1, -1, -1, -1}));
                        default -> replaceOrAdd(d, 8, Wire.attr(8, new byte[] {10, 9, (byte) rnd.nextInt(256),
                                (byte) rnd.nextInt(256)}));
                    }
                }
                case 6 -> {
                    byte[] pw = rnd.nextInt(4) == 0
                            ? Wire.hidePassword(random(113 + rnd.nextInt(16)), d.auth, d.secret) // 128 octets
                            : random(pick(0, 1, 15, 17, 31, 33, 127, 129, 144, 253));
                    if (rnd.nextBoolean()) {
                        replaceOrAdd(d, 2, Wire.attr(2, pw));
                    } else {
                        insert(d, Wire.attr(2, pw));
                    }
                }
                case 7 -> {
                    int cipher = pick(0, 1, 15, 16, 17, 32, 100, 240, 250);
                    byte[] v = new byte[3 + cipher];
                    rnd.nextBytes(v);
                    insert(d, Wire.attr(69, Arrays.copyOf(v, Math.min(v.length, 253))));
                }
                case 8 -> {
                    byte[] v = rnd.nextBoolean() ? random(pick(0, 1, 3, 5))
                            : Wire.int32(pick(0, 1, 2, 3, 7, 8, 0x7fffffff, -1));
                    if (rnd.nextBoolean()) {
                        replaceOrAdd(d, 40, Wire.attr(40, v));
                    } else {
                        insert(d, Wire.attr(40, v));
                    }
                }
                case 9 -> {
                    int type = pick(1, 31);
                    switch (rnd.nextInt(3)) {
                        case 0 -> replaceOrAdd(d, type, Wire.attr(type, new byte[0]));
                        case 1 -> replaceOrAdd(d, type, Wire.attr(type, random(253)));
                        default -> removeAll(d, type);
                    }
                }
                case 10 -> {
                    insert(d, Wire.attr(79, random(rnd.nextInt(254))));
                    if (rnd.nextBoolean()) {
                        removeAll(d, 80);
                    }
                }
                case 11 -> d.padding = 1 + rnd.nextInt(300);
                case 12 -> d.code = pick(2, 3, 5, 11, 13, 0, 99, 255, 40, 43, 12, 1, 4);
                case 13 -> d.lengthField = 20 + rnd.nextInt(Math.max(1, size(d) - 19));
                case 14 -> java.util.Collections.shuffle(d.attrs, new java.util.Random(rnd.nextLong()));
                case 15 -> {
                    for (int i = rnd.nextInt(5); i >= 0; i--) {
                        insert(d, Wire.attr(pick(24, 25, 33, 18), random(253)));
                    }
                }
                case 16 -> insert(d, Wire.attr(pick(0, 255, 26, 97, 50), random(rnd.nextInt(254))));
                default -> {
                    if (rnd.nextBoolean()) {
                        d.attrs.clear();
                    } else {
                        removeAll(d, 80);
                    }
                }
            }
        }

        /** Appends attributes up to {@code target} octets in all (beyond 4096 the Length field is invalid). */
        private void fill(Draft d, int target) {
            int remaining = target - size(d);
            while (remaining >= 2) {
                int len;
                byte[] a;
                if (d.code == 1 && rnd.nextInt(4) == 0 && remaining >= 8) { // Cisco VSAs: a big injection
                    len = Math.min(remaining, 8 + rnd.nextInt(40));
                    if (remaining - len == 1) {
                        len--;
                    }
                    a = Wire.vsa(9, Wire.sub(1, random(len - 8)));
                } else {
                    len = Math.min(remaining, rnd.nextInt(3) == 0 ? 2 : 2 + rnd.nextInt(60));
                    if (remaining - len == 1) {
                        len = len == 2 ? 3 : len - 1;
                    }
                    a = Wire.attr(pick(18, 25, 33, 30), random(len - 2));
                }
                d.attrs.add(a);
                remaining -= a.length;
            }
        }

        private byte[] oddVsa(boolean access) {
            switch (rnd.nextInt(access ? 12 : 10)) {
                case 0 -> {
                    return new byte[] {26, 2};
                }
                case 1 -> {
                    return Wire.attr(26, random(1 + rnd.nextInt(4))); // shorter than a vendor id
                }
                case 2 -> {
                    return Wire.attr(26, Wire.concat(List.of(Wire.int32(10415), new byte[] {1, (byte) pick(0, 1)})));
                }
                case 3 -> { // sub-attribute running past its VSA
                    return Wire.attr(26, Wire.concat(List.of(Wire.int32(10415), new byte[] {1, (byte) 200, 50, 50})));
                }
                case 4 -> {
                    return Wire.vsa(10415, Wire.sub(1, random(pick(0, 1, 200, 247))));
                }
                case 5 -> { // WiMAX: type, length, continuation
                    return Wire.attr(26, Wire.concat(List.of(Wire.int32(24757),
                            new byte[] {1, (byte) pick(3, 2, 10), 0, 1, 2})));
                }
                case 6 -> { // MS-MPPE-Send/Recv-Key: salt (2) then 16..240 octets in blocks of 16
                    return Wire.vsa(311, Wire.sub(pick(16, 17), random(pick(0, 1, 2, 3, 17, 18, 19, 34, 35, 242, 243))));
                }
                case 7 -> {
                    return Wire.vsa(311, Wire.concat(List.of(Wire.sub(16, random(18)), Wire.sub(16, random(19)),
                            Wire.sub(17, random(34)))));
                }
                case 8 -> {
                    return Wire.attr(26, Wire.concat(List.of(Wire.int32(pick(0, -1, 5535)), random(rnd.nextInt(249)))));
                }
                case 9 -> { // many sub-attributes in one VSA
                    List<byte[]> subs = new ArrayList<>();
                    int room = 249;
                    while (room >= 2) {
                        int l = Math.min(room, 2 + rnd.nextInt(10));
                        subs.add(Wire.sub(pick(1, 2, 6, 7, 8, 21), random(l - 2)));
                        room -= l;
                    }
                    return Wire.attr(26, Wire.concat(List.of(Wire.int32(pick(9, 10415, 311)), Wire.concat(subs))));
                }
                case 10 -> { // Cisco: sub-attribute lengths 0, 1, past the end
                    return Wire.attr(26, Wire.concat(List.of(Wire.int32(9),
                            new byte[] {1, (byte) pick(0, 1, 100), 'a', 'b'})));
                }
                default -> {
                    return Wire.vsa(9, Wire.sub(1, random(247)));
                }
            }
        }

        // -- serialisation, signing, breaking --

        private byte[] serialiseAndSign(Draft d) {
            byte[] attrs = Wire.concat(d.attrs);
            int len = 20 + attrs.length;
            byte[] w = new byte[len + d.padding];
            w[0] = (byte) d.code;
            w[1] = (byte) d.id;
            int field = d.lengthField >= 0 ? d.lengthField : Math.min(len, 65535);
            w[2] = (byte) (field >> 8);
            w[3] = (byte) field;
            System.arraycopy(d.auth, 0, w, 4, 16);
            System.arraycopy(attrs, 0, w, 20, attrs.length);
            for (int i = len; i < w.length; i++) {
                w[i] = (byte) rnd.nextInt(256);
            }
            Wire.signRequest(w, d.secret);
            return w;
        }

        private byte[] breakAfterSigning(byte[] w) {
            switch (rnd.nextInt(3)) {
                case 0 -> {
                    for (int i = 1 + rnd.nextInt(3); i > 0; i--) {
                        w[rnd.nextInt(w.length)] ^= (byte) (1 + rnd.nextInt(255));
                    }
                    return w;
                }
                case 1 -> {
                    return Arrays.copyOf(w, rnd.nextInt(w.length));
                }
                default -> {
                    int len = pick(0, 19, w.length + 1 + rnd.nextInt(50), 4097, 65535);
                    w[2] = (byte) (len >> 8);
                    w[3] = (byte) len;
                    return w;
                }
            }
        }
    }

    // ---- the AAA side ----

    /**
     * What every fake AAA does with what mclb forwards: checks it as a real would (well formed,
     * verifies with the real's secret), then answers correctly (about half), mutated but
     * correctly signed (most of the rest), or not at all. One per fake: its random is confined
     * to the fake's thread.
     */
    private final class AaaResponder implements FakeAaa.Responder {
        private final SplittableRandom rnd;

        AaaResponder(long seed) {
            this.rnd = new SplittableRandom(seed);
        }

        private int pick(int... v) {
            return v[rnd.nextInt(v.length)];
        }

        private byte[] random(int len) {
            byte[] b = new byte[len];
            rnd.nextBytes(b);
            return b;
        }

        @Override
        public List<byte[]> answer(byte[] req, String secret) {
            String bad = checkRequest(req, secret);
            if (bad != null) {
                realSideFailures.add(bad + ": " + hex(req));
                return List.of();
            }
            int reqCode = req[0] & 0xff;
            if (reqCode == 4 && hasVendor(req, 9)) {
                injectedSeen.incrementAndGet(); // the stream never puts Cisco VSAs in accounting
            }
            int roll = rnd.nextInt(100);
            if (roll < 5) {
                return List.of();
            }
            byte[] reqAuth = Arrays.copyOfRange(req, 4, 20);
            int code = switch (reqCode) {
                case 1 -> pick(2, 2, 2, 3, 11);
                case 40 -> 41;
                case 43 -> 44;
                default -> 5;
            };
            List<byte[]> attrs = new ArrayList<>();
            if (code == 2 && rnd.nextBoolean()) {
                attrs.add(Wire.attr(8, new byte[] {10, (byte) pick(8, 9), (byte) rnd.nextInt(256), 1}));
            }
            if (code == 11) {
                attrs.add(Wire.attr(24, random(1 + rnd.nextInt(30))));
            }
            if (rnd.nextInt(100) < 30) {
                attrs.add(Wire.attr(80, new byte[16]));
            }
            if (roll < 55) {
                return List.of(response(code, req[1] & 0xff, attrs, reqCode, reqAuth, secret, 0));
            }
            mutatedAnswersSent.incrementAndGet();
            attrs.add(0, Wire.attr(18, MARKER.getBytes(StandardCharsets.ISO_8859_1)));
            int id = req[1] & 0xff;
            int padding = 0;
            String signWith = secret;
            int post = -1;
            boolean twice = false;
            for (int m = 1 + rnd.nextInt(2); m > 0; m--) {
                switch (rnd.nextInt(14)) {
                    case 0 -> attrs.add(rnd.nextInt(attrs.size() + 1), Wire.attr(8, random(pick(0, 1, 3, 4, 5, 8))));
                    case 1 -> attrs.add(rnd.nextInt(attrs.size() + 1),
                            Wire.attr(8, pick(0, 1) == 0 ? new byte[4] : new byte[] {-1, -1, -1, -1}));
                    case 2 -> attrs.add(rnd.nextInt(attrs.size() + 1), rnd.nextBoolean()
                            ? new byte[] {(byte) rnd.nextInt(256), (byte) rnd.nextInt(2)}
                            : new byte[] {(byte) pick(8, 26, 80), (byte) 200, 1});
                    case 3 -> {
                        int room = pick(4096, 4096, 4097, 3000) - 20 - Wire.concat(attrs).length;
                        while (room >= 2) {
                            int l = Math.min(room, 2 + rnd.nextInt(40));
                            if (room - l == 1) {
                                l = l == 2 ? 3 : l - 1;
                            }
                            attrs.add(Wire.attr(pick(18, 25, 26), random(l - 2)));
                            room -= l;
                        }
                    }
                    case 4 -> attrs.add(rnd.nextInt(attrs.size() + 1), switch (rnd.nextInt(5)) {
                        case 0 -> Wire.vsa(311, Wire.sub(pick(16, 17), random(pick(18, 34, 242, 0, 1, 19, 243))));
                        case 1 -> Wire.attr(69, random(pick(19, 35, 3, 2, 20, 250)));
                        case 2 -> Wire.attr(26, random(rnd.nextInt(10)));
                        case 3 -> Wire.vsa(10415, Wire.sub(1, random(pick(0, 1, 200))));
                        default -> Wire.attr(26, Wire.concat(List.of(Wire.int32(9),
                                new byte[] {1, (byte) pick(0, 1, 100), 'x'})));
                    });
                    case 5 -> {
                        switch (rnd.nextInt(3)) {
                            case 0 -> {
                                attrs.add(Wire.attr(80, new byte[16]));
                                attrs.add(Wire.attr(80, new byte[16]));
                            }
                            case 1 -> attrs.add(Wire.attr(80, random(pick(0, 8, 17))));
                            default -> attrs.add(0, Wire.attr(80, new byte[16]));
                        }
                    }
                    case 6 -> code = pick(2, 3, 5, 11, 41, 44, 45, 1, 4, 12, 13, 0, 99, 255);
                    case 7 -> id = rnd.nextInt(256);
                    case 8 -> padding = 1 + rnd.nextInt(200);
                    case 9 -> post = rnd.nextInt(3);
                    case 10 -> signWith = "wrong-" + secret;
                    case 11 -> twice = true;
                    case 12 -> {
                        for (int i = rnd.nextInt(6); i >= 0; i--) {
                            attrs.add(Wire.attr(pick(24, 25, 18), random(253)));
                        }
                    }
                    default -> attrs.add(Wire.attr(pick(0, 255, 97, 50, 27), random(rnd.nextInt(30))));
                }
            }
            byte[] w = response(code, id, attrs, reqCode, reqAuth, signWith, padding);
            if (post == 0) {
                w = Arrays.copyOf(w, rnd.nextInt(20)); // too short to carry an identifier
            } else if (post == 1) {
                w = Arrays.copyOf(w, 20 + rnd.nextInt(Math.max(1, w.length - 20)));
            } else if (post == 2) {
                w[w.length > 20 ? 20 + rnd.nextInt(w.length - 20) : 5] ^= 0x5a;
            }
            if (twice) {
                byte[] valid = response(code == 2 || code == 3 || code == 5 || code == 11 ? code : 5,
                        req[1] & 0xff, List.of(), reqCode, reqAuth, secret, 0);
                return rnd.nextBoolean() ? List.of(valid, w) : List.of(w, valid, valid);
            }
            return List.of(w);
        }

        private byte[] response(int code, int id, List<byte[]> attrs, int reqCode, byte[] reqAuth, String secret,
                                int padding) {
            byte[] a = Wire.concat(attrs);
            int len = 20 + a.length;
            byte[] w = new byte[len + padding];
            w[0] = (byte) code;
            w[1] = (byte) id;
            w[2] = (byte) (Math.min(len, 65535) >> 8);
            w[3] = (byte) Math.min(len, 65535);
            System.arraycopy(a, 0, w, 20, a.length);
            for (int i = len; i < w.length; i++) {
                w[i] = (byte) rnd.nextInt(256);
            }
            Wire.signResponse(w, reqCode, reqAuth, secret);
            return w;
        }

        /** Null when {@code req} is what a real may receive from a re-signing proxy; else why not. */
        private String checkRequest(byte[] req, String secret) {
            if (req.length < 20) {
                return "shorter than a header";
            }
            int len = Wire.u16(req, 2);
            if (len != req.length || len > 4096) {
                return "Length " + len + " for " + req.length + " octets";
            }
            int code = req[0] & 0xff;
            if (code != 1 && code != 4 && code != 40 && code != 43) {
                return "code " + code + " forwarded";
            }
            if (!Wire.wellFormed(req, len)) {
                return "attributes do not fit";
            }
            if (Wire.computedAuthenticator(code)) {
                byte[] want = Wire.md5(Arrays.copyOfRange(req, 0, 4), new byte[16], Arrays.copyOfRange(req, 20, len),
                        secret.getBytes(StandardCharsets.UTF_8));
                if (!Arrays.equals(want, Arrays.copyOfRange(req, 4, 20))) {
                    return "Request Authenticator does not verify";
                }
            }
            int ma = Wire.maValue(req, len);
            if (ma >= 0 && !Arrays.equals(Wire.ma(req, len, ma,
                    Wire.computedAuthenticator(code) ? new byte[16] : null, secret),
                    Arrays.copyOfRange(req, ma, ma + 16))) {
                return "Message-Authenticator does not verify";
            }
            return null;
        }

        private boolean hasVendor(byte[] w, long vendor) {
            int len = Wire.u16(w, 2);
            for (int i = 20; i + 2 <= len; i += w[i + 1] & 0xff) {
                if ((w[i] & 0xff) == 26 && (w[i + 1] & 0xff) >= 6
                        && (Wire.u16(w, i + 2) << 16 | Wire.u16(w, i + 4)) == vendor) {
                    return true;
                }
            }
            return false;
        }
    }

    // ---- RADIUS on the wire, written independently of the production codec ----

    static final class Wire {
        private Wire() {
        }

        static int u16(byte[] b, int o) {
            return ((b[o] & 0xff) << 8) | (b[o + 1] & 0xff);
        }

        static boolean computedAuthenticator(int code) {
            return code == 4 || code == 40 || code == 43;
        }

        static boolean isResponse(int code) {
            return code == 2 || code == 3 || code == 5 || code == 11 || code == 41 || code == 42 || code == 44
                    || code == 45;
        }

        static byte[] attr(int type, byte[] value) {
            byte[] a = new byte[2 + value.length];
            a[0] = (byte) type;
            a[1] = (byte) a.length;
            System.arraycopy(value, 0, a, 2, value.length);
            return a;
        }

        static byte[] sub(int type, byte[] value) {
            return attr(type, value);
        }

        static byte[] vsa(long vendor, byte[] subs) {
            return attr(26, concat(List.of(int32((int) vendor), subs)));
        }

        static byte[] int32(int v) {
            return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
        }

        static byte[] concat(List<byte[]> parts) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (byte[] p : parts) {
                out.write(p, 0, p.length);
            }
            return out.toByteArray();
        }

        static byte[] md5(byte[]... parts) {
            try {
                MessageDigest md = MessageDigest.getInstance("MD5");
                for (byte[] p : parts) {
                    md.update(p);
                }
                return md.digest();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }

        static byte[] hmac(String secret, byte[] data, int len) {
            try {
                Mac mac = Mac.getInstance("HmacMD5");
                mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacMD5"));
                mac.update(data, 0, len);
                return mac.doFinal();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }

        /** RFC 2865 5.2, padded to a multiple of 16 (at least 16, at most 128 octets). */
        static byte[] hidePassword(byte[] plain, byte[] auth, String secret) {
            byte[] p = Arrays.copyOf(plain, Math.min(128, Math.max(16, (plain.length + 15) / 16 * 16)));
            byte[] s = secret.getBytes(StandardCharsets.UTF_8);
            byte[] prev = auth;
            for (int off = 0; off < p.length; off += 16) {
                byte[] b = md5(s, prev);
                for (int i = 0; i < 16; i++) {
                    p[off + i] ^= b[i];
                }
                prev = Arrays.copyOfRange(p, off, off + 16);
            }
            return p;
        }

        /** True when every attribute inside Length has a length of at least 2 and fits. */
        static boolean wellFormed(byte[] w, int len) {
            int i = 20;
            while (i < len) {
                if (len - i < 2 || (w[i + 1] & 0xff) < 2 || (w[i + 1] & 0xff) > len - i) {
                    return false;
                }
                i += w[i + 1] & 0xff;
            }
            return true;
        }

        /** Index of the value of the first 18-octet Message-Authenticator, walking until the attributes stop fitting; -1. */
        static int maValue(byte[] w, int len) {
            for (int i = 20; i + 2 <= len; ) {
                int alen = w[i + 1] & 0xff;
                if (alen < 2 || alen > len - i) {
                    return -1;
                }
                if ((w[i] & 0xff) == 80 && alen == 18) {
                    return i + 2;
                }
                i += alen;
            }
            return -1;
        }

        /** HMAC-MD5 over the first {@code len} octets with the MA zeroed and the authenticator field {@code field} (null: as is). */
        static byte[] ma(byte[] w, int len, int ma, byte[] field, String secret) {
            byte[] c = Arrays.copyOf(w, len);
            if (field != null) {
                System.arraycopy(field, 0, c, 4, 16);
            }
            Arrays.fill(c, ma, ma + 16, (byte) 0);
            return hmac(secret, c, len);
        }

        /**
         * Signs a request in place over its Length (RFC 2865/2866/2869/5176): Message-Authenticator
         * with the packet's own authenticator (Access-Request, Status-Server, anything else) or
         * zeros (Accounting, CoA, Disconnect), then the computed Request Authenticator.
         */
        static void signRequest(byte[] w, String secret) {
            int len = Math.min(u16(w, 2), w.length);
            if (len < 20) {
                return;
            }
            int code = w[0] & 0xff;
            boolean computed = computedAuthenticator(code);
            if (computed) {
                Arrays.fill(w, 4, 20, (byte) 0);
            }
            int ma = maValue(w, len);
            if (ma >= 0) {
                System.arraycopy(ma(w, len, ma, null, secret), 0, w, ma, 16);
            }
            if (computed) {
                byte[] auth = md5(Arrays.copyOfRange(w, 0, len), secret.getBytes(StandardCharsets.UTF_8));
                System.arraycopy(auth, 0, w, 4, 16);
            }
        }

        /** The Authenticator field under a response's Message-Authenticator (RFC 2869 5.14, RFC 5997, RFC 5080 2.2.4 as FreeRADIUS). */
        static byte[] responseMaField(int code, int requestCode, byte[] requestAuth) {
            return code == 2 || code == 3 || code == 11 || requestCode == 12 ? requestAuth : new byte[16];
        }

        /** Signs a response in place over its Length: Message-Authenticator, then the Response Authenticator. */
        static void signResponse(byte[] w, int requestCode, byte[] requestAuth, String secret) {
            int len = Math.min(u16(w, 2), w.length);
            if (len < 20) {
                return;
            }
            int ma = maValue(w, len);
            if (ma >= 0) {
                System.arraycopy(ma(w, len, ma, responseMaField(w[0] & 0xff, requestCode, requestAuth), secret), 0,
                        w, ma, 16);
            }
            System.arraycopy(requestAuth, 0, w, 4, 16);
            byte[] auth = md5(Arrays.copyOfRange(w, 0, len), secret.getBytes(StandardCharsets.UTF_8));
            System.arraycopy(auth, 0, w, 4, 16);
        }

        /** The response's authenticators verify with {@code secret} against that request. */
        static boolean answerVerifies(byte[] w, int requestCode, byte[] requestAuth, String secret) {
            int len = u16(w, 2);
            byte[] c = Arrays.copyOf(w, len);
            System.arraycopy(requestAuth, 0, c, 4, 16);
            byte[] want = md5(c, secret.getBytes(StandardCharsets.UTF_8));
            if (!Arrays.equals(want, Arrays.copyOfRange(w, 4, 20))) {
                return false;
            }
            int ma = maValue(w, len);
            return ma < 0 || Arrays.equals(ma(w, len, ma, responseMaField(w[0] & 0xff, requestCode, requestAuth),
                    secret), Arrays.copyOfRange(w, ma, ma + 16));
        }
    }
}
