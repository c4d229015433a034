package io.mclb.radius.lb;

import io.mclb.net.TransportKind;
import io.mclb.net.Transports;
import io.mclb.testing.LoopAllocation;
import io.netty.channel.epoll.MclbDatagramChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tinyradius.packet.AccessRequest;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The RADIUS proxy end to end on the epoll transport, as {@code perf/bench/relay-cost.sh
 * SERVICE=radius} runs it: Access-Requests re-signed toward three AAAs, Calling-Station-Id sticky
 * over a bounded set of subscribers, framed IPs learnt from the Access-Accepts (group 2, shared with
 * the accounting virtual server). Once warm, its event loop allocates (almost) nothing per request:
 * the loop thread's allocation counter over 3,000 requests in bursts of 16, with Netty's leak
 * detector off, less an allowance for what the loop allocates per tick of time. The manual clock
 * moves 50 ms per burst, so answered transactions are forgotten after their 1 s linger and reused
 * (with their {@link RadiusTx}), and each subscriber's sticky and framed-IP entries are rewritten
 * about once per second of it (an extension moves the expiry by whole seconds): sticky writes are in
 * the window, not only reads. On main before the pooled states, the table's reused query views, the
 * cached real targets and the unboxed indexes (88f5cf5) the same test measured 375 bytes per request
 * (perf/README.md "Issue 15").
 */
class RadiusRelayAllocationTest {
    private static final int SUBSCRIBERS = 64;
    @TempDir
    Path dataDir;

    @AfterEach
    void leaveTheTransportAsOtherTestsExpect() {
        Transports.use(TransportKind.AUTO);
    }

    @Test
    void aWarmReSigningStickyRadiusRelayAllocatesNothingPerRequestOnItsLoop() throws Exception {
        assumeTrue(MclbDatagramChannel.isAvailable(), "mclb's epoll channel loads here");
        try (RadiusHarness h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("mclb transport epoll\n",
                " idle radius request 1\n", ""));
             DatagramChannel nas = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))) {
            h.auth.forEach((name, aaa) -> aaa.framedIp = "10.1.0." + name.substring(4));
            InetSocketAddress vip = new InetSocketAddress("127.0.0.100", h.vauth);
            LoopAllocation.Window w = LoopAllocation.asMclbRuns(() -> {
                // warm: JIT, pools, entries, the address caches; first 2,000 transactions lingering at once, so
                // the transaction tables grow past what the window holds however fast this box runs the loop
                exchange(h, nas, vip, 0, 2_000, 0);
                h.clock.advanceMillis(1_500);
                exchange(h, nas, vip, 2_000, 1_000, 50);
                return LoopAllocation.measure(() -> exchange(h, nas, vip, 3_000, 3_000, 50));
            });
            System.out.printf("radius relay: %d loop bytes over %d requests in %.1f s: %.1f bytes per request%n",
                    w.bytes(), w.requests(), w.seconds(), w.perRequest());
            assertThat(w.perRequest()).as("loop bytes allocated per answered request (%d bytes in %.1f s)", w.bytes(),
                    w.seconds()).isLessThan(32);
        }
    }

    /**
     * Sends {@code count} Access-Requests in bursts of 16, reads every answer (each an Access-Accept)
     * and moves the manual clock {@code advanceMs} after each burst.
     */
    private static int exchange(RadiusHarness h, DatagramChannel nas, InetSocketAddress vip, int first, int count,
                                long advanceMs) throws Exception {
        ByteBuffer in = ByteBuffer.allocateDirect(4096);
        Selector selector = Selector.open();
        nas.configureBlocking(false);
        SelectionKey key = nas.register(selector, SelectionKey.OP_READ);
        int answered = 0;
        try {
            for (int i = first; i < first + count; i += 16) {
                for (int j = i; j < i + 16; j++) {
                    int s = j % SUBSCRIBERS;
                    AccessRequest r = RadiusProxyTest.access("user" + s, "pw-" + s, String.format("4917%08d", s), j & 0xff);
                    nas.send(ByteBuffer.wrap(RadiusHarness.encode(r, RadiusHarness.NAS_SECRET)), vip);
                }
                int want = answered + 16;
                while (answered < want) {
                    assertThat(selector.select(30_000)).as("answers within 30 s (%d of %d)", answered, count).isPositive();
                    selector.selectedKeys().clear();
                    in.clear();
                    while (nas.receive(in) != null) {
                        assertThat(in.get(0)).as("Access-Accept").isEqualTo((byte) 2);
                        answered++;
                        in.clear();
                    }
                }
                h.clock.advanceMillis(advanceMs);
            }
        } finally {
            key.cancel();
            selector.close();
        }
        return answered;
    }
}
