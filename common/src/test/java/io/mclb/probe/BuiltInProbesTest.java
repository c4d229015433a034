package io.mclb.probe;

import com.sun.net.httpserver.HttpServer;
import io.mclb.config.ConfigParser;
import io.mclb.farm.RealState;
import io.mclb.net.TransportKind;
import io.mclb.net.Transports;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.mclb.testing.FakeUdpReal;
import io.mclb.testing.Ports;
import io.mclb.time.ManualClock;
import io.netty.channel.EventLoop;
import io.netty.channel.epoll.Epoll;
import io.netty.util.concurrent.EventExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The engine's built-in probe types in a running runtime against peers on loopback (a TCP
 * listener, the JDK's HTTP server, a UDP echo, a DNS responder replaying dnsmasq's answers, the
 * kernel's own echo replies): each passes what it should, and each way a target disappoints is a
 * failure whose reason {@code show probe detail} shows, never an exception. nginx, dnsmasq and a
 * ping across namespaces are in {@code HealthProbesInteropIT}.
 */
class BuiltInProbesTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

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

    private void start(String probes, String farms) throws Exception {
        start("auto", probes, farms);
    }

    private void start(String transport, String probes, String farms) throws Exception {
        start(transport, 1, probes, farms);
    }

    private void start(String transport, int loops, String probes, String farms) throws Exception {
        int vport = Ports.freeUdp("127.0.0.100");
        String cfg = "mclb transport " + transport + "\nmclb data-dir " + dir.resolve("data") + "\nmclb event-loops "
                + loops + "\n"
                + farms + probes
                + "ip slb vserver V\n virtual 127.0.0.100 udp " + vport + "\n serverfarm " + firstFarm(farms)
                + "\n inservice\n";
        Modules m = Modules.of();
        rt = MclbRuntime.start(ConfigParser.parse("t.cfg", cfg, dir, m.grammar()), m, ServingGate.ALWAYS,
                new ManualClock());
    }

    private static String firstFarm(String farms) {
        return farms.substring("ip slb serverfarm ".length(), farms.indexOf('\n'));
    }

    private static String farm(String name, String probe, String real) {
        return "ip slb serverfarm " + name + "\n probe " + probe + "\n real " + real + "\n  inservice\n";
    }

    private ProbeStatus status(String probe) {
        return rt.probeStatus().stream().filter(s -> s.probe().equals(probe)).findFirst().orElseThrow();
    }

    private void awaitResult(String probe, String result, String reasonPart) {
        await().atMost(WAIT).untilAsserted(() -> {
            ProbeStatus s = status(probe);
            assertThat(s.lastResult()).as("%s", s).isEqualTo(result);
            assertThat(s.lastReason()).contains(reasonPart);
        });
    }

    private static final String TIMING = " interval 1\n timeout 1\n faildetect 1\n";

    @Test
    void tcpPassesAConnectionAndFailsARefusal() throws Exception {
        int port = Ports.freeTcp("127.0.0.31");
        ServerSocket listener = new ServerSocket(port, 50, InetAddress.getByName("127.0.0.31"));
        peers.add(listener);
        start("ip slb probe T tcp\n port " + port + "\n handshake full\n" + TIMING, farm("F", "T", "127.0.0.31 9"));
        awaitResult("T", "success", "");
        assertThat(status("T").target()).isEqualTo("127.0.0.31:" + port + " (tcp)");
        assertThat(rt.farms().get("F").reals()[0].state()).isEqualTo(RealState.OPERATIONAL);
        listener.close();
        awaitResult("T", "failure", "connection refused");
        await().atMost(WAIT).until(() -> rt.farms().get("F").reals()[0].state() == RealState.PROBE_FAILED);
    }

    /**
     * As the target sees them: each check completes a handshake and ends it with a reset (no FIN,
     * so no TIME_WAIT on either side), on epoll's pooled sockets ({@link TcpProbeSockets}, one
     * socket for every check, from one source port) and on the Netty channel of the other
     * transports (nio here).
     */
    @ParameterizedTest
    @ValueSource(strings = {"epoll", "nio"})
    void tcpChecksEndWithAResetAndARefusalFailsOnEitherPath(String transport) throws Exception {
        assumeTrue(!transport.equals("epoll") || Epoll.isAvailable(), "epoll available");
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.36"));
        peers.add(listener);
        List<String> endings = new CopyOnWriteArrayList<>();
        List<Integer> sourcePorts = new CopyOnWriteArrayList<>();
        Thread acceptor = new Thread(() -> {
            while (true) {
                try (Socket s = listener.accept()) {
                    sourcePorts.add(s.getPort());
                    endings.add(ending(s));
                } catch (IOException e) {
                    return; // listener closed
                }
            }
        }, "tcp-target");
        acceptor.setDaemon(true);
        acceptor.start();
        start(transport, "ip slb probe T tcp\n port " + listener.getLocalPort() + "\n handshake full\n" + TIMING,
                farm("F", "T", "127.0.0.36 9"));
        await().atMost(WAIT).until(() -> endings.size() >= 3);
        awaitResult("T", "success", "");
        assertThat(new ArrayList<>(endings)).as("how each check's connection ended at the target")
                .allMatch(e -> e.equals("reset"));
        if (transport.equals("epoll")) {
            assertThat(openTcpProbeSockets()).as("sockets the epoll checks keep open").isEqualTo(1);
            // the pooled socket keeps the port of its first connect: no ephemeral port search per check
            assertThat(new ArrayList<>(sourcePorts)).as("source port of each check").hasSizeGreaterThanOrEqualTo(3)
                    .containsOnly(sourcePorts.get(0));
        }
        listener.close();
        awaitResult("T", "failure", "connection refused");
    }

    /**
     * A listener whose accept queue is full drops SYNs: the connect stays in progress until the
     * probe's timeout aborts it, and the same socket connects once the queue drains.
     */
    @Test
    void aSilentTcpTargetTimesOutAndTheSocketServesTheNextCheck() throws Exception {
        assumeTrue(Epoll.isAvailable(), "epoll available");
        ServerSocket listener = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.37"));
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
        start("epoll", "ip slb probe T tcp\n port " + listener.getLocalPort() + "\n handshake full\n" + TIMING,
                farm("F", "T", "127.0.0.37 9"));
        awaitResult("T", "success", "");
        accepting.acquire();
        InetSocketAddress at = new InetSocketAddress("127.0.0.37", listener.getLocalPort());
        for (int i = 0; i < 5; i++) { // until a SYN is dropped: the queue (backlog 1) is full
            Socket s = new Socket();
            peers.add(s);
            try {
                s.connect(at, 500);
            } catch (SocketTimeoutException e) {
                break;
            }
        }
        awaitResult("T", "timeout", "timeout after 1 s");
        assertThat(rt.farms().get("F").reals()[0].state()).isEqualTo(RealState.PROBE_FAILED);
        accepting.release();
        awaitResult("T", "success", "");
        await().atMost(WAIT).until(() -> rt.farms().get("F").reals()[0].state() == RealState.OPERATIONAL);
        assertThat(openTcpProbeSockets()).as("the timed-out socket was reused, not replaced").isEqualTo(1);
    }

    /**
     * With CAP_NET_RAW (the default where the process has it) a check is half-open: the
     * listener's kernel answers the SYN, the host's kernel resets its SYN-ACK, and the listening
     * application never sees a connection; a closed port's reset fails the check as refused.
     */
    @Test
    void halfOpenChecksPassAListenerThatNeverAcceptsAConnectionAndFailARefusal() throws Exception {
        assumeTrue(Epoll.isAvailable() && TcpRawSocket.available(false), "epoll and raw sockets (CAP_NET_RAW)");
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.38"));
        listener.setSoTimeout(100);
        peers.add(listener);
        start("epoll", "ip slb probe T tcp\n port " + listener.getLocalPort() + "\n" + TIMING,
                farm("F", "T", "127.0.0.38 9"));
        await().atMost(WAIT).until(() -> status("T").passes() >= 3);
        assertThat(status("T").target()).isEqualTo("127.0.0.38:" + listener.getLocalPort() + " (tcp half-open)");
        assertThat(rt.farms().get("F").reals()[0].state()).isEqualTo(RealState.OPERATIONAL);
        try (Socket s = listener.accept()) {
            throw new AssertionError("a half-open check completed a connection from port " + s.getPort());
        } catch (SocketTimeoutException e) {
            // nothing in the accept queue: every check's half-open connection was reset
        }
        listener.close();
        awaitResult("T", "failure", "connection refused");
        await().atMost(WAIT).until(() -> rt.farms().get("F").reals()[0].state() == RealState.PROBE_FAILED);
    }

    /**
     * A half-open check proves what a connect proves: a listener whose accept queue is full drops
     * the SYN (the kernel's {@code tcp_conn_request}), the check times out, and passes again once
     * the application accepts.
     */
    @Test
    void aHalfOpenCheckOfAListenerWithAFullAcceptQueueTimesOut() throws Exception {
        assumeTrue(Epoll.isAvailable() && TcpRawSocket.available(false), "epoll and raw sockets (CAP_NET_RAW)");
        ServerSocket listener = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.39"));
        peers.add(listener);
        start("epoll", "ip slb probe T tcp\n port " + listener.getLocalPort() + "\n" + TIMING,
                farm("F", "T", "127.0.0.39 9"));
        awaitResult("T", "success", "");
        InetSocketAddress at = new InetSocketAddress("127.0.0.39", listener.getLocalPort());
        for (int i = 0; i < 5; i++) { // until a SYN is dropped: the queue (backlog 1) is full
            Socket s = new Socket();
            peers.add(s);
            try {
                s.connect(at, 500);
            } catch (SocketTimeoutException e) {
                break;
            }
        }
        awaitResult("T", "timeout", "timeout after 1 s");
        assertThat(rt.farms().get("F").reals()[0].state()).isEqualTo(RealState.PROBE_FAILED);
        listener.setSoTimeout(100);
        Thread acceptor = new Thread(() -> {
            while (!listener.isClosed()) {
                try {
                    peers.add(listener.accept());
                } catch (SocketTimeoutException e) {
                    // until closed
                } catch (IOException e) {
                    return;
                }
            }
        }, "tcp-target");
        acceptor.setDaemon(true);
        acceptor.start();
        awaitResult("T", "success", "");
        await().atMost(WAIT).until(() -> rt.farms().get("F").reals()[0].state() == RealState.OPERATIONAL);
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

    @Test
    void httpChecksStatusBodyAndCredentialsAndSendsAHost() throws Exception {
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.32", 0), 16);
        List<String> hosts = new CopyOnWriteArrayList<>();
        http.createContext("/ok", ex -> {
            hosts.add(ex.getRequestHeaders().getFirst("Host"));
            reply(ex, 200, "all systems operational");
        });
        http.createContext("/secret", ex -> {
            String auth = ex.getRequestHeaders().getFirst("Authorization");
            // ops:s3cret in base64
            reply(ex, "Basic b3BzOnMzY3JldA==".equals(auth) ? 200 : 401, "who are you");
        });
        http.createContext("/down", ex -> reply(ex, 503, "maintenance"));
        http.start();
        peers.add(() -> http.stop(0));
        int port = http.getAddress().getPort();
        String real = "127.0.0.32 " + port;
        start("ip slb probe OK http\n request method get url /ok\n expect status 200 regex operational\n port " + port
                        + "\n" + TIMING
                        + "ip slb probe AUTH http\n request url /secret\n credentials ops s3cret\n port " + port + "\n" + TIMING
                        + "ip slb probe NOAUTH http\n request url /secret\n expect status 401\n port " + port + "\n" + TIMING
                        + "ip slb probe DOWN http\n request url /down\n port " + port + "\n" + TIMING
                        + "ip slb probe WORDS http\n request url /ok\n expect regex maintenance\n port " + port + "\n" + TIMING,
                farm("F1", "OK", real) + farm("F2", "AUTH", real) + farm("F3", "NOAUTH", real) + farm("F4", "DOWN", real)
                        + farm("F5", "WORDS", real));
        awaitResult("OK", "success", "");
        awaitResult("AUTH", "success", "");
        awaitResult("NOAUTH", "success", "");
        awaitResult("DOWN", "failure", "expected status 200, got 503");
        awaitResult("WORDS", "failure", "the body does not match regex 'maintenance'");
        assertThat(hosts).contains("127.0.0.32:" + port);
        assertThat(status("OK").target()).isEqualTo("http://127.0.0.32:" + port + "/ok");
    }

    private static void reply(com.sun.net.httpserver.HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
        ex.close();
    }

    @Test
    void customUdpMatchesClausesAtTheirOffsets() throws Exception {
        FakeUdpReal echo = new FakeUdpReal("127.0.0.33");
        peers.add(echo);
        String real = "127.0.0.33 " + echo.port();
        start("ip slb probe SAME custom udp\n request data 0 05 04 00 77\n response 1 data 2 0077\n" + TIMING
                        + "ip slb probe OTHER custom udp\n request data 0 05040077\n response 1 data 0 05\n"
                        + " response 2 data 1 ff\n" + TIMING
                        + "ip slb probe LONG custom udp\n request data 0 01\n response 1 data 4 01\n" + TIMING,
                farm("F1", "SAME", real) + farm("F2", "OTHER", real) + farm("F3", "LONG", real));
        awaitResult("SAME", "success", "");
        awaitResult("OTHER", "failure", "clause 2: expected ff at byte 1, got 04");
        awaitResult("LONG", "failure", "answer of 1 bytes too short for clause 1");
        echo.setSilent(true);
        awaitResult("SAME", "timeout", "timeout after 1 s");
    }

    @Test
    void theChecksOfOneProbeOnALoopShareOneSocketAndEachGetsItsOwnAnswer() throws Exception {
        FakeUdpReal a = new FakeUdpReal("127.0.0.36");
        FakeUdpReal b = new FakeUdpReal("127.0.0.37");
        peers.add(a);
        peers.add(b);
        String ra = "127.0.0.36 " + a.port();
        // the same real in two farms: two checks of one probe with one target on one socket
        start("ip slb probe U custom udp\n request data 0 6d636c62\n response 1 data 0 6d636c62\n" + TIMING,
                farm("F1", "U", ra) + farm("F2", "U", ra) + farm("F3", "U", "127.0.0.37 " + b.port()));
        await().atMost(WAIT).untilAsserted(() -> assertThat(rt.probeStatus()).hasSize(3)
                .allSatisfy(s -> assertThat(s.lastResult()).as("%s", s).isEqualTo("success")));
        assertThat(a.senderPorts()).as("one source port for every check of the probe").hasSize(1)
                .isEqualTo(b.senderPorts());
        b.setSilent(true);
        await().atMost(WAIT).until(() -> rt.farms().get("F3").reals()[0].state() == RealState.PROBE_FAILED);
        // the silent target's checks time out on the shared socket; the other target's still pass
        await().atMost(WAIT).until(() -> rt.farms().get("F1").reals()[0].state() == RealState.OPERATIONAL
                && rt.farms().get("F2").reals()[0].state() == RealState.OPERATIONAL);
    }

    /** Answers A queries with dnsmasq's captured answers ({@link DnsWireTest}), the query's id patched in. */
    private static final class FakeDns implements AutoCloseable {
        final DatagramSocket socket;
        final Thread thread;

        FakeDns(String address) throws IOException {
            socket = new DatagramSocket(new InetSocketAddress(address, 0));
            thread = new Thread(this::run, "fake-dns");
            thread.setDaemon(true);
            thread.start();
        }

        private void run() {
            byte[] b = new byte[512];
            while (!socket.isClosed()) {
                DatagramPacket p = new DatagramPacket(b, b.length);
                try {
                    socket.receive(p);
                    String q = new String(b, 12, p.getLength() - 12, StandardCharsets.ISO_8859_1);
                    byte[] a = HexFormat.of().parseHex(q.contains("probe") ? DnsWireTest.ANSWER : DnsWireTest.NXDOMAIN);
                    a[0] = b[0];
                    a[1] = b[1];
                    socket.send(new DatagramPacket(a, a.length, p.getSocketAddress()));
                } catch (IOException e) {
                    return;
                }
            }
        }

        @Override
        public void close() {
            socket.close();
        }
    }

    @Test
    void dnsPassesAnAnswerAndFailsNxdomainAndAWrongAddress() throws Exception {
        FakeDns dns = new FakeDns("127.0.0.34");
        peers.add(dns);
        String port = " port " + dns.socket.getLocalPort() + "\n";
        String real = "127.0.0.34 53";
        start("ip slb probe ANY dns\n lookup probe.test\n" + port + TIMING
                        + "ip slb probe EXACT dns\n lookup probe.test 192.0.2.7\n" + port + TIMING
                        + "ip slb probe WRONG dns\n lookup probe.test\n lookup 192.0.2.8\n" + port + TIMING
                        + "ip slb probe GONE dns\n lookup nothere.test\n" + port + TIMING,
                farm("F1", "ANY", real) + farm("F2", "EXACT", real) + farm("F3", "WRONG", real) + farm("F4", "GONE", real));
        awaitResult("ANY", "success", "");
        awaitResult("EXACT", "success", "");
        awaitResult("WRONG", "failure", "probe.test answered 192.0.2.7, expected [192.0.2.8]");
        awaitResult("GONE", "failure", "NXDOMAIN for nothere.test");
    }

    @Test
    void pingGetsTheKernelsEchoRepliesOverIpv4AndIpv6() throws Exception {
        start("ip slb probe P4 ping\n" + TIMING + "ip slb probe P6 ping\n" + TIMING,
                farm("F4", "P4", "127.0.0.35 9") + farm("F6", "P6", "::1 9"));
        awaitResult("P4", "success", "");
        awaitResult("P6", "success", "");
        // root without ping_group_range here: raw sockets (the interop test runs the datagram kind)
        assertThat(status("P4").target()).startsWith("127.0.0.35 (icmp ");
        assertThat(Map.of("P4", status("P4").lastRttNs(), "P6", status("P6").lastRttNs()))
                .allSatisfy((k, v) -> assertThat(v).isPositive());
    }

    /**
     * A raw ICMP socket gets every echo reply of the host, so with one per event loop each loop
     * would read the replies to all the others; the kernel filter on the identifier (as iputils
     * ping installs) hands each loop's socket only its own.
     */
    @Test
    void eachLoopsRawIcmpSocketReadsOnlyItsOwnEchoReplies() throws Exception {
        StringBuilder reals = new StringBuilder("ip slb serverfarm F\n probe P\n");
        for (int i = 41; i <= 44; i++) { // round robin: two reals on each loop
            reals.append(" real 127.0.0.").append(i).append(" 9\n  inservice\n");
        }
        start("auto", 2, "ip slb probe P ping\n" + TIMING, reals.toString());
        await().atMost(WAIT).until(() -> rt.probeStatus().stream().allMatch(s -> s.passes() >= 3));
        assumeTrue(status("P").target().contains("icmp raw"), "raw ICMP sockets (root, ping_group_range closed)");
        long foreign = 0;
        for (EventExecutor loop : rt.loops()) {
            foreign += loop.submit(() -> IcmpSocket.foreignReplies((EventLoop) loop)).get();
        }
        assertThat(foreign).as("echo replies of the other loop read by a loop's raw socket").isZero();
    }
}
