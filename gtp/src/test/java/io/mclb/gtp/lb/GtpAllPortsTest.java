package io.mclb.gtp.lb;

import io.mclb.config.ConfigException;
import io.mclb.config.VirtualServerConfig;
import io.mclb.admin.AdminViews;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * IOS all-ports GTP ({@code virtual IP udp 0 service gtp-inspect}): one virtual server listens on
 * 2123 and 3386, and a real without a port gets each request on the port it came in on. The VIP
 * and GGSNs sit on loopback addresses of their own, since the ports are fixed.
 */
class GtpAllPortsTest {
    @TempDir
    Path dir;
    private GtpHarness h;

    @AfterEach
    void close() {
        if (h != null) {
            h.close();
        }
    }

    private String config(String vip, String service) {
        return "mclb admin 127.0.0.1 18089\n"
                + "mclb data-dir " + dir + "\n"
                + "mclb sticky entries 10000\n"
                + "mclb event-loops 1\n"
                + "ip slb serverfarm GGSN-FARM\n"
                + " real 127.0.0.82\n"
                + "  inservice\n"
                + "ip slb vserver GGSN-GN\n"
                + " virtual " + vip + " udp 0 service " + service + "\n"
                + " serverfarm GGSN-FARM\n"
                + " sticky gtp imsi group 1\n"
                + " inservice\n";
    }

    @Test
    void v1OnTwentyOneTwentyThreeAndV0OnThirtyThreeEightySixReachTheGgsnOnTheirOwnPorts() throws Exception {
        h = new GtpHarness();
        FakeGgsn v1 = h.ggsn("127.0.0.82", 2123);
        FakeGgsn v0 = h.ggsn("127.0.0.82", 3386);
        var config = h.parse(dir, config("127.0.0.81", "gtp-inspect"));
        VirtualServerConfig v = config.vservers().get("GGSN-GN");
        assertThat(v.port()).isZero();
        assertThat(v.listenPorts()).containsExactly(2123, 3386);
        h.start(config);

        DatagramSocket sgsn = h.client();
        GtpHarness.send(sgsn, GtpHarness.v1Create("262010000000001", 0x0101), new InetSocketAddress("127.0.0.81", 2123));
        byte[] a1 = GtpHarness.receive(sgsn);
        assertThat(GtpHarness.v1Cause(a1)).isEqualTo(128);
        assertThat(v1.creates.get()).isEqualTo(1);
        GtpHarness.send(sgsn, GtpHarness.v0Create("262010000000002", 0x0202), new InetSocketAddress("127.0.0.81", 3386));
        byte[] a0 = GtpHarness.receive(sgsn);
        assertThat(a0[1] & 0xFF).as("v0 Create PDP Context Response").isEqualTo(17);
        assertThat(v0.creates.get()).isEqualTo(1);
        assertThat(v1.creates.get()).as("nothing crossed to the other port").isEqualTo(1);

        var table = new AdminViews(h.runtime).vservers(io.mclb.admin.ShowArgs.of("vservers", java.util.Map.of()));
        assertThat(table.toText()).contains("127.0.0.81:0");
    }

    @Test
    void allPortsIsForGtpOnlyAndTakesItsPortsFromAnotherVserverOnTheSameAddress() throws Exception {
        h = new GtpHarness();
        String udp = config("127.0.0.81", "gtp").replace(" service gtp\n", "\n");
        assertThatThrownBy(() -> h.parse(dir, udp)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("test.cfg:9: virtual 127.0.0.81 udp 0: all ports is for 'service gtp|gtp-inspect'"
                        + " only; give a port 1..65535");
        String clash = config("127.0.0.81", "gtp") + "ip slb vserver V1\n virtual 127.0.0.81 udp 2123 service gtp\n"
                + " serverfarm GGSN-FARM\n inservice\n";
        assertThatThrownBy(() -> h.parse(dir, clash)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("test.cfg:14: virtual 127.0.0.81 udp 2123: already used by vserver GGSN-GN");
        assertThat(List.of(2123, 3386)).isEqualTo(new GtpConfigSyntax().allPorts("gtp"));
    }
}
