package io.mclb.gtp.lb;

import io.mclb.binding.BindingTable;
import io.mclb.farm.RealServer;
import io.mclb.gtp.Tbcd;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A subscriber that re-creates its context on the same GGSN renews its {@link GtpSession} in place
 * (no new object per create), and nothing that still names the old context can end the renewed
 * one: the Delete of the old context whose answer comes only after the re-create (the delete's
 * state carries the context's generation, {@link GtpTx.End}). A re-create on another GGSN still
 * opens a new session and releases the old GGSN's connection.
 */
class GtpSessionRenewalTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String IMSI = "262010000000777";

    @TempDir
    Path dir;
    private GtpHarness h;
    private InetSocketAddress vip;

    @AfterEach
    void close() {
        if (h != null) {
            h.close();
        }
    }

    private void start(List<FakeGgsn> farm, String vserverLines) throws Exception {
        int port = GtpHarness.freePort("127.0.0.1");
        vip = new InetSocketAddress("127.0.0.1", port);
        h.start(h.parse(dir, "mclb data-dir " + dir + "\nmclb sticky entries 10000\nmclb event-loops 2\n"
                + "ip slb serverfarm F\n predictor roundrobin\n" + GtpHarness.reals(farm, "")
                + "ip slb vserver V\n virtual 127.0.0.1 udp " + port + " service gtp-inspect\n serverfarm F\n"
                + vserverLines + " idle gtp request 10\n inservice\n"));
    }

    private int create(DatagramSocket sgsn, FakeGgsn ggsn, int seq) throws Exception {
        int before = ggsn.createTeids.size();
        GtpHarness.send(sgsn, GtpHarness.v1Create(IMSI, seq), vip);
        byte[] answer = GtpHarness.receive(sgsn);
        assertThat(GtpHarness.v1Seq(answer)).isEqualTo(seq);
        assertThat(GtpHarness.v1Cause(answer)).isEqualTo(128);
        assertThat(ggsn.createTeids).hasSize(before + 1);
        return ggsn.createTeids.get(before);
    }

    @Test
    void aDelayedDeleteOfTheOldContextLeavesTheSessionRenewedForTheNewOneAlone() throws Exception {
        h = new GtpHarness();
        FakeGgsn ggsn = h.ggsn("127.0.0.2");
        start(List.of(ggsn), " sticky gtp imsi group 1\n");
        DatagramSocket sgsn = h.client();
        BindingTable<GtpSession> sessions = h.factory.module().sessions();
        RealServer real = h.real("F", ggsn);
        long imsi = Tbcd.encodeRaw(IMSI);

        int oldTeid = create(sgsn, ggsn, 1);
        GtpSession session = sessions.get(imsi, 5);
        assertThat(session.teid()).isEqualTo(oldTeid);

        // the GGSN takes the old context's Delete but its answer is late
        AtomicReference<byte[]> held = new AtomicReference<>();
        ggsn.answerHook = (request, answer) -> {
            if ((request[1] & 0xFF) == 20) {
                held.set(answer);
                return List.of();
            }
            return List.of(answer);
        };
        GtpHarness.send(sgsn, GtpHarness.v1Delete(oldTeid, 2, 5), vip);
        await().atMost(WAIT).until(() -> held.get() != null);
        InetSocketAddress mclbSide = ggsn.lastPeer;

        // meanwhile the subscriber re-creates (the SGSN lost its state): same object, the new context's TEID
        int newTeid = create(sgsn, ggsn, 3);
        assertThat(newTeid).isNotEqualTo(oldTeid);
        assertThat(sessions.get(imsi, 5)).as("renewed in place, not a new session").isSameAs(session);
        assertThat(session.teid()).isEqualTo(newTeid);
        assertThat(sessions.byAlias(GtpSession.alias(1, oldTeid))).as("the old TEID routes nowhere").isNull();
        assertThat(real.activeConnections()).as("the session's connection and the delete's in flight").isEqualTo(2);

        // the old context's Delete is accepted now: relayed to the SGSN, and the new context lives on
        ggsn.send(held.get(), mclbSide);
        byte[] late = GtpHarness.receive(sgsn);
        assertThat(late[1] & 0xFF).isEqualTo(21);
        assertThat(GtpHarness.v1Seq(late)).isEqualTo(2);
        assertThat(sessions.get(imsi, 5)).as("the late delete ended nothing").isSameAs(session);
        assertThat(sessions.byAlias(GtpSession.alias(1, newTeid))).isSameAs(session);
        assertThat(real.activeConnections()).isEqualTo(1);

        // the new context's own Delete ends it
        ggsn.answerHook = null;
        GtpHarness.send(sgsn, GtpHarness.v1Delete(newTeid, 4, 5), vip);
        assertThat(GtpHarness.receive(sgsn)[1] & 0xFF).isEqualTo(21);
        assertThat(sessions.size()).isZero();
        assertThat(sessions.byAlias(GtpSession.alias(1, newTeid))).isNull();
        assertThat(real.activeConnections()).isZero();
    }

    @Test
    void aReCreateOnAnotherGgsnOpensANewSessionAndReleasesTheFirstGgsnsConnection() throws Exception {
        h = new GtpHarness();
        FakeGgsn first = h.ggsn("127.0.0.2");
        FakeGgsn second = h.ggsn("127.0.0.3");
        start(List.of(first, second), ""); // no sticky: round robin sends the re-create to the other GGSN
        DatagramSocket sgsn = h.client();
        BindingTable<GtpSession> sessions = h.factory.module().sessions();
        long imsi = Tbcd.encodeRaw(IMSI);
        GtpHarness.send(sgsn, GtpHarness.v1Create(IMSI, 1), vip);
        assertThat(GtpHarness.v1Cause(GtpHarness.receive(sgsn))).isEqualTo(128);
        GtpSession was = sessions.get(imsi, 5);
        GtpSession now = was;
        for (int seq = 2; seq < 10 && now.real() == was.real(); seq++) { // the same GGSN again renews in place
            GtpHarness.send(sgsn, GtpHarness.v1Create(IMSI, seq), vip);
            assertThat(GtpHarness.v1Cause(GtpHarness.receive(sgsn))).isEqualTo(128);
            now = sessions.get(imsi, 5);
            assertThat(now.real() == was.real() ? now : null).as("same GGSN, same object").isIn(was, null);
        }
        assertThat(now.real()).as("round robin moved the subscriber").isNotSameAs(was.real());
        assertThat(now).isNotSameAs(was);
        assertThat(was.real().activeConnections()).isZero();
        assertThat(now.real().activeConnections()).isEqualTo(1);
        assertThat(sessions.byAlias(was.alias())).isNull();
        assertThat(sessions.byAlias(now.alias())).isSameAs(now);
        assertThat(was.generation()).as("the replaced session ended: no holder can renew or end it again")
                .isEqualTo(io.mclb.binding.Binding.ENDED);
    }
}
