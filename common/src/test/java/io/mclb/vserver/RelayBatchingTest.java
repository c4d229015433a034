package io.mclb.vserver;

import io.mclb.config.ConfigParser;
import io.mclb.net.TransportKind;
import io.mclb.net.Transports;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.mclb.testing.HeldLoop;
import io.mclb.testing.Ports;
import io.mclb.time.ManualClock;
import io.netty.channel.EventLoop;
import io.netty.channel.epoll.MclbDatagramChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The plain relay's system calls per wake-up on the epoll transport, counted on its sockets: the
 * answers of four flows, read from four upstream sockets (one per flow: the real is the same) in
 * one wake-up, leave the virtual address in one sendmmsg, as the C relay sends what it read
 * before it waits again; before, each upstream socket's read ended in a flush of its own (four
 * sendmmsg). Every answer still reaches its own client with its own bytes.
 */
class RelayBatchingTest {
    @TempDir
    Path dir;

    @AfterEach
    void leaveTheTransportAsOtherTestsExpect() {
        Transports.use(TransportKind.AUTO);
    }

    @Test
    void answersReadFromSeveralUpstreamSocketsInOneWakeUpLeaveTheVipInOneSendmmsg() throws Exception {
        assumeTrue(MclbDatagramChannel.isAvailable(), "mclb's epoll channel loads here");
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        List<DatagramChannel> clients = new ArrayList<>();
        try (DatagramChannel real = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getByName("127.0.0.11"), 0))) {
            for (int i = 0; i < 4; i++) {
                clients.add(DatagramChannel.open().bind(new InetSocketAddress(lo, 0)));
            }
            int port = Ports.freeUdp("127.0.0.100");
            int realPort = ((InetSocketAddress) real.getLocalAddress()).getPort();
            MclbRuntime rt = MclbRuntime.start(ConfigParser.parse("t.cfg", "mclb transport epoll\nmclb event-loops 1\nmclb data-dir " + dir
                            + "\nip slb serverfarm F\n real 127.0.0.11 " + realPort + "\n  inservice\n"
                            + "ip slb vserver V\n virtual 127.0.0.100 udp " + port + "\n serverfarm F\n inservice\n", dir, List.of()),
                    Modules.of(), ServingGate.ALWAYS, new ManualClock());
            try (rt) {
                InetSocketAddress vip = new InetSocketAddress("127.0.0.100", port);
                for (int i = 0; i < 4; i++) {
                    clients.get(i).send(ascii("q" + i), vip);
                }
                List<SocketAddress> upstreams = new ArrayList<>();
                List<String> requests = new ArrayList<>();
                real.configureBlocking(true);
                real.socket().setSoTimeout(10_000);
                ByteBuffer in = ByteBuffer.allocate(64);
                while (upstreams.size() < 4) {
                    in.clear();
                    upstreams.add(real.receive(in));
                    requests.add(text(in.flip()));
                }
                assertThat(new HashSet<>(upstreams)).as("a socket per flow to the one real").hasSize(4);

                Relay relay = rt.vservers().get("V").relaysOnPort(port).get(0);
                MclbDatagramChannel listener = (MclbDatagramChannel) relay.listener();
                EventLoop loop = relay.loop();
                long sendsBefore = loop.submit(listener::sendCalls).get();
                // the four answers land on four sockets while the loop is held: one wake-up reads them all
                try (HeldLoop held = HeldLoop.hold(loop)) {
                    for (int i = 0; i < 4; i++) {
                        real.send(ascii("a" + requests.get(i)), upstreams.get(i));
                    }
                }

                Set<String> answers = new HashSet<>();
                for (int i = 0; i < 4; i++) {
                    answers.add(receive(clients.get(i)));
                }
                assertThat(answers).as("each client its own answer").containsExactlyInAnyOrder("aq0", "aq1", "aq2", "aq3");
                long sends = loop.submit(listener::sendCalls).get() - sendsBefore;
                assertThat(sends).as("sendmmsg calls on the virtual address for four answers read in one wake-up").isEqualTo(1);
            }
        } finally {
            for (DatagramChannel c : clients) {
                c.close();
            }
        }
    }

    private static String receive(DatagramChannel c) throws Exception {
        c.configureBlocking(false);
        ByteBuffer in = ByteBuffer.allocate(64);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5)).until(() -> c.receive(in) != null);
        return text(in.flip());
    }

    private static ByteBuffer ascii(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
    }

    private static String text(ByteBuffer b) {
        return StandardCharsets.US_ASCII.decode(b).toString();
    }
}
