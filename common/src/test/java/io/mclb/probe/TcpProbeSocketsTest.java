package io.mclb.probe;

import io.mclb.config.ConfigParser;
import io.mclb.farm.RealState;
import io.mclb.net.TransportKind;
import io.mclb.net.Transports;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.mclb.testing.Ports;
import io.mclb.time.ManualClock;
import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The tcp probe's connections as its target sees them, on epoll and on a Netty channel (nio, as
 * io_uring): each check completes a handshake and ends it with a reset (no FIN, so no TIME_WAIT
 * on either side), a refusal and a silent target fail with their reasons; on epoll the checks
 * reuse one socket (connect, reset, connect again) instead of opening one per check, also after
 * a timeout.
 */
class TcpProbeSocketsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String TIMING = " interval 1\n timeout 1\n faildetect 1\n";

    @TempDir
    Path dir;
    private MclbRuntime rt;
    private final List<AutoCloseable> peers = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() throws Exception {
        if (rt != null) {
            rt.close();
        }
        for (AutoCloseable p : peers) {
            p.close();
        }
        Transports.use(TransportKind.AUTO); // process-wide: leave it as other tests expect
    }

    private void start(String transport, String address, int port) throws Exception {
        int vport = Ports.freeUdp("127.0.0.100");
        String cfg = "mclb transport " + transport + "\nmclb data-dir " + dir.resolve("data") + "\nmclb event-loops 1\n"
                + "ip slb probe T tcp\n port " + port + "\n" + TIMING
                + "ip slb serverfarm F\n probe T\n real " + address + " 9\n  inservice\n"
                + "ip slb vserver V\n virtual 127.0.0.100 udp " + vport + "\n serverfarm F\n inservice\n";
        Modules m = Modules.of();
        rt = MclbRuntime.start(ConfigParser.parse("t.cfg", cfg, dir, m.grammar()), m, ServingGate.ALWAYS,
                new ManualClock());
    }

    private ProbeStatus status() {
        return rt.probeStatus().stream().filter(s -> s.probe().equals("T")).findFirst().orElseThrow();
    }

    private void awaitResult(String result, String reasonPart) {
        await().atMost(WAIT).untilAsserted(() -> {
            ProbeStatus s = status();
            assertThat(s.lastResult()).as("%s", s).isEqualTo(result);
            assertThat(s.lastReason()).contains(reasonPart);
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"epoll", "nio"}) // nio: the Netty channel every transport but epoll uses
    void everyCheckIsAHandshakeEndedByAResetAndARefusalFails(String transport) throws Exception {
        TransportKind kind = TransportKind.of(transport);
        assumeTrue(kind != TransportKind.EPOLL || Epoll.isAvailable(), "epoll available");
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.33"));
        peers.add(listener);
        List<String> endings = new CopyOnWriteArrayList<>();
        AtomicBoolean done = new AtomicBoolean();
        Thread acceptor = new Thread(() -> {
            while (!done.get()) {
                try (Socket s = listener.accept()) {
                    endings.add(ending(s));
                } catch (IOException e) {
                    return; // listener closed
                }
            }
        }, "tcp-target");
        acceptor.setDaemon(true);
        acceptor.start();
        start(transport, "127.0.0.33", listener.getLocalPort());
        await().atMost(WAIT).until(() -> endings.size() >= 3);
        awaitResult("success", "");
        assertThat(rt.farms().get("F").reals()[0].state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(new ArrayList<>(endings)).as("how each check's connection ended at the target")
                .allMatch(e -> e.equals("reset"));
        if (kind == TransportKind.EPOLL) {
            assertThat(openTcpProbeSockets()).as("sockets the epoll checks keep open").isEqualTo(1);
        }
        done.set(true);
        listener.close();
        awaitResult("failure", "connection refused");
        await().atMost(WAIT).until(() -> rt.farms().get("F").reals()[0].state() == RealState.PROBE_FAILED);
    }

    /**
     * A listener whose accept queue is full drops SYNs: the connect stays in progress until the
     * probe's timeout aborts it, and the same socket connects once the queue drains.
     */
    @Test
    void aSilentTargetTimesOutAndTheSocketServesTheNextCheck() throws Exception {
        assumeTrue(Epoll.isAvailable(), "epoll available");
        ServerSocket listener = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.34"));
        listener.setSoTimeout(50);
        peers.add(listener);
        Semaphore accepting = new Semaphore(1, true); // held by the test: the target accepts nothing
        Thread acceptor = new Thread(() -> {
            while (!listener.isClosed()) {
                try {
                    accepting.acquire();
                } catch (InterruptedException e) {
                    return;
                }
                try {
                    peers.add(listener.accept());
                } catch (SocketTimeoutException e) {
                    // let a pause in
                } catch (IOException e) {
                    return;
                } finally {
                    accepting.release();
                }
            }
        }, "tcp-target");
        acceptor.setDaemon(true);
        acceptor.start();
        start("epoll", "127.0.0.34", listener.getLocalPort());
        awaitResult("success", "");
        accepting.acquire();
        InetSocketAddress at = new InetSocketAddress("127.0.0.34", listener.getLocalPort());
        for (int i = 0; i < 5; i++) { // until a SYN is dropped: the queue (backlog 1) is full
            Socket s = new Socket();
            peers.add(s);
            try {
                s.connect(at, 500);
            } catch (SocketTimeoutException e) {
                break;
            }
        }
        awaitResult("timeout", "timeout after 1 s");
        assertThat(rt.farms().get("F").reals()[0].state()).isEqualTo(RealState.PROBE_FAILED);
        accepting.release();
        awaitResult("success", "");
        await().atMost(WAIT).until(() -> rt.farms().get("F").reals()[0].state() == RealState.OPERATIONAL);
        assertThat(openTcpProbeSockets()).as("the timed-out socket was reused, not replaced").isEqualTo(1);
    }

    /** "reset" when the peer aborted the connection, "fin" when it closed it in order. */
    private static String ending(Socket s) {
        try {
            s.setSoTimeout(5000);
            return s.getInputStream().read() < 0 ? "fin" : "data";
        } catch (SocketException e) {
            return e.getMessage().contains("reset") ? "reset" : e.getMessage();
        } catch (IOException e) {
            return e.toString();
        }
    }

    private int openTcpProbeSockets() throws Exception {
        return rt.loops().next().submit(TcpProbeSockets::openOnAllLoops).get();
    }
}
