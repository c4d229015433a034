package io.mclb.gtp.lb;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

/** The GSNs seen, their Recovery, restart detection and the GSN idle timer. */
class GsnTableTest {
    private static final long S = 1_000_000_000L;

    @Test
    void aChangedRecoveryIsARestartTheFirstOneOnlyLearns() throws Exception {
        GsnTable t = new GsnTable();
        InetAddress a = InetAddress.getByName("192.0.2.1");
        InetAddress b = InetAddress.getByName("192.0.2.2");
        assertThat(t.seen(GsnTable.Side.GGSN, a, 1, 7, 0)).isFalse();
        assertThat(t.seen(GsnTable.Side.GGSN, a, 1, -1, 0)).as("a message without Recovery changes nothing").isFalse();
        assertThat(t.seen(GsnTable.Side.GGSN, a, 1, 7, 0)).isFalse();
        assertThat(t.seen(GsnTable.Side.GGSN, a, 1, 8, 0)).isTrue();
        assertThat(t.seen(GsnTable.Side.GGSN, a, 1, 9, 0)).isTrue();
        assertThat(t.seen(GsnTable.Side.GGSN, b, 1, 9, 0)).as("each GSN has its own counter").isFalse();
        assertThat(t.seen(GsnTable.Side.SGSN, a, 1, 3, 0)).as("an SGSN and a GGSN on one address are two GSNs")
                .isFalse();
        assertThat(t.snapshot()).extracting(g -> g.side + " " + g.address.getHostAddress() + " " + g.recovery
                + " " + g.restarts).containsExactly("SGSN 192.0.2.1 3 0", "GGSN 192.0.2.1 9 2", "GGSN 192.0.2.2 9 0");
    }

    @Test
    void aGsnSilentForTheIdleTimerIsForgottenWithItsRecovery() throws Exception {
        GsnTable t = new GsnTable();
        t.idleSeconds(30);
        InetAddress a = InetAddress.getByName("192.0.2.1");
        InetAddress b = InetAddress.getByName("192.0.2.2");
        t.seen(GsnTable.Side.SGSN, a, 1, 5, 0);
        t.seen(GsnTable.Side.SGSN, b, 2, 5, 0);
        t.seen(GsnTable.Side.SGSN, b, 2, -1, 20 * S); // b keeps talking
        assertThat(t.expire(30 * S)).isZero();
        assertThat(t.expire(31 * S)).as("a silent 31 s").isEqualTo(1);
        assertThat(t.snapshot()).extracting(g -> g.address.getHostAddress()).containsExactly("192.0.2.2");
        // back after being forgotten: its Recovery is learnt afresh, not compared with the old one
        assertThat(t.seen(GsnTable.Side.SGSN, a, 1, 6, 40 * S)).isFalse();
        assertThat(t.count(GsnTable.Side.SGSN)).isEqualTo(2);
    }
}
