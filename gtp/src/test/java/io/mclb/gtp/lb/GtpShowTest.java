package io.mclb.gtp.lb;

import io.mclb.admin.AdminViews;
import io.mclb.admin.ShowArgs;
import io.mclb.admin.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The show views an IOS operator types on a GGSN farm, against a running GTP service: {@code gtp
 * gsn} with the GSN idle timer, {@code gtp nsapi}, {@code sticky gtp imsi id IMSI}, {@code conns
 * vserver NAME detail}, {@code serverfarms} with {@code failaction gtp purge}.
 */
class GtpShowTest {
    @TempDir
    Path dir;
    private GtpHarness h;

    @AfterEach
    void close() {
        if (h != null) {
            h.close();
        }
    }

    private static Map<String, String> args(String a) {
        return Map.of("args", a);
    }

    private static List<String> column(Table t, String name) {
        return t.rows().stream().map(r -> String.valueOf(r.get(name))).toList();
    }

    @Test
    void gsnNsapiStickyConnsAndFarmsAfterOneCreate() throws Exception {
        h = new GtpHarness();
        List<FakeGgsn> farm = h.threeGgsns();
        int port = GtpHarness.freePort("127.0.0.1");
        StringBuilder cfg = new StringBuilder("mclb data-dir " + dir + "\nmclb sticky entries 10000\nmclb event-loops 1\n"
                + "ip slb timers gtp gsn 30\n"
                + "ip slb serverfarm GGSN-FARM\n failaction gtp purge\n");
        for (FakeGgsn g : farm) {
            cfg.append(" real ").append(g.address()).append(' ').append(g.port()).append("\n  inservice\n");
        }
        cfg.append("ip slb vserver GGSN-GN\n virtual 127.0.0.1 udp ").append(port).append(" service gtp-inspect\n"
                + " serverfarm GGSN-FARM\n sticky gtp imsi group 1\n idle gtp request 90\n inservice\n");
        h.start(h.parse(dir, cfg.toString()));
        InetSocketAddress vip = new InetSocketAddress("127.0.0.1", port);
        DatagramSocket sgsn = h.client();
        GtpHarness.send(sgsn, GtpHarness.v1Create("262010000000042", 7), vip);
        assertThat(GtpHarness.v1Cause(GtpHarness.receive(sgsn))).isEqualTo(128);
        FakeGgsn chosen = h.ggsns.get(h.gotCreate(new int[3]));
        GtpView gtp = new GtpView(h.factory.module(), h.clock);

        Table gsn = gtp.table(args("gsn"));
        assertThat(column(gsn, "type")).containsExactly("SGSN", "GGSN");
        assertThat(column(gsn, "ip-addr")).containsExactly("127.0.0.1", chosen.address());
        assertThat(column(gsn, "recovery-ie")).as("the SGSN's create said 0, the GGSN's answer 1")
                .containsExactly("0", "1");
        assertThat(column(gtp.table(args("gsn " + chosen.address() + " detail")), "sessions")).containsExactly("1");

        Table nsapi = gtp.table(args("nsapi 262010000000042"));
        assertThat(column(nsapi, "nsapi")).containsExactly("5");
        assertThat(column(nsapi, "ggsn")).containsExactly(chosen.address() + ":" + chosen.port());
        assertThat(gtp.table(args("nsapi 262010000000042:6")).rows()).isEmpty();

        AdminViews views = new AdminViews(h.runtime);
        Table sticky = views.sticky(ShowArgs.of("sticky", args("gtp imsi id 262010000000042")), null, 100);
        assertThat(column(sticky, "identity")).containsExactly("262010000000042");
        assertThat(views.sticky(ShowArgs.of("sticky", args("gtp imsi id 262010000000043")), null, 100).rows())
                .isEmpty();
        Table conns = views.conns(ShowArgs.of("conns", args("vserver GGSN-GN detail")), 100);
        assertThat(column(conns, "state")).as("the create, answered, lingers for retransmissions")
                .containsExactly("ESTAB");
        assertThat(column(conns, "client")).containsExactly("127.0.0.1:" + sgsn.getLocalPort());
        assertThat(column(views.serverfarms(ShowArgs.of("serverfarms", args("name GGSN-FARM"))), "failaction"))
                .containsExactly("gtp purge");
        assertThatThrownBy(() -> views.reals(ShowArgs.of("reals", args("sfarm NOPE"))))
                .isInstanceOf(ShowArgs.BadQualifier.class)
                .hasMessage("show reals sfarm NOPE: no such server farm (defined: GGSN-FARM)");
        assertThatThrownBy(() -> gtp.table(args("gsn detail bogus"))).isInstanceOf(ShowArgs.BadQualifier.class)
                .hasMessageContaining("show gtp gsn bogus: not an IP address");

        // silent past 'ip slb timers gtp gsn 30': both GSNs are forgotten (the expiry runs once a second)
        h.clock.advanceSeconds(31);
        await().atMost(Duration.ofSeconds(10)).until(() -> gtp.table(args("gsn")).rows().isEmpty());
    }
}
