package io.mclb.admin;

import io.mclb.config.AdminLine;
import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.mclb.testing.Ports;
import io.mclb.testing.TestPki;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The admin plane in process over loopback and its local socket: methods and paths, who may change
 * things, the request deadline, size limits, the connection cap and TLS.
 */
class AdminServerTest {
    @TempDir
    Path dir;
    private MclbRuntime rt;
    private AdminServer admin;
    private final AtomicInteger reloads = new AtomicInteger();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void close() {
        if (admin != null) {
            admin.close();
        }
        if (rt != null) {
            rt.close();
        }
    }

    private String base() {
        return "http://127.0.0.1:" + admin.address().getPort();
    }

    private void start(String extraLines, int maxConnections, int timeoutSeconds, AdminLine.Tls tls) throws Exception {
        MclbConfig c = ConfigParser.parse("t.cfg", "mclb data-dir " + dir.resolve("data") + "\nmclb event-loops 1\n"
                + "mclb sticky entries 1000\n" + extraLines, dir, List.of());
        rt = MclbRuntime.start(c, Modules.of(), ServingGate.ALWAYS, new ManualClock());
        AdminOptions o = new AdminOptions(new InetSocketAddress("127.0.0.1", Ports.freeTcp("127.0.0.1")),
                dir.resolve("data").resolve(AdminOptions.SOCKET_FILE), tls, maxConnections, timeoutSeconds);
        admin = new AdminServer(o, () -> rt, () -> {
            reloads.incrementAndGet();
            return new AdminServer.ReloadResult(true, List.of(), List.of());
        }, () -> "running\n");
        admin.start();
    }

    private HttpResponse<String> send(String method, String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(20))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private Path tokenFile(String token) throws Exception {
        Path f = dir.resolve("admin.token");
        Files.writeString(f, token + "\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        return f;
    }

    private double refusals(String reason) {
        return rt.registry().get("mclb.admin.refusals").tag("reason", reason).counter().count();
    }

    @Test
    void wrongMethodIs405WithAllowUnknownPathIs404AndHealthAndReadinessAnswer() throws Exception {
        start("", 64, 10, null);
        AtomicReference<String> notReady = new AtomicReference<>("HA group T: Listen, neither active nor standby yet");
        admin.addReadiness(notReady::get);

        HttpResponse<String> del = send("DELETE", "/metrics", null);
        assertThat(del.statusCode()).isEqualTo(405);
        assertThat(del.headers().firstValue("Allow")).hasValue("GET, HEAD");
        HttpResponse<String> getReload = send("GET", "/api/v1/reload", null);
        assertThat(getReload.statusCode()).isEqualTo(405);
        assertThat(getReload.headers().firstValue("Allow")).hasValue("POST");
        assertThat(send("POST", "/api/v1/vservers", null).headers().firstValue("Allow")).hasValue("GET, HEAD");
        assertThat(send("GET", "/nope", null).statusCode()).isEqualTo(404);
        assertThat(send("GET", "/api/v1/nope", null).statusCode()).isEqualTo(404);
        assertThat(send("GET", "/healthz", null).statusCode()).isEqualTo(200);

        HttpResponse<String> ready = send("GET", "/readyz", null);
        assertThat(ready.statusCode()).isEqualTo(503);
        assertThat(ready.body()).isEqualTo("not ready: HA group T: Listen, neither active nor standby yet\n");
        notReady.set(null);
        assertThat(send("GET", "/readyz", null).statusCode()).isEqualTo(200);
        assertThat(send("GET", "/api/v1/vservers", null).statusCode()).isEqualTo(200);
        assertThat(send("GET", "/metrics", null).body()).contains("mclb_admin_refusals_total{reason=\"token_wrong\"}");
    }

    @Test
    void stateChangesOverTcpNeedTheTokenTheLocalSocketDoesNot() throws Exception {
        start("", 64, 10, null);
        HttpResponse<String> none = send("POST", "/api/v1/reload", null);
        assertThat(none.statusCode()).isEqualTo(403);
        assertThat(none.body()).contains("mclb admin token FILE");
        assertThat(refusals("token_not_configured")).isEqualTo(1);
        assertThat(reloads).hasValue(0);

        // the token arrives with a reload: the running configuration's token applies at once
        rt.reload(ConfigParser.parse("t.cfg", "mclb data-dir " + dir.resolve("data") + "\nmclb event-loops 1\n"
                + "mclb sticky entries 1000\nmclb admin token " + tokenFile("s3cret") + "\n", dir, List.of()));
        HttpResponse<String> missing = send("POST", "/api/v1/reload", null);
        assertThat(missing.statusCode()).isEqualTo(401);
        assertThat(missing.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v)
                .startsWith("Bearer"));
        assertThat(send("POST", "/api/v1/reload", "s3cre").statusCode()).isEqualTo(401);
        assertThat(send("POST", "/api/v1/reload", "s3cret-").statusCode()).isEqualTo(401);
        assertThat(reloads).hasValue(0);
        assertThat(refusals("token_missing")).isEqualTo(1);
        assertThat(refusals("token_wrong")).isEqualTo(2);
        assertThat(send("POST", "/api/v1/reload", "s3cret").statusCode()).isEqualTo(200);
        assertThat(reloads).hasValue(1);
        assertThat(send("GET", "/api/v1/vservers", null).statusCode()).isEqualTo(200);

        Path sock = admin.localSocket();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(sock))).isEqualTo("rw-------");
        assertThat(overLocalSocket(sock, "POST /api/v1/reload HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
                + "Connection: close\r\n\r\n")).startsWith("HTTP/1.1 200");
        assertThat(reloads).hasValue(2);
    }

    @Test
    void aHalfSentRequestGets408AndOversizedOnesAreRefused() throws Exception {
        start("", 64, 1, null);
        try (Socket s = new Socket("127.0.0.1", admin.address().getPort())) {
            s.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
            s.setSoTimeout(20_000);
            assertThat(new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
                    .startsWith("HTTP/1.1 408");
        }
        assertThat(refusals("timeout")).isEqualTo(1);
        assertThat(raw("GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(10_000) + "\r\n\r\n"))
                .startsWith("HTTP/1.1 431");
        assertThat(raw("GET /" + "a".repeat(5000) + " HTTP/1.1\r\nHost: x\r\n\r\n")).startsWith("HTTP/1.1 414");
        assertThat(raw("POST /api/v1/reload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n"))
                .startsWith("HTTP/1.1 413");
        assertThat(refusals("too_large")).isEqualTo(3);
        assertThat(reloads).hasValue(0);
    }

    @Test
    void pastTheCapTheOldestIdleConnectionMakesRoom() throws Exception {
        start("", 16, 10, null);
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 16; i++) {
                idle.add(new Socket("127.0.0.1", admin.address().getPort()));
            }
            assertThat(send("GET", "/metrics", null).statusCode()).isEqualTo(200);
            idle.get(0).setSoTimeout(20_000);
            assertThat(idle.get(0).getInputStream().read()).isEqualTo(-1);
            assertThat(refusals("connection_limit")).isGreaterThanOrEqualTo(1);
        } finally {
            for (Socket s : idle) {
                s.close();
            }
        }
    }

    @Test
    void tlsFromPemFiles() throws Exception {
        TestPki.Leaf leaf = new TestPki(dir, "admin").leaf("mclb-admin", "127.0.0.1");
        start("", 64, 10, new AdminLine.Tls(leaf.cert(), leaf.key()));
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        ks.load(null, null);
        ks.setCertificateEntry("ca", io.mclb.net.PemFiles.certs(leaf.ca()).get(0));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        HttpClient https = HttpClient.newBuilder().sslContext(ssl).build();
        HttpResponse<String> r = https.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:"
                + admin.address().getPort() + "/healthz")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        // plain HTTP on the TLS port gets no answer
        assertThat(raw("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")).doesNotStartWith("HTTP/1.1 200");
    }

    private String raw(String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", admin.address().getPort())) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] head = new byte[64];
            int n = 0;
            for (int r; n < head.length && (r = in.read(head, n, head.length - n)) > 0; ) {
                n += r;
            }
            return new String(head, 0, n, StandardCharsets.US_ASCII);
        } catch (java.net.SocketException e) {
            return "reset: " + e.getMessage();
        }
    }

    private static String overLocalSocket(Path sock, String request) throws Exception {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(sock));
            ch.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)));
            ByteBuffer in = ByteBuffer.allocate(4096);
            await().atMost(Duration.ofSeconds(20)).until(() -> ch.read(in) < 0 || in.position() > 12);
            return new String(in.array(), 0, in.position(), StandardCharsets.US_ASCII);
        }
    }
}
