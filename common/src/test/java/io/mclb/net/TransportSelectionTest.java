package io.mclb.net;

import io.mclb.config.ConfigError;
import io.mclb.config.ConfigException;
import io.mclb.config.ConfigParser;
import io.mclb.config.ConfigWriter;
import io.mclb.config.MclbConfig;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.mclb.testing.FakeUdpReal;
import io.mclb.time.ManualClock;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code mclb transport auto|epoll|io_uring|nio}: parsed once, written back by running-config,
 * refused with {@code file:line:} when unknown, and honoured end to end (the runtime's loops and
 * sockets are of the chosen transport and relay plain UDP).
 */
class TransportSelectionTest {
    @TempDir
    Path dir;

    private MclbRuntime rt;

    @AfterEach
    void tearDown() {
        if (rt != null) {
            rt.close();
        }
        Transports.use(TransportKind.AUTO); // the choice is process-wide: leave it as other tests expect
    }

    private MclbConfig parse(String text) throws Exception {
        return ConfigParser.parse("t.cfg", text, dir, List.of());
    }

    @Test
    void theLineIsParsedAndWrittenBackByRunningConfig() throws Exception {
        for (TransportKind k : TransportKind.values()) {
            MclbConfig c = parse("mclb transport " + k.keyword() + "\n");
            assertThat(c.global().transport()).isEqualTo(k);
            String written = ConfigWriter.write(c);
            assertThat(written.contains("mclb transport " + k.keyword() + "\n"))
                    .as("running-config of %s:%n%s", k, written).isEqualTo(k != TransportKind.AUTO);
            assertThat(parse(written).global()).isEqualTo(c.global());
        }
        assertThat(parse("").global().transport()).as("default").isEqualTo(TransportKind.AUTO);
        assertThat(parse("mclb transport IO_URING\n").global().transport()).isEqualTo(TransportKind.IO_URING);
    }

    @Test
    void badLinesNameTheValueAndWhatIsAllowed() {
        assertThat(errors("mclb transport dpdk\n"))
                .containsExactly("t.cfg:1: mclb transport dpdk: unknown transport, allowed auto|epoll|io_uring|nio");
        assertThat(errors("!\nmclb transport\n"))
                .containsExactly("t.cfg:2: mclb transport: missing transport, allowed auto|epoll|io_uring|nio");
        assertThat(errors("mclb transport epoll fast\n")).hasSize(1)
                .allSatisfy(e -> assertThat(e).startsWith("t.cfg:1: mclb transport epoll").contains("fast"));
    }

    private List<String> errors(String text) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> parse(text));
        assertThat(e).as("errors of %s", text).isNotNull();
        return e.errors().stream().map(ConfigError::toString).toList();
    }

    @Test
    void autoTakesEpollWhereItLoadsAndAnUnavailableTransportFallsBackSayingWhy() {
        assumeTrue(Epoll.isAvailable(), "epoll loads on Linux");
        Transports.Choice auto = Transports.use(TransportKind.AUTO);
        assertThat(auto.kind()).isEqualTo(TransportKind.EPOLL);
        assertThat(Transports.active()).isEqualTo(TransportKind.EPOLL);
        assertThat(Transports.use(TransportKind.NIO).kind()).isEqualTo(TransportKind.NIO);
        Transports.Choice uring = Transports.use(TransportKind.IO_URING);
        if (IoUring.isAvailable()) {
            assertThat(uring).isEqualTo(new Transports.Choice(TransportKind.IO_URING, "configured"));
        } else {
            assertThat(uring.kind()).isEqualTo(TransportKind.EPOLL);
            assertThat(uring.why()).startsWith("io_uring unavailable (");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"io_uring", "nio", "epoll"})
    void theRuntimeRelaysOnTheChosenTransport(String word) throws Exception {
        TransportKind kind = TransportKind.of(word);
        assumeTrue(kind != TransportKind.IO_URING || IoUring.isAvailable(), "io_uring available");
        assumeTrue(kind != TransportKind.EPOLL || Epoll.isAvailable(), "epoll available");
        try (FakeUdpReal real = new FakeUdpReal("127.0.0.11");
             DatagramSocket client = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))) {
            int port = io.mclb.testing.Ports.freeUdp("127.0.0.100");
            rt = MclbRuntime.start(parse("mclb transport " + word + "\nmclb event-loops 2\nmclb data-dir " + dir
                    + "\nip slb serverfarm F\n real 127.0.0.11 " + real.port() + "\n  inservice\n"
                    + "ip slb vserver V\n virtual 127.0.0.100 udp " + port + "\n serverfarm F\n inservice\n"),
                    Modules.of(), ServingGate.ALWAYS, new ManualClock());
            assertThat(Transports.active()).isEqualTo(kind);
            assertThat(rt.registry().get("mclb.info").tag("transport", word).gauge().value()).isEqualTo(1);
            InetSocketAddress vip = new InetSocketAddress("127.0.0.100", port);
            for (int i = 0; i < 20; i++) {
                DatagramPacket answer = FakeUdpReal.exchange(client, ("req-" + i).getBytes(), vip, 2000);
                assertThat(answer).as("answer %d over %s", i, word).isNotNull();
                assertThat(answer.getSocketAddress()).isEqualTo(vip);
                assertThat(new String(answer.getData(), 0, answer.getLength())).isEqualTo("req-" + i);
            }
            assertThat(real.received()).isEqualTo(20);
        }
    }
}
