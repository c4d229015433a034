package io.mclb.ha;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StandbyConfigTest {
    private static final String A = """
            mclb admin 127.0.0.1 9100
            mclb data-dir /var/lib/mclb-a
            !
            interface veth-a
             ip address 10.99.0.2 255.255.255.0
             standby 100 priority 110
             standby 100 name SLB-HA
            !
            ip slb serverfarm GGSN-FARM
             real 10.99.1.1
              weight 2
              inservice
            !
            ip slb vserver GGSN-GN
             virtual 10.99.0.100 udp 2123 service gtp-inspect
             serverfarm GGSN-FARM
             replicate casa 10.99.0.2 10.99.0.3 4231 password 0 casa-secret
             inservice standby SLB-HA
            !
            """;
    private static final String B = """
            mclb admin 127.0.0.1 9100
            mclb data-dir /var/lib/mclb-b
            mclb ha vip-control noop
            !
            interface veth-b
             ip address 10.99.0.3 255.255.255.0
             standby 100 name SLB-HA
            !
            ip slb serverfarm OLD
             real 10.99.1.9
              inservice
            !
            ip slb vserver GGSN-GN
             virtual 10.99.0.100 udp 2123 service gtp-inspect
             serverfarm OLD
             replicate casa 10.99.0.3 10.99.0.2 4231 password 0 casa-secret
             inservice standby SLB-HA
            !
            """;

    @Test
    void theStandbyTakesTheActivesFarmsAndVserversButKeepsItsOwnNodeLines() {
        String merged = StandbyConfig.merge(B, A);
        assertThat(merged).contains("mclb data-dir /var/lib/mclb-b", "mclb ha vip-control noop", "interface veth-b",
                " ip address 10.99.0.3 255.255.255.0", "ip slb serverfarm GGSN-FARM", "  weight 2",
                " serverfarm GGSN-FARM", " replicate casa 10.99.0.3 10.99.0.2 4231 password 0 casa-secret",
                " inservice standby SLB-HA");
        assertThat(merged).doesNotContain("mclb-a", "veth-a", "10.99.0.2 10.99.0.3", "priority 110", "OLD",
                "10.99.1.9");
    }

    @Test
    void aVserverWithoutReplicateStaysWithoutAndMergingIsStable() {
        String a = "ip slb vserver V\n virtual 10.0.0.1 udp 53\n serverfarm F\n inservice\n!\n";
        String merged = StandbyConfig.merge(B, a);
        assertThat(merged).contains("ip slb vserver V\n virtual 10.0.0.1 udp 53\n serverfarm F\n inservice\n!\n")
                .doesNotContain("replicate");
        assertThat(StandbyConfig.merge(B, StandbyConfig.merge(B, A))).isEqualTo(StandbyConfig.merge(B, A));
    }
}
