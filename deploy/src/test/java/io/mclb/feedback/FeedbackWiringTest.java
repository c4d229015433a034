package io.mclb.feedback;

import io.mclb.farm.RealServer;
import io.mclb.farm.RealState;
import io.mclb.server.MclbServer;
import io.mclb.service.Modules;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Load feedback in two assembled servers: a "site" mclb runs {@code ip dfp agent SITE} and reports
 * its virtual server's headroom; a "tier" mclb is DFP manager over two site addresses with
 * {@code farm-weight}. The tier's real takes the site's weight, follows it when the site loses
 * reals (0 at once when the last one goes), and falls back to its static weight when the site goes
 * away; KAL-AP loads follow in both modes, on {@code /metrics} and {@code /api/v1/kal-ap[/TAG]}
 * (503 while offline); {@code show dfp} and {@code show dfp weights} answer.
 */
class FeedbackWiringTest {
    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(int admin, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aTierOfManagersFollowsASitesReportedHeadroomAndItsKalApLoad() throws Exception {
        int adminSite = io.mclb.testing.Ports.freeTcp("127.0.0.1");
        int adminTier = io.mclb.testing.Ports.freeTcp("127.0.0.1");
        int dfp = io.mclb.testing.Ports.freeTcp("0.0.0.0");
        int vport = io.mclb.testing.Ports.freeUdp("127.0.0.120");
        int tport = io.mclb.testing.Ports.freeUdp("127.0.0.130");
        Path site = dir.resolve("site.cfg");
        Files.writeString(site, "mclb admin 127.0.0.1 " + adminSite + "\nmclb data-dir " + dir.resolve("site")
                + "\nmclb sticky entries 10000\n"
                + "ip dfp agent SITE\n port " + dfp + "\n password 0 feedback\n interval 30\n inservice\n"
                + "ip slb serverfarm GGSN\n real 127.0.0.11 9\n  inservice\n real 127.0.0.12 9\n  inservice\n"
                + "ip slb vserver GN\n virtual 127.0.0.120 udp " + vport + "\n serverfarm GGSN\n kal-ap domain ggsn\n"
                + " inservice\n");
        Path tier = dir.resolve("tier.cfg");
        Files.writeString(tier, "mclb admin 127.0.0.1 " + adminTier + "\nmclb data-dir " + dir.resolve("tier")
                + "\nmclb sticky entries 10000\n"
                + "ip slb dfp password 0 feedback\n agent 127.0.0.1 " + dfp + " 3 0 1\n"
                + "ip slb serverfarm SITES\n farm-weight 32\n real 127.0.0.120 " + vport + "\n  inservice\n"
                + " real 127.0.0.121 " + vport + "\n  inservice\n"
                + "ip slb vserver ALL\n virtual 127.0.0.130 udp " + tport + "\n serverfarm SITES\n kal-ap domain all\n"
                + " inservice\n");
        try (MclbServer s = MclbServer.start(site, Modules.load())) {
            try (MclbServer t = MclbServer.start(tier, Modules.load())) {
                RealServer siteReal = t.runtime().farms().get("SITES").reals()[0];
                await().atMost(Duration.ofSeconds(15)).until(() -> siteReal.operWeight() == 16);
                String real = "127.0.0.120:" + vport;
                String m = get(adminTier, "/metrics").body();
                assertThat(m).contains("mclb_dfp_agent_state{agent=\"127.0.0.1:" + dfp + "\"} 4.0",
                        "mclb_real_weight{farm=\"SITES\",real=\"" + real + "\",source=\"dfp\"} 16.0",
                        "mclb_real_weight{farm=\"SITES\",real=\"127.0.0.121:" + vport + "\",source=\"dfp\"} NaN",
                        "mclb_dfp_refused_total{agent=\"127.0.0.1:" + dfp + "\",reason=\"security\"} 0.0",
                        "mclb_dfp_unknown_hosts_total{agent=\"127.0.0.1:" + dfp + "\"} 0.0",
                        // absolute: (16 reported + 8 static) x 256 / 32
                        "mclb_kalap_load{tag=\"all\",vserver=\"ALL\"} 64.0");
                assertThat(m).containsPattern("mclb_dfp_reports_total\\{agent=\"127.0.0.1:" + dfp + "\"} [1-9]");
                assertThat(get(adminSite, "/metrics").body()).contains("mclb_dfp_managers{agent=\"SITE\"} 1.0",
                        "mclb_kalap_load{tag=\"ggsn\",vserver=\"GN\"} 0.0");
                assertThat(get(adminTier, "/api/v1/dfp?format=text").body()).contains("passwd SET")
                        .containsPattern("agent +127\\.0\\.0\\.1 +" + dfp + " +open +3 +0 +1 ");
                assertThat(get(adminTier, "/api/v1/dfp?table=weights").body()).contains("\"real\":\"127.0.0.120\"",
                        "\"protocol\":\"udp\"", "\"port\":" + vport, "\"weight\":16", "\"agent\":\"127.0.0.1:" + dfp + "\"");
                assertThat(get(adminSite, "/api/v1/dfp?format=text").body()).contains("local SITE", "1 manager(s)");

                // the site loses a GGSN: its headroom halves, an early report carries it
                RealServer[] ggsns = s.runtime().farms().get("GGSN").reals();
                ggsns[0].fail(s.runtime().clock().nanoTime(), "test");
                await().atMost(Duration.ofSeconds(5)).until(() -> siteReal.operWeight() == 8);
                HttpResponse<String> one = get(adminSite, "/api/v1/kal-ap/ggsn");
                assertThat(one.statusCode()).isEqualTo(200);
                assertThat(one.body()).contains("\"load\":128", "\"state\":\"online\"");

                // ...and its last one: weight 0 at once, and the site's tag goes offline for a GSLB
                ggsns[1].fail(s.runtime().clock().nanoTime(), "test");
                await().atMost(Duration.ofSeconds(5)).until(() -> siteReal.state() == RealState.DFP_THROTTLED);
                HttpResponse<String> off = get(adminSite, "/api/v1/kal-ap/ggsn");
                assertThat(off.statusCode()).isEqualTo(503);
                assertThat(off.body()).contains("\"load\":255", "\"state\":\"offline\"");
                assertThat(get(adminTier, "/api/v1/kal-ap/all").body()).as("(0 + 8) x 256 / 32").contains("\"load\":192");
                assertThat(get(adminTier, "/api/v1/kal-ap/nonesuch").statusCode()).isEqualTo(404);
                assertThat(get(adminTier, "/api/v1/kal-ap?format=text").body()).containsPattern(
                        "ALL +all +192 +online +absolute +SITES");
            }
        }
    }

    @Test
    void staticWeightsComeBackWhenTheSiteGoesAndTheAgentIsRetried() throws Exception {
        int adminTier = io.mclb.testing.Ports.freeTcp("127.0.0.1");
        int adminSite = io.mclb.testing.Ports.freeTcp("127.0.0.1");
        int dfp = io.mclb.testing.Ports.freeTcp("0.0.0.0");
        int vport = io.mclb.testing.Ports.freeUdp("127.0.0.120");
        Path site = dir.resolve("site.cfg");
        Files.writeString(site, "mclb admin 127.0.0.1 " + adminSite + "\nmclb data-dir " + dir.resolve("site")
                + "\nmclb sticky entries 10000\nip dfp agent SITE\n port " + dfp + "\n inservice\n"
                + "ip slb serverfarm GGSN\n real 127.0.0.11 9\n  weight 3\n  inservice\n"
                + "ip slb vserver GN\n virtual 127.0.0.120 udp " + vport + "\n serverfarm GGSN\n inservice\n");
        Path tier = dir.resolve("tier.cfg");
        Files.writeString(tier, "mclb admin 127.0.0.1 " + adminTier + "\nmclb data-dir " + dir.resolve("tier")
                + "\nmclb sticky entries 10000\nip slb dfp\n agent 127.0.0.1 " + dfp + " 0 0 1\n"
                + "ip slb serverfarm SITES\n real 127.0.0.120 " + vport + "\n  inservice\n"
                + "ip slb vserver ALL\n virtual 127.0.0.130 udp " + vport + "\n serverfarm SITES\n inservice\n");
        try (MclbServer t = MclbServer.start(tier, Modules.load())) {
            RealServer siteReal = t.runtime().farms().get("SITES").reals()[0];
            try (MclbServer s = MclbServer.start(site, Modules.load())) {
                await().atMost(Duration.ofSeconds(15)).until(() -> siteReal.operWeight() == 3);
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> siteReal.operWeight() == 8 && siteReal.dfpWeight() < 0);
            // the agent comes back (a restarted site): reconnected within the retry interval
            try (MclbServer s = MclbServer.start(site, Modules.load())) {
                await().atMost(Duration.ofSeconds(15)).until(() -> siteReal.operWeight() == 3);
                // a reload removes the manager: static weights again
                Files.writeString(tier, Files.readString(tier).replace("ip slb dfp\n agent 127.0.0.1 " + dfp + " 0 0 1\n", ""));
                assertThat(t.reload().ok()).isTrue();
                await().atMost(Duration.ofSeconds(5)).until(() -> siteReal.operWeight() == 8);
            }
        }
    }
}
