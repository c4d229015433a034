package io.mclb.radius.lb;

import io.mclb.radius.codec.Dictionaries;
import io.micrometer.core.instrument.Gauge;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tinyradius.packet.AccessRequest;
import org.tinyradius.packet.RadiusPacket;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Pooled transaction states under the engine: while many requests wait at the AAAs, new requests,
 * retransmissions (whose classification state no transaction takes) and junk go through the
 * inspector, reusing the states of earlier, forgotten transactions. Each waiting request's state
 * holds its own NAS authenticator and upstream authenticator, so if one state were handed to two
 * live transactions, one of the two answers would be re-signed with the other's authenticators and
 * fail the NAS's check here.
 */
class RadiusStateReuseTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final int WAITING = 48;
    @TempDir
    Path dataDir;

    private record Held(FakeAaa aaa, byte[] request, InetSocketAddress from) {
    }

    @Test
    void answersToRequestsThatWaitedWhileStatesWereReusedEachVerifyForTheirOwnRequest() throws Exception {
        try (RadiusHarness h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", " idle radius request 1\n", ""))) {
            requestsWaitWhileStatesAreReused(h);
        }
    }

    private static void requestsWaitWhileStatesAreReused(RadiusHarness h) throws Exception {
        DatagramSocket nas = h.nas();
        for (int i = 0; i < WAITING; i++) { // states of transactions that will be forgotten, then reused
            AccessRequest r = RadiusProxyTest.access("early" + i, "pw-early-" + i, "49160000" + i, i);
            h.send(nas, RadiusHarness.encode(r, RadiusHarness.NAS_SECRET), h.vauth);
            assertThat(h.receive(nas, r).getPacketIdentifier()).isEqualTo(i);
        }
        h.clock.advanceMillis(1_500); // past the 1 s linger of answered transactions
        Gauge active = h.runtime.registry().find("mclb.transactions.active").tag("vserver", "RADIUS-AUTH").gauge();
        await().atMost(WAIT).until(() -> active.value() == 0);

        Map<String, Held> held = Collections.synchronizedMap(new LinkedHashMap<>());
        for (FakeAaa aaa : h.auth.values()) {
            aaa.responder = (request, secret) -> {
                // a repeated upstream id from the same socket is the proxy's retransmission: answered once
                String upstream = aaa.address() + " " + aaa.sender() + "/" + (request[1] & 0xff);
                held.putIfAbsent(upstream, new Held(aaa, request, aaa.sender()));
                return List.of();
            };
        }
        Map<Integer, AccessRequest> requests = new HashMap<>();
        for (int i = 0; i < WAITING; i++) {
            int id = 100 + i;
            AccessRequest r = RadiusProxyTest.access("late" + i, "pw-late-" + i, "49170000" + i, id);
            byte[] wire = RadiusHarness.encode(r, RadiusHarness.NAS_SECRET);
            requests.put(id, r);
            h.send(nas, wire, h.vauth);
            if (i % 3 == 0) {
                h.send(nas, wire, h.vauth); // a retransmission: its classification state goes straight back
            }
            if (i % 5 == 0) {
                h.send(nas, new byte[] {1, 2, 3}, h.vauth); // dropped before any state is taken
            }
        }
        await().atMost(WAIT).until(() -> held.size() == WAITING);
        assertThat(h.drops("RADIUS-AUTH", "radius_short_packet")).isPositive();

        List<Held> answers = new ArrayList<>(held.values());
        Collections.reverse(answers); // answers in another order than the requests: each finds its own state
        for (Held x : answers) {
            x.aaa().sendTo(answer(x.request(), x.aaa().secret), x.from());
        }
        List<Integer> answered = new ArrayList<>();
        for (int i = 0; i < WAITING; i++) {
            byte[] raw = h.receiveRaw(nas);
            int id = raw[1] & 0xff;
            AccessRequest request = requests.get(id);
            assertThat(request).as("an answer to identifier %d", id).isNotNull();
            // throws unless the Response Authenticator verifies with the NAS secret and this request's authenticator
            assertThat(RadiusHarness.decodeAnswer(raw, request).getPacketType()).isEqualTo(RadiusPacket.ACCESS_ACCEPT);
            answered.add(id);
        }
        assertThat(answered).doesNotHaveDuplicates().hasSize(WAITING);
    }

    /** An Access-Accept to {@code request} as the AAA with {@code secret} signs it. */
    private static byte[] answer(byte[] request, String secret) throws Exception {
        RadiusPacket req = RadiusPacket.decodeRequestPacket(Dictionaries.standard(), new ByteArrayInputStream(request),
                secret);
        RadiusPacket resp = new RadiusPacket(RadiusPacket.ACCESS_ACCEPT, req.getPacketIdentifier());
        resp.setDictionary(Dictionaries.standard());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        resp.encodeResponsePacket(out, secret, req);
        return out.toByteArray();
    }
}
