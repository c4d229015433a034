package io.mclb.admin;

import io.mclb.config.ConfigParser;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.mclb.testing.FakeUdpReal;
import io.mclb.testing.Ports;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The IOS qualifiers of the engine's show views: filters that filter, and refusals that say why. */
class AdminViewsTest {
    @TempDir
    Path dir;
    private MclbRuntime rt;
    private FakeUdpReal real;

    @AfterEach
    void close() {
        if (rt != null) {
            rt.close();
        }
        if (real != null) {
            real.close();
        }
    }

    private static ShowArgs args(String view, String a) {
        return ShowArgs.of(view, Map.of("args", a));
    }

    private static List<String> column(Table t, String name) {
        return t.rows().stream().map(r -> String.valueOf(r.get(name))).toList();
    }

    @Test
    void stickyByClientPrefixConnsByVserverAndClientRealsBySfarm() throws Exception {
        real = new FakeUdpReal("127.0.0.11");
        int port = Ports.freeUdp("127.0.0.100");
        rt = MclbRuntime.start(ConfigParser.parse("t.cfg", "mclb data-dir " + dir + "\nmclb event-loops 1\n"
                + "ip slb serverfarm F\n real 127.0.0.11 " + real.port() + "\n  inservice\n"
                + "ip slb serverfarm G\n real 127.0.0.12 9\n  inservice\n"
                + "ip slb vserver V\n virtual 127.0.0.100 udp " + port + "\n serverfarm F\n sticky 60\n inservice\n",
                dir, List.of()), Modules.of(), ServingGate.ALWAYS, new ManualClock());
        InetSocketAddress vip = new InetSocketAddress("127.0.0.100", port);
        for (String c : List.of("127.0.1.1", "127.0.1.2", "127.0.2.1")) {
            try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(c, 0))) {
                assertThat(FakeUdpReal.exchange(s, new byte[] {1}, vip, 3000)).isNotNull();
            }
        }
        AdminViews v = new AdminViews(rt);

        assertThat(column(v.sticky(args("sticky", "client 127.0.1.0 255.255.255.0"), null, 100), "identity"))
                .containsExactly("127.0.1.1", "127.0.1.2");
        assertThat(column(v.sticky(args("sticky", "client 127.0.2.1 /32"), null, 100), "identity"))
                .containsExactly("127.0.2.1");
        assertThat(v.sticky(args("sticky", ""), "client-ip", 100).rows()).as("the older joined form").hasSize(3);
        assertThatThrownBy(() -> v.sticky(args("sticky", "radius framed-ip"), null, 100))
                .isInstanceOf(ShowArgs.BadQualifier.class).hasMessageStartingWith(
                        "show sticky radius framed-ip: no such sticky table; allowed: client IP MASK");

        assertThat(column(v.conns(args("conns", "vserver V"), 100), "client")).hasSize(3);
        assertThat(column(v.conns(args("conns", "client 127.0.2.1 detail"), 100), "state")).containsExactly("ESTAB");
        assertThat(v.conns(args("conns", "client 127.0.9.9"), 100).rows()).isEmpty();

        assertThat(column(v.reals(args("reals", "sfarm G")), "real")).containsExactly("127.0.0.12:9");
        assertThat(column(v.reals(args("reals", "sfarm F detail")), "maxconns")).containsExactly("4294967295");
        assertThat(column(v.vservers(args("vservers", "name V detail")), "sticky")).containsExactly("60s group 0");
        assertThatThrownBy(() -> v.vservers(args("vservers", "nmae V"))).isInstanceOf(ShowArgs.BadQualifier.class)
                .hasMessage("show vservers: unexpected 'nmae V'; allowed: name NAME, detail");
    }
}
