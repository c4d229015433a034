package io.mclb.gtp.lb;

import io.mclb.binding.BindingTable;
import io.mclb.farm.RealConfigs;
import io.mclb.farm.RealServer;
import io.mclb.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

/** mclb's TEIDs: node bit, never 0, never one that still names a session; the node from the HA pair's addresses. */
class GtpTeidAllocatorTest {
    private final BindingTable<GtpSession> sessions = new BindingTable<>(GtpSession.KIND);

    @Test
    void theNodeBitSplitsTheSpaceAndZeroIsSkippedWhenTheCounterWraps() {
        GtpTeidAllocator a = new GtpTeidAllocator(0x7FFF_FFFF);
        a.node(1);
        assertThat(a.next(sessions)).isEqualTo(0xFFFF_FFFF);
        assertThat(a.next(sessions)).as("the counter wrapped: its low bits 0 are skipped")
                .isEqualTo(0x8000_0001);
        GtpTeidAllocator b = new GtpTeidAllocator(-1);
        assertThat(b.next(sessions)).isEqualTo(0x7FFF_FFFF);
        assertThat(b.next(sessions)).as("never 0 (29.060: no TEID)").isEqualTo(1);
    }

    @Test
    void aTeidThatStillNamesASessionIsSkipped() {
        RealServer real = new RealServer("F", RealConfigs.real("127.0.0.2", 8), new ManualClock(), null);
        sessions.open(new GtpSession(1L, 5, real, 11, 7, true, null, 0, 1_000_000_000L));
        sessions.open(new GtpSession(2L, 5, real, 12, 7, true, null, 0, 1_000_000_000L));
        GtpTeidAllocator a = new GtpTeidAllocator(10);
        assertThat(a.next(sessions)).isEqualTo(10);
        assertThat(a.next(sessions)).isEqualTo(13);
    }

    @Test
    void theTwoNodesOfAPairTakeDifferentBits() throws Exception {
        InetAddress x = InetAddress.getByName("10.0.0.1");
        InetAddress y = InetAddress.getByName("10.0.0.200");
        assertThat(GtpHaNode.of(x, y)).isZero();
        assertThat(GtpHaNode.of(y, x)).isOne();
        // read from the replication record by its components (ha's ReplicationConfig has this shape;
        // perf's ReplicationRecordShapeTest holds ha to it)
        assertThat(GtpHaNode.ofRecord(new Replicate(y, x, 4231))).isOne();
        assertThat(GtpHaNode.ofRecord(new Replicate(x, y, 4231))).isZero();
        assertThat(GtpHaNode.ofRecord(new GtpLines.SignallingVip())).isEqualTo(-1);
    }

    /** The shape of {@code replicate casa LISTEN REMOTE PORT}'s record. */
    record Replicate(InetAddress listenAddress, InetAddress remoteAddress, int port) {
    }
}
