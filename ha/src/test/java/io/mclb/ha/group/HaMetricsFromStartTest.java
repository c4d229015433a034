package io.mclb.ha.group;

import io.mclb.ha.vip.NoopVirtualAddressControl;
import io.mclb.time.NanoClock;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.mclb.testing.Metrics.sample;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A configured HA group's families are in the scrape before the group has sent or heard anything
 * (so "no standby" and "split" rules and the dashboard see zeros, not gaps), and they count.
 */
class HaMetricsFromStartTest {
    @Test
    void aConfiguredGroupExportsItsSeriesAtZeroAndCountsRefusedHellos() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        GroupConfig c = new GroupConfig("lo", InetAddress.getByName("127.0.0.2"), 8, 2, 100, "SLB-HA",
                InetAddress.getByName("127.0.0.100"), 100, false, 0, 50, 200,
                "k".getBytes(StandardCharsets.UTF_8), List.of(), List.of(InetAddress.getByName("127.0.0.3")));
        GroupManager m = new GroupManager(List.of(c), new NoopVirtualAddressControl(), new LinkState.Fixed(), registry,
                NanoClock.system(), 1985);
        try {
            String before = registry.scrape();
            for (HsrpState s : HsrpState.values()) {
                assertThat(sample(before, "mclb_ha_state{group=\"SLB-HA\",state=\"" + s.label() + "\"}"))
                        .as(s.label()).isEqualTo(s == HsrpState.INITIAL ? 1 : 0);
            }
            assertThat(sample(before, "mclb_ha_hellos_received_total{group=\"SLB-HA\"}")).isZero();
            for (HelloCodec.Refusal r : HelloCodec.Refusal.values()) {
                assertThat(sample(before, "mclb_ha_hellos_refused_total{reason=\"" + r.label + "\"}")).as(r.label).isZero();
            }
            for (String reason : List.of("connectivity", "vip_answers")) {
                assertThat(sample(before, "mclb_ha_takeovers_withheld_total{group=\"SLB-HA\",reason=\"" + reason + "\"}"))
                        .as(reason).isZero();
            }

            m.received(null, new InetSocketAddress("127.0.0.3", 1985), new byte[] {'X', 'Y', 0, 0, 0, 0, 0, 0}, 8);
            assertThat(sample(registry.scrape(), "mclb_ha_hellos_refused_total{reason=\"malformed\"}")).isEqualTo(1);
        } finally {
            m.close();
        }
    }
}
