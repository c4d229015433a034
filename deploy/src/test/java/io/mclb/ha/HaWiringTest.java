package io.mclb.ha;

import io.mclb.server.MclbServer;
import io.mclb.service.Modules;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The HA extension found by ServiceLoader and wired into a running server: a node alone comes up
 * active, its standby-gated virtual server then serves, {@code show failover} and the failover
 * actions answer on the admin listener, and the metrics carry the HA names.
 */
class HaWiringTest {
    @TempDir
    Path dir;

    @Test
    void aLoneNodeBecomesActiveAndServesItsStandbyGatedVirtualServer() throws Exception {
        int admin;
        admin = io.mclb.testing.Ports.freeTcp("127.0.0.1");
        int vport = io.mclb.testing.Ports.freeUdp("127.0.0.1");
        int haPort = io.mclb.testing.Ports.freeUdp("127.0.0.1");
        Path cfg = dir.resolve("mclb.cfg");
        // failover over TCP is a state change: it needs the admin token
        Path token = dir.resolve("admin.token");
        Files.writeString(token, "ha-wiring\n");
        Files.setPosixFilePermissions(token, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Files.writeString(cfg, "mclb admin 127.0.0.1 " + admin + "\nmclb admin token " + token + "\nmclb data-dir " + dir.resolve("data")
                + "\nmclb sticky entries 10000\nmclb ha vip-control noop\nmclb ha port " + haPort + "\n"
                + "interface lo\n ip address 127.0.0.1 255.0.0.0\n standby 5 ip 127.0.0.100\n"
                + " standby 5 timers msec 50 msec 200\n standby 5 name T\n"
                + "ip slb serverfarm F\n real 127.0.0.11 9\n  inservice\n"
                + "ip slb vserver V\n virtual 127.0.0.1 udp " + vport + "\n serverfarm F\n inservice standby T\n");
        try (MclbServer server = MclbServer.start(cfg, Modules.load())) {
            assertThat(server.runtime().vservers().get("V").serving()).isFalse();
            await().atMost(Duration.ofSeconds(10)).until(() -> server.runtime().vservers().get("V").serving());
            HttpClient http = HttpClient.newHttpClient();
            String base = "http://127.0.0.1:" + admin;
            HttpResponse<String> view = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/failover")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(view.statusCode()).isEqualTo(200);
            // ready once the group is active (GET /readyz reports a group still electing as not ready)
            await().atMost(Duration.ofSeconds(10)).until(() -> http.send(HttpRequest.newBuilder(
                    URI.create(base + "/readyz")).build(), HttpResponse.BodyHandlers.ofString()).statusCode() == 200);
            assertThat(view.body()).contains("\"host\":\"This host\"", "\"state\":\"Active\"", "\"host\":\"Other host\"");
            HttpResponse<String> act = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/failover/active"))
                    .header("Authorization", "Bearer ha-wiring").POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(act.statusCode()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(10)).until(() -> http.send(HttpRequest.newBuilder(
                    URI.create(base + "/api/v1/failover?format=text")).build(), HttpResponse.BodyHandlers.ofString())
                    .body().contains("Active (forced)"));
            String metrics = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertThat(metrics).contains("mclb_ha_state{group=\"T\",state=\"Active\"} 1.0",
                    "mclb_ha_transitions_total{group=\"T\",to=\"Active\"}");

            // a reload applies a changed priority to the running group, which stays active
            Files.writeString(cfg, Files.readString(cfg).replace(" standby 5 name T\n",
                    " standby 5 name T\n standby 5 priority 150\n"));
            assertThat(server.reload().ok()).isTrue();
            await().atMost(Duration.ofSeconds(10)).until(() -> http.send(HttpRequest.newBuilder(
                    URI.create(base + "/api/v1/failover")).build(), HttpResponse.BodyHandlers.ofString())
                    .body().contains("\"priority\":150"));
            assertThat(server.runtime().vservers().get("V").serving()).isTrue();
        }
    }

    @Test
    void aNodeWithoutHaSaysSoForShowFailoverAndShowReplicate() throws Exception {
        int admin = io.mclb.testing.Ports.freeTcp("127.0.0.1");
        int vport = io.mclb.testing.Ports.freeUdp("127.0.0.1");
        Path cfg = dir.resolve("plain.cfg");
        Files.writeString(cfg, "mclb admin 127.0.0.1 " + admin + "\nmclb data-dir " + dir.resolve("plain-data")
                + "\nmclb sticky entries 10000\nip slb serverfarm F\n real 127.0.0.11 9\n  inservice\n"
                + "ip slb vserver V\n virtual 127.0.0.1 udp " + vport + "\n serverfarm F\n inservice\n");
        try (MclbServer server = MclbServer.start(cfg, Modules.load())) {
            HttpClient http = HttpClient.newHttpClient();
            for (String view : List.of("failover", "replicate")) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + admin + "/api/v1/" + view + "?format=text")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as("%s: %s", view, r.body()).isEqualTo(400);
                assertThat(r.body()).as(view).contains("show " + view + ": this ");
            }
        }
    }
}
