package io.mclb.interop;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 11, KAL-AP load for a real GSLB: PowerDNS Authoritative (LUA record {@code ifurlup}, peers.md
 * section 11) answers {@code ggsn.gslb.test} with the site whose mclb says {@code online} on
 * {@code GET /api/v1/kal-ap/ggsn}. Two sites, each an mclb process in front of a real osmo-ggsn
 * watched by a gtp-echo probe. When a site's last GGSN dies its load goes to 255, the URL answers
 * 503, and PowerDNS answers with the other site only; when it comes back and the other dies, the
 * answers switch over.
 *
 * <p>The same two processes are also DFP manager and agent: site A runs {@code ip dfp agent}; site
 * B manages it (its farm SITE-A has site A's virtual address as real). Site A losing its GGSN
 * reports weight 0 at once, so site B's real for it is DFP_THROTTLED and B's {@code tier} tag,
 * in absolute mode ({@code farm-weight}), goes offline too.
 */
class GslbPowerDnsInteropIT {
    private static final String SITE_A = "127.0.0.51";
    private static final String SITE_B = "127.0.0.52";

    @TempDir
    Path tmp;

    @Test
    void powerDnsAnswersWithTheOnlineSiteAndSwitchesWhenItsLastRealFails() throws Exception {
        try (Netns ns = Netns.create(tmp)) {
            ns.run(() -> {
                OsmoGgsn ggsnA = OsmoGgsn.start(ns, 1);
                OsmoGgsn ggsnB = OsmoGgsn.start(ns, 2);
                Path cfgA = MclbProcess.writeResource(ns, "gslb-site-a.cfg",
                        t -> t.replace("@DATA_DIR@", ns.dir().resolve("data-a").toString()));
                Path cfgB = MclbProcess.writeResource(ns, "gslb-site-b.cfg",
                        t -> t.replace("@DATA_DIR@", ns.dir().resolve("data-b").toString()));
                CompletableFuture<MclbProcess> startA = CompletableFuture.supplyAsync(() -> {
                    try {
                        return MclbProcess.start(ns, cfgA, SITE_A, 18090);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                MclbProcess b = MclbProcess.start(ns, cfgB, SITE_B, 18090);
                MclbProcess a = startA.join();
                await(() -> a.status("/api/v1/kal-ap/ggsn") == 200 && b.status("/api/v1/kal-ap/ggsn") == 200);
                await(() -> b.get("/api/v1/kal-ap/tier").contains("\"load\":0"));
                assertThat(a.get("/api/v1/kal-ap/ggsn")).contains("\"load\":0", "\"state\":\"online\"");

                NsProcess pdns = startPowerDns(ns);
                await(() -> Set.of(SITE_A, SITE_B).containsAll(answers(ns)) && !answers(ns).isEmpty());

                ggsnA.process().stop(Duration.ofSeconds(5));
                await(() -> a.status("/api/v1/kal-ap/ggsn") == 503);
                assertThat(a.get("/api/v1/kal-ap")).contains("\"load\":255", "\"state\":\"offline\"");
                assertThat(MclbProcess.sum(a.metrics(), "mclb_kalap_load", "vserver=\"GN\"")).isEqualTo(255);
                await(() -> onlyAnswer(ns, SITE_B));
                // the tier above site A: its agent reported 0 at once
                await(() -> b.get("/api/v1/reals").contains("\"DFP_THROTTLED\""));
                assertThat(b.status("/api/v1/kal-ap/tier")).isEqualTo(503);

                OsmoGgsn.start(ns, 1);
                ggsnB.process().stop(Duration.ofSeconds(5));
                await(() -> b.status("/api/v1/kal-ap/ggsn") == 503 && a.status("/api/v1/kal-ap/ggsn") == 200);
                await(() -> onlyAnswer(ns, SITE_A));
                await(() -> b.status("/api/v1/kal-ap/tier") == 200);
                assertThat(pdns.isAlive()).isTrue();
            });
        }
    }

    private static NsProcess startPowerDns(Netns ns) throws Exception {
        Path dir = ns.dir().resolve("pdns");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("pdns.conf"), String.join("\n", "launch=bind",
                "bind-config=" + dir.resolve("named.conf"), "local-address=127.0.0.53", "local-port=5300",
                "enable-lua-records=yes", "lua-health-checks-interval=1", "socket-dir=" + dir, "daemon=no",
                "guardian=no", ""));
        Files.writeString(dir.resolve("named.conf"),
                "zone \"gslb.test\" { type master; file \"" + dir.resolve("gslb.test.zone") + "\"; };\n");
        Files.writeString(dir.resolve("gslb.test.zone"), String.join("\n", "$TTL 1",
                "@ IN SOA ns.gslb.test. hostmaster.gslb.test. 1 3600 600 86400 1", "@ IN NS ns.gslb.test.",
                "ns IN A 127.0.0.53",
                "ggsn IN LUA A \"ifurlup('http://site.gslb.test:18090/api/v1/kal-ap/ggsn', {'" + SITE_A + "', '"
                        + SITE_B + "'}, {stringmatch='online'})\"", ""));
        NsProcess p = ns.start("pdns", List.of("pdns_server", "--config-dir=" + dir));
        ns.awaitUdpListening(p, Duration.ofSeconds(30), "127.0.0.53:5300");
        return p;
    }

    /** The A records PowerDNS gives for ggsn.gslb.test now. */
    private static Set<String> answers(Netns ns) throws Exception {
        Path script = MclbProcess.writeResource(ns, "dns_query.py", t -> t);
        Netns.Result r = ns.exec(Duration.ofSeconds(15), "/usr/bin/python3", script.toString(), "ggsn.gslb.test")
                .check("DNS query");
        return new TreeSet<>(Arrays.asList(r.output().strip().split("\\s+")));
    }

    /** Five answers in a row name only {@code site}. */
    private static boolean onlyAnswer(Netns ns, String site) throws Exception {
        for (int i = 0; i < 5; i++) {
            if (!answers(ns).equals(Set.of(site))) {
                return false;
            }
        }
        return true;
    }

    private static void await(java.util.concurrent.Callable<Boolean> done) {
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .ignoreExceptions().until(done);
    }
}
