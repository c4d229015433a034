package io.mclb.radius.lb;

import static io.mclb.radius.lb.RadiusProxyTest.access;
import static io.mclb.radius.lb.RadiusProxyTest.accounting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.mclb.sticky.StickyChangeListener;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyTable;
import io.mclb.sticky.StickyValue;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tinyradius.packet.AccessRequest;
import org.tinyradius.packet.AccountingRequest;
import org.tinyradius.packet.RadiusPacket;

/**
 * The per-NAS framed-IP index is rebuilt from the sticky table: after a restart on the same data
 * directory, and on a standby that receives the active's sticky writes, an Accounting-On from the
 * NAS purges the sessions learnt before (they used to stay, the index being memory only).
 */
class RadiusFramedIpRestartTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    @TempDir
    Path dataDir;
    @TempDir
    Path standbyDir;
    private RadiusHarness h;
    private RadiusHarness standby;

    @AfterEach
    void stop() throws Exception {
        if (standby != null) {
            standby.close();
        }
        if (h != null) {
            h.close();
        }
    }

    @Test
    void anAccountingOnAfterARestartPurgesSessionsLearntBeforeIt() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", ""));
        learn(h, "10.1.0.7", "491700007", 1);
        learn(h, "10.1.0.8", "491700008", 2);
        h.close();

        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", ""));
        assertThat(hasFramedIp(h, "10.1.0.7")).as("persisted in sticky.dat").isTrue();
        accountingOn(h, 3);
        await().atMost(WAIT).until(() -> !hasFramedIp(h, "10.1.0.7") && !hasFramedIp(h, "10.1.0.8"));
        assertThat(h.framedIps().size(0x7f000001)).isZero();
    }

    @Test
    void aStandbyIndexesReplicatedSessionsAsTheyArrive() throws Exception {
        h = new RadiusHarness(dataDir, RadiusHarness.issueConfig("", "", ""));
        standby = new RadiusHarness(standbyDir, RadiusHarness.issueConfig("", "", ""));
        mirror(h.runtime.stickyTable(), standby.runtime.stickyTable()); // what the HA replicator's standby side does
        learn(h, "10.1.0.9", "491700009", 1);
        learn(h, "10.1.0.10", "491700010", 2);
        stopSession(h, "10.1.0.10", "491700010", 3); // its removal is replicated too
        await().atMost(WAIT).until(() -> hasFramedIp(standby, "10.1.0.9") && !hasFramedIp(standby, "10.1.0.10"));
        assertThat(standby.framedIps().size(0x7f000001)).as("one live session of the NAS").isEqualTo(1);

        accountingOn(standby, 4); // after a failover the NAS reboots and talks to the former standby
        await().atMost(WAIT).until(() -> !hasFramedIp(standby, "10.1.0.9"));
    }

    private static void learn(RadiusHarness on, String framedIp, String csid, int id) throws Exception {
        on.auth.values().forEach(a -> a.framedIp = framedIp);
        DatagramSocket nas = on.nas();
        AccessRequest ar = access("sub" + id, "pw", csid, id);
        on.send(nas, RadiusHarness.encode(ar, RadiusHarness.NAS_SECRET), on.vauth);
        assertThat(on.receive(nas, ar).getPacketType()).isEqualTo(RadiusPacket.ACCESS_ACCEPT);
        assertThat(hasFramedIp(on, framedIp)).as("learnt from the Access-Accept").isTrue();
    }

    private static void stopSession(RadiusHarness on, String framedIp, String csid, int id) throws Exception {
        DatagramSocket nas = on.nas();
        AccountingRequest stop = accounting("sub", AccountingRequest.ACCT_STATUS_TYPE_STOP, csid, framedIp, id);
        on.send(nas, RadiusHarness.encode(stop, RadiusHarness.NAS_SECRET), on.vacct);
        assertThat(on.receive(nas, stop).getPacketType()).isEqualTo(RadiusPacket.ACCOUNTING_RESPONSE);
    }

    private static void accountingOn(RadiusHarness on, int id) throws Exception {
        DatagramSocket nas = on.nas();
        AccountingRequest acctOn = accounting("nas", 7, null, null, id);
        on.send(nas, RadiusHarness.encode(acctOn, RadiusHarness.NAS_SECRET), on.vacct);
        assertThat(on.receive(nas, acctOn).getPacketType()).isEqualTo(RadiusPacket.ACCOUNTING_RESPONSE);
    }

    /** Any framed-IP entry of group 2 for {@code ip}, whichever real it names (the fakes' ports change per run). */
    private static boolean hasFramedIp(RadiusHarness on, String ip) throws Exception {
        StickyKey k = new StickyKey().set(RadiusStickyKinds.FRAMED_IP, 2, InetAddress.getByName(ip).getAddress());
        return on.runtime.stickyTable().get(k, new StickyValue(), on.clock.epochMillis());
    }

    private static void mirror(StickyTable from, StickyTable to) {
        from.addListener(new StickyChangeListener() {
            @Override
            public void onPut(byte[] key, byte[] value, byte[] previous) {
                StickyKey k = new StickyKey();
                StickyValue v = new StickyValue();
                System.arraycopy(key, 0, k.bytes(), 0, StickyKey.SIZE);
                to.put(k, v.copyFrom(value));
            }

            @Override
            public void onRemove(byte[] key, byte[] value, RemoveReason reason) {
                StickyKey k = new StickyKey();
                System.arraycopy(key, 0, k.bytes(), 0, StickyKey.SIZE);
                to.remove(k, RemoveReason.REPLICATED);
            }
        });
    }
}
