package io.mclb.ha;

import io.mclb.gtp.lb.GtpModule;
import io.mclb.service.ConfigSyntax;
import io.mclb.config.ConfigWriter;
import io.mclb.gtp.lb.GtpRecovery;
import io.mclb.server.MclbServer;
import io.mclb.service.Modules;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyKind;
import io.mclb.sticky.StickyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Replication wired into two running servers on loopback (127.0.0.2 active with priority 110,
 * 127.0.0.3 standby): sticky entries, the GTP Recovery value and the active's configuration reach
 * the standby; the standby keeps its own node lines and refuses a local reload.
 */
class HaReplicationWiringTest {
    @TempDir
    Path dir;

    @Test
    void bothHaSyntaxesAreOfferedToTheParserExactlyOnce() {
        var owners = Modules.load().syntaxes().stream().map(ConfigSyntax::owner).toList();
        assertThat(owners).containsOnlyOnce("ha", "ha-replication");
    }

    @Test
    void theStandbyReceivesStickyEntriesRecoveryAndTheActivesConfiguration() throws Exception {
        int haPort = freeUdp();
        int replPort = freeTcp();
        int vport = freeUdp();
        Path cfgA = write("a", "127.0.0.2", "127.0.0.3", 110, haPort, replPort, vport, "FARM-A", "127.0.0.11");
        Path cfgB = write("b", "127.0.0.3", "127.0.0.2", 100, haPort, replPort, vport, "FARM-B", "127.0.0.12");
        try (MclbServer a = MclbServer.start(cfgA, Modules.load())) {
            await().atMost(Duration.ofSeconds(10)).until(() -> a.runtime().vservers().get("V").serving());
            try (MclbServer b = MclbServer.start(cfgB, Modules.load())) {
                StickyKey key = new StickyKey().set(GtpModule.IMSI, 1, "262011234567890".getBytes(StandardCharsets.US_ASCII));
                long now = System.currentTimeMillis() / 1000;
                long realId = a.runtime().farms().get("FARM-A").reals()[0].id();
                a.runtime().stickyTable().put(key, new StickyValue().set(realId, now, now + 3600));
                StickyValue got = new StickyValue();
                await().atMost(Duration.ofSeconds(10)).until(() ->
                        b.runtime().stickyTable().get(key, got, System.currentTimeMillis()));
                assertThat(got.realId()).isEqualTo(realId);
                // show replicate on both nodes: the stream's two ends
                assertThat(show(a, "replicate")).contains("ACTIVE", "CONNECTED", "127.0.0.2", "127.0.0.3");
                await().atMost(Duration.ofSeconds(10)).until(() -> show(b, "replicate").contains("STANDBY")
                        && show(b, "replicate").contains("CONNECTED"));

                // the standby runs the active's farms and vservers, with its own node lines
                await().atMost(Duration.ofSeconds(10)).until(() -> b.runtime().farms().containsKey("FARM-A"));
                String running = ConfigWriter.write(b.runtime().config());
                assertThat(running).contains("ip address 127.0.0.3", "replicate casa 127.0.0.3 127.0.0.2")
                        .doesNotContain("FARM-B", "priority 110");
                assertThat(Files.readString(dir.resolve("b-data").resolve(HaReplication.STANDBY_CONFIG_FILE)))
                        .contains("ip slb serverfarm FARM-A");
                await().atMost(Duration.ofSeconds(10)).until(() ->
                        Files.readString(dir.resolve("b-data").resolve(GtpRecovery.FILE)).trim().equals(
                                Files.readString(dir.resolve("a-data").resolve(GtpRecovery.FILE)).trim()));

                // a change on the active is pushed again
                Files.writeString(cfgA, Files.readString(cfgA).replace("real 127.0.0.11 9", "real 127.0.0.13 9"));
                assertThat(a.reload().ok()).isTrue();
                await().atMost(Duration.ofSeconds(10)).until(() -> ConfigWriter.write(b.runtime().config())
                        .contains("127.0.0.13"));
                assertThat(b.reload().ok()).isFalse();
                assertThat(b.runtime().vservers().get("V").serving()).isFalse();

                // a new password on the active only: the standby still has the old one, which the
                // roll-over window (60 s here) keeps valid, so entries keep reaching it
                Files.writeString(cfgA, Files.readString(cfgA).replace("password 0 s3cret", "password 0 n3w 60"));
                assertThat(a.reload().ok()).isTrue();
                StickyKey later = new StickyKey().set(GtpModule.IMSI, 1,
                        "262019999999999".getBytes(StandardCharsets.US_ASCII));
                await().atMost(Duration.ofSeconds(10)).until(() -> ConfigWriter.write(a.runtime().config())
                        .contains("n3w"));
                await().atMost(Duration.ofSeconds(10)).until(() -> {
                    a.runtime().stickyTable().put(later, new StickyValue().set(realId, now, now + 3600));
                    return b.runtime().stickyTable().get(later, got, System.currentTimeMillis());
                });
            }
        }
    }

    private static String show(MclbServer s, String view) throws Exception {
        var a = s.admin().address();
        var r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + a.getPort() + "/api/v1/" + view + "?format=text")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }

    private Path write(String node, String self, String peer, int priority, int haPort, int replPort, int vport,
                       String farm, String real) throws Exception {
        Path cfg = dir.resolve(node + ".cfg");
        Files.writeString(cfg, "mclb admin 127.0.0.1 " + freeTcp() + "\nmclb data-dir " + dir.resolve(node + "-data")
                + "\nmclb sticky entries 10000\nmclb ha vip-control noop\nmclb ha port " + haPort + "\n"
                + "interface lo\n ip address " + self + " 255.0.0.0\n standby 7 ip 127.0.0.100\n"
                + " standby 7 priority " + priority + "\n standby 7 peer " + peer + "\n"
                + " standby 7 timers msec 100 msec 300\n standby 7 name T\n"
                + "ip slb serverfarm " + farm + "\n real " + real + " 9\n  inservice\n"
                + "ip slb vserver V\n virtual 127.0.0.100 udp " + vport + " service gtp-inspect\n serverfarm " + farm
                + "\n sticky gtp imsi group 1\n replicate casa " + self + " " + peer + " " + replPort
                + " password 0 s3cret\n inservice standby T\n");
        return cfg;
    }

    private static int freeUdp() throws Exception {
        return io.mclb.testing.Ports.freeUdp("127.0.0.1");
    }

    private static int freeTcp() throws Exception {
        return io.mclb.testing.Ports.freeTcp("0.0.0.0");
    }
}
