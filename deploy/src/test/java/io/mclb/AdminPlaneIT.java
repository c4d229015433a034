package io.mclb;

import io.mclb.server.MclbServer;
import io.mclb.service.Modules;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The admin plane of a running mclb (the whole server from a configuration file, as
 * {@link MetricNamesIT} runs it; issue 14, items 1 and 2): a thousand idle and half-sent connections
 * do not keep a scrape out, a half-sent request gets 408, a wrong method 405 with {@code Allow}, an
 * unknown path 404, {@code /healthz} and {@code /readyz} answer; over TCP a state change is 403
 * while no token is configured and 401 without or with a wrong one, while reads stay open; the
 * CLI ({@code mclb reload}) works over the local socket with no token, and over TCP with
 * {@code --token-file}.
 */
class AdminPlaneIT {
    private static final int HELD = 1000;
    /** {@code mclb admin timeout}: room for a busy box to open the thousand connections within it. */
    private static final int TIMEOUT_S = 15;

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private HttpResponse<String> send(int port, String method, String path, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).method(method, HttpRequest.BodyPublishers.noBody());
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String config(int admin, Path data, String extra) {
        return "mclb admin 127.0.0.1 " + admin + "\nmclb admin timeout " + TIMEOUT_S + "\n" + extra
                + "mclb data-dir " + data + "\nmclb sticky entries 10000\nmclb event-loops 1\n";
    }

    /** {@code mclb reload ARGS} as the CLI runs it; its exit code. */
    private static int reload(String... args) {
        return new CommandLine(new io.mclb.cli.ReloadCommand()).execute(args);
    }

    @Test
    void scrapesGetThroughHeldConnectionsAndOnlyTheTokenOrTheLocalSocketChangesThings() throws Exception {
        int admin = io.mclb.testing.Ports.freeTcp("127.0.0.1");
        Path data = dir.resolve("data");
        Path cfg = dir.resolve("mclb.cfg");
        Files.writeString(cfg, config(admin, data, ""));
        List<Socket> held = new ArrayList<>();
        try (MclbServer server = MclbServer.start(cfg, Modules.load())) {
            // a request that never completes: answered 408 once the timeout has passed
            Socket slow = new Socket("127.0.0.1", admin);
            held.add(slow);
            slow.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));

            assertThat(send(admin, "GET", "/healthz", null).statusCode()).isEqualTo(200);
            HttpResponse<String> ready = send(admin, "GET", "/readyz", null);
            assertThat(ready.statusCode()).isEqualTo(200);
            assertThat(ready.body()).isEqualTo("ready\n");
            HttpResponse<String> delete = send(admin, "DELETE", "/metrics", null);
            assertThat(delete.statusCode()).isEqualTo(405);
            assertThat(delete.headers().firstValue("Allow")).hasValue("GET, HEAD");
            assertThat(send(admin, "GET", "/no/such/path", null).statusCode()).isEqualTo(404);

            // no token configured: state changes over TCP are refused, reads are open
            HttpResponse<String> noToken = send(admin, "POST", "/api/v1/reload", null);
            assertThat(noToken.statusCode()).isEqualTo(403);
            assertThat(send(admin, "GET", "/api/v1/vservers", null).statusCode()).isEqualTo(200);
            assertThat(reload("--admin", "127.0.0.1:" + admin)).as("mclb reload over TCP, no token").isEqualTo(1);

            // the CLI over DATA_DIR/admin.sock needs none: it applies the file that adds the token
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data.resolve("admin.sock"))))
                    .isEqualTo("rw-------");
            Path token = dir.resolve("admin.token");
            String secret = "tok-" + System.nanoTime();
            Files.writeString(token, secret + "\n");
            Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
            Files.writeString(cfg, config(admin, data, "mclb admin token " + token + "\n"));
            assertThat(reload("-c", cfg.toString())).as("mclb reload -c over the local socket").isZero();

            HttpResponse<String> without = send(admin, "POST", "/api/v1/reload", null);
            assertThat(without.statusCode()).isEqualTo(401);
            assertThat(without.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                    v -> assertThat(v).startsWith("Bearer"));
            assertThat(send(admin, "POST", "/api/v1/reload", secret + "x").statusCode()).isEqualTo(401);
            assertThat(send(admin, "POST", "/api/v1/reload", secret).statusCode()).isEqualTo(200);
            assertThat(reload("--admin", "127.0.0.1:" + admin, "--token-file", token.toString()))
                    .as("mclb reload --admin --token-file").isZero();

            // a thousand connections, idle or half-sent, held while Prometheus scrapes
            long openingNs = System.nanoTime();
            for (int i = 0; i < HELD; i++) {
                Socket s = new Socket("127.0.0.1", admin);
                held.add(s);
                if (i % 2 == 0) {
                    s.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: x\r\nX-Half: "
                            .getBytes(StandardCharsets.US_ASCII));
                }
            }
            System.out.printf("AdminPlaneIT: %d connections opened in %d ms%n", HELD,
                    (System.nanoTime() - openingNs) / 1_000_000);
            // every scrape succeeds while they are held, until mclb has accepted them all
            HttpResponse<String> scrape = await().atMost(Duration.ofSeconds(TIMEOUT_S - 3)).until(
                    () -> scrape(admin), r -> gauge(r.body(), "mclb_admin_connections") >= HELD);
            assertThat(scrape.body()).contains("mclb_admin_refusals_total{reason=\"token_missing\"} 1.0",
                    "mclb_admin_refusals_total{reason=\"token_wrong\"} 1.0",
                    "mclb_admin_refusals_total{reason=\"token_not_configured\"} 2.0");
            assertThat(send(admin, "GET", "/api/v1/vservers?format=text", null).statusCode()).isEqualTo(200);

            slow.setSoTimeout(60_000);
            assertThat(new String(slow.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
                    .startsWith("HTTP/1.1 408");
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    /** One scrape on a connection of its own, as Prometheus makes it (a pooled one was accepted long ago). */
    private static HttpResponse<String> scrape(int port) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("a scrape while the connections are held").isEqualTo(200);
        return r;
    }

    private static double gauge(String exposition, String name) {
        for (String line : exposition.split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return -1;
    }
}
