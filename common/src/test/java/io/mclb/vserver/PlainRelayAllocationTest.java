package io.mclb.vserver;

import io.mclb.config.ConfigParser;
import io.mclb.net.TransportKind;
import io.mclb.net.Transports;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.mclb.testing.FakeUdpReal;
import io.mclb.testing.LoopAllocation;
import io.mclb.testing.Ports;
import io.mclb.time.ManualClock;
import io.netty.channel.epoll.MclbDatagramChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The plain UDP relay end to end on the epoll transport (client -> VIP -> real -> VIP -> client,
 * two datagrams read per request): once warm, its event loop allocates nothing per request. What
 * is measured is the loop thread's allocation counter over 3,000 requests in bursts of 16, with
 * Netty's leak detector off (it samples 1 buffer in 128 on purpose; perf/README.md "Issue 15"),
 * less an allowance for what the loop allocates per tick of time rather than per request.
 * Before mclb's own read path the same loop allocated about 290 bytes per request, 140 of them
 * Netty's inbound packet and sender address per datagram.
 */
class PlainRelayAllocationTest {
    @TempDir
    Path dir;

    @AfterEach
    void leaveTheTransportAsOtherTestsExpect() {
        Transports.use(TransportKind.AUTO);
    }

    @Test
    void aWarmPlainRelayAllocatesNothingPerRequestOnItsLoop() throws Exception {
        assumeTrue(MclbDatagramChannel.isAvailable(), "mclb's epoll channel loads here");
        try (FakeUdpReal real = new FakeUdpReal("127.0.0.11");
             DatagramChannel client = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))) {
            int port = Ports.freeUdp("127.0.0.100");
            MclbRuntime rt = MclbRuntime.start(ConfigParser.parse("t.cfg", "mclb transport epoll\nmclb event-loops 1\nmclb data-dir " + dir
                            + "\nip slb serverfarm F\n real 127.0.0.11 " + real.port() + "\n  inservice\n"
                            + "ip slb vserver V\n virtual 127.0.0.100 udp " + port + "\n serverfarm F\n inservice\n", dir, List.of()),
                    Modules.of(), ServingGate.ALWAYS, new ManualClock());
            try (rt) {
                measure(client, new InetSocketAddress("127.0.0.100", port));
            }
        }
    }

    /** Warms the relay, then checks its loop's allocation over 3,000 requests (leak detector off). */
    private static void measure(DatagramChannel client, InetSocketAddress vip) throws Exception {
        LoopAllocation.Window w = LoopAllocation.asMclbRuns(() -> {
            exchange(client, vip, 2_000); // warm: JIT, pools, the flow and the address cache
            return LoopAllocation.measure(() -> exchange(client, vip, 3_000));
        });
        assertThat(w.perRequest()).as("loop bytes allocated per answered request (%d bytes in %.1f s)", w.bytes(),
                w.seconds()).isLessThan(8);
    }

    /** Sends {@code count} requests in bursts of 16 and reads every answer; returns the answers. */
    private static int exchange(DatagramChannel client, InetSocketAddress vip, int count) throws Exception {
        ByteBuffer out = ByteBuffer.allocateDirect(32);
        ByteBuffer in = ByteBuffer.allocateDirect(64);
        java.nio.channels.Selector selector = java.nio.channels.Selector.open();
        client.configureBlocking(false);
        client.register(selector, java.nio.channels.SelectionKey.OP_READ);
        int answered = 0;
        try {
            for (int i = 0; i < count; i += 16) {
                for (int j = 0; j < 16; j++) {
                    out.clear();
                    out.putLong(i + j).flip();
                    client.send(out, vip);
                }
                int want = answered + 16;
                while (answered < want) {
                    assertThat(selector.select(5000)).as("answers within 5 s (%d of %d)", answered, count).isPositive();
                    selector.selectedKeys().clear();
                    in.clear();
                    while (client.receive(in) != null) {
                        answered++;
                        in.clear();
                    }
                }
            }
        } finally {
            selector.close();
        }
        return answered;
    }
}
