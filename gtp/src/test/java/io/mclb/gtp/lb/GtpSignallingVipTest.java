package io.mclb.gtp.lb;

import io.mclb.config.ConfigException;
import io.mclb.config.ConfigWriter;
import io.mclb.farm.RealServer;
import io.mclb.gtp.GtpTestMessages;
import io.mclb.gtp.GtpTestMessages.Bytes;
import io.mclb.gtp.Tbcd;
import io.mclb.gtp.v0.GtpV0Message;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.gtp.v2.GtpV2Fteid;
import io.mclb.gtp.v2.GtpV2IeCursor;
import io.mclb.gtp.v2.GtpV2Message;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code gtp signalling vip} end to end over loopback: three fake GGSNs that hand out the same
 * control TEIDs (as osmo-ggsn does: each counts from the same start), SGSNs on 127.0.0.1, the
 * virtual address 127.0.0.1. The fakes' answers are completed to what real GGSNs send (both GSN
 * Addresses and TEID Data I; v2: the Sender F-TEID and a Bearer Context with the PGW's GTP-U
 * F-TEID), so the tests can tell the control plane (rewritten) from the user plane (untouched).
 */
class GtpSignallingVipTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final byte[] VIP = {127, 0, 0, 1};
    /** Every fake GGSN starts its TEIDs here: their TEIDs collide. */
    private static final int SAME_TEID_BASE = 0x100;
    private static final int USER_TEID_FLAG = 0x5000_0000;

    @TempDir
    Path dir;
    private GtpHarness h;
    private InetSocketAddress vip1;
    private InetSocketAddress vip0;
    /** Header TEIDs of the deletes each GGSN (by address) received. */
    private final Map<String, List<Integer>> deleteTeids = new ConcurrentHashMap<>();

    @AfterEach
    void close() {
        if (h != null) {
            h.close();
        }
    }

    private String config(String vserverLines) throws Exception {
        h = new GtpHarness();
        for (String a : List.of("127.0.0.2", "127.0.0.3", "127.0.0.4")) {
            FakeGgsn g = new FakeGgsn(a, SAME_TEID_BASE);
            h.ggsns.add(g);
            g.answerHook = (req, ans) -> List.of(complete(ans, g.socket.getLocalAddress().getAddress()));
            g.onReceive = b -> {
                int type = b[1] & 0xFF;
                if (type == 20 || type == 36) {
                    deleteTeids.computeIfAbsent(a, k -> new CopyOnWriteArrayList<>())
                            .add(Unpooled.wrappedBuffer(b).getInt(4));
                }
            };
        }
        int p1 = GtpHarness.freePort("127.0.0.1");
        int p0 = GtpHarness.freePort("127.0.0.1");
        vip1 = new InetSocketAddress("127.0.0.1", p1);
        vip0 = new InetSocketAddress("127.0.0.1", p0);
        StringBuilder reals = new StringBuilder();
        for (FakeGgsn g : h.ggsns) {
            reals.append(" real ").append(g.address()).append(' ').append(g.port()).append("\n  weight 1\n  inservice\n");
        }
        return "mclb admin 127.0.0.1 " + GtpHarness.freePort("127.0.0.1") + "\n"
                + "mclb data-dir " + dir + "\n"
                + "mclb sticky entries 10000\n"
                + "mclb event-loops 1\n"
                + "ip slb serverfarm GGSN-FARM\n"
                + " predictor roundrobin\n" // weight 1 each: A, B, C, A, ...
                + reals
                + "ip slb vserver GGSN-GN\n"
                + " virtual 127.0.0.1 udp " + p1 + " service gtp-inspect\n"
                + " serverfarm GGSN-FARM\n"
                + vserverLines
                + " inservice\n"
                + "ip slb vserver GGSN-GN-V0\n"
                + " virtual 127.0.0.1 udp " + p0 + " service gtp-inspect\n"
                + " serverfarm GGSN-FARM\n"
                + vserverLines
                + " inservice\n";
    }

    private void start(String vserverLines) throws Exception {
        String c = config(vserverLines);
        h.start(h.parse(dir, c));
    }

    /** The fake's accepted create answers, completed with what a real GGSN also sends. */
    private static byte[] complete(byte[] ans, byte[] own) {
        int version = (ans[0] & 0xFF) >>> 5;
        int type = ans[1] & 0xFF;
        if (version == 1 && type == 17) {
            GtpV1Message m = v1(ans);
            if (m.ies().cause() != 128) {
                return ans;
            }
            int teid = m.ies().teidControl(false);
            byte[] ies = new Bytes().u8(1).u8(128).u8(14).u8(1)
                    .u8(16).u32(USER_TEID_FLAG | teid)              // TEID Data I: user plane, untouched
                    .u8(17).u32(teid)                               // TEID Control Plane: mapped
                    .u8(127).u32(0xC0FFEE)
                    .tlv(128, GtpTestMessages.hex("f121 40400101"))
                    .tlv(133, own)                                  // GGSN address for control plane: the VIP
                    .tlv(133, own)                                  // GGSN address for user traffic: untouched
                    .bytes();
            return GtpTestMessages.v1(17, 0, m.sequence(), ies);
        }
        if (version == 2 && type == 33) {
            GtpV2Message m = v2(ans);
            GtpV2Fteid f = new GtpV2Fteid();
            if (!m.fteid(1, f)) {
                return ans;
            }
            int teid = f.teid();
            byte[] pgwC = new Bytes().u8(0x87).u32(teid).raw(own).bytes();
            byte[] pgwU = new Bytes().u8(0x85).u32(USER_TEID_FLAG | teid).raw(own).bytes();
            byte[] bearer = new Bytes().ie2(73, 0, GtpTestMessages.hex("05"))
                    .ie2(2, 0, GtpTestMessages.hex("1000")).ie2(87, 2, pgwU).bytes();
            byte[] ies = new Bytes().ie2(2, 0, GtpTestMessages.hex("1000"))
                    .ie2(87, 0, pgwC)                               // Sender F-TEID for control plane (the PGW's)
                    .ie2(87, 1, pgwC)                               // PGW S5/S8 GTP-C F-TEID
                    .ie2(93, 0, bearer)                             // S5/S8 PGW GTP-U F-TEID inside: untouched
                    .bytes();
            return GtpTestMessages.v2(33, 0x1000, m.sequence(), ies);
        }
        if (version == 0 && type == 17) {
            // GSM 09.60 7.5.2: the GGSN's signalling address first, then its user-traffic address
            byte[] ies = new Bytes().u8(1).u8(128).u8(17).u16(0x0077).tlv(133, own).tlv(133, own).bytes();
            byte[] hdr = java.util.Arrays.copyOf(ans, GtpV0Message.HEADER_LENGTH);
            hdr[2] = (byte) (ies.length >>> 8);
            hdr[3] = (byte) ies.length;
            return new Bytes().raw(hdr).raw(ies).bytes();
        }
        return ans;
    }

    private static GtpV1Message v1(byte[] b) {
        GtpV1Message m = new GtpV1Message();
        assertThat(m.wrap(Unpooled.wrappedBuffer(b))).as("a valid v1 message").isTrue();
        return m;
    }

    private static GtpV2Message v2(byte[] b) {
        GtpV2Message m = new GtpV2Message();
        assertThat(m.wrap(Unpooled.wrappedBuffer(b))).as("a valid v2 message").isTrue();
        return m;
    }

    private static byte[] gsn(GtpV1Message m, int i) {
        byte[] a = new byte[16];
        return java.util.Arrays.copyOf(a, m.ies().gsnAddress(i, a));
    }

    private GtpSession session(String imsi, int nsapi) {
        return h.factory.module().sessions().get(Tbcd.encodeRaw(imsi), nsapi);
    }

    private static byte[] addr(String a) throws Exception {
        return InetAddress.getByName(a).getAddress();
    }

    @Test
    void v1CreatesGiveTheSgsnTheVipAndUniqueTeidsAndDeletesReachTheOwningGgsnWithItsOwnTeid() throws Exception {
        start(" gtp signalling vip\n");
        DatagramSocket sgsn = h.client();
        List<String> imsis = new ArrayList<>();
        Set<Integer> mclbTeids = new HashSet<>();
        List<Integer> ggsnTeids = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String imsi = "26201000000010" + i;
            imsis.add(imsi);
            GtpHarness.send(sgsn, GtpHarness.v1Create(imsi, 10 + i), vip1);
            GtpV1Message a = v1(GtpHarness.receive(sgsn));
            GtpSession s = session(imsi, 5);
            byte[] ggsn = s.real().address().getAddress();
            assertThat(a.ies().cause()).isEqualTo(128);
            assertThat(gsn(a, 0)).as("GGSN address for control plane").isEqualTo(VIP);
            assertThat(gsn(a, 1)).as("GGSN address for user traffic, untouched").isEqualTo(ggsn);
            assertThat(a.ies().teidControl(false)).as("TEID-C the SGSN gets").isEqualTo(s.teid())
                    .isNotEqualTo(s.ggsnTeid());
            assertThat(a.ies().teidDataI(false)).as("TEID Data I, untouched").isEqualTo(USER_TEID_FLAG | s.ggsnTeid());
            assertThat(s.anchored()).isTrue();
            mclbTeids.add(s.teid());
            ggsnTeids.add(s.ggsnTeid());
        }
        assertThat(h.ggsns).allSatisfy(g -> assertThat(g.creates.get()).isEqualTo(2));
        assertThat(new HashSet<>(ggsnTeids)).as("the GGSNs' own TEIDs collide %s", ggsnTeids).hasSizeLessThan(6);
        assertThat(mclbTeids).as("mclb's TEIDs are unique").hasSize(6);
        assertThat(h.factory.module().sessions().aliasCollisions()).isZero();

        // deletes addressed to mclb's TEIDs: each reaches the GGSN that holds it, with that GGSN's own TEID
        for (int i = 0; i < imsis.size(); i++) {
            GtpSession s = session(imsis.get(i), 5);
            GtpHarness.send(sgsn, GtpHarness.v1Delete(s.teid(), 100 + i, 5), vip1);
            byte[] d = GtpHarness.receive(sgsn);
            assertThat(d[1] & 0xFF).isEqualTo(21);
            assertThat(GtpHarness.v1Cause(d)).isEqualTo(128);
            assertThat(deleteTeids.get(s.real().address().getHostAddress())).as("delete at %s", s.real())
                    .contains(s.ggsnTeid());
        }
        assertThat(h.ggsns).allSatisfy(g -> assertThat(g.deletes.get()).as("deletes at %s", g.address())
                .isEqualTo(g.creates.get()));
        assertThat(h.factory.module().sessions().size()).isZero();
        for (RealServer r : h.runtime.farms().get("GGSN-FARM").reals()) {
            assertThat(r.activeConnections()).isZero();
        }
    }

    @Test
    void withoutTheLineTheGgsnsOwnIdentityPassesUnchanged() throws Exception {
        start("");
        DatagramSocket sgsn = h.client();
        for (int i = 0; i < 3; i++) {
            String imsi = "26201000000020" + i;
            GtpHarness.send(sgsn, GtpHarness.v1Create(imsi, 20 + i), vip1);
            GtpV1Message a = v1(GtpHarness.receive(sgsn));
            GtpSession s = session(imsi, 5);
            assertThat(gsn(a, 0)).isEqualTo(s.real().address().getAddress());
            assertThat(a.ies().teidControl(false)).isEqualTo(s.teid()).isEqualTo(s.ggsnTeid());
            assertThat(s.anchored()).isFalse();
        }
        // the GGSNs' TEIDs collide, which is why the mode exists: counted, last writer wins
        assertThat(h.factory.module().sessions().aliasCollisions()).isPositive();
    }

    @Test
    void v2PgwControlFteidsAreAnchoredAndTheUserPlaneIsNot() throws Exception {
        start(" gtp signalling vip\n");
        DatagramSocket sgw = h.client();
        List<GtpSession> sessions = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String imsi = "26201000000030" + i;
            GtpHarness.send(sgw, GtpHarness.v2Create(imsi, 30 + i), vip1);
            byte[] raw = GtpHarness.receive(sgw);
            GtpV2Message a = v2(raw);
            GtpSession s = session(imsi, 5);
            sessions.add(s);
            GtpV2Fteid f = new GtpV2Fteid();
            for (int instance = 0; instance < 2; instance++) {
                assertThat(a.fteid(instance, f)).isTrue();
                assertThat(f.interfaceType()).isEqualTo(7);
                assertThat(f.ipv4()).as("F-TEID %d address", instance).isEqualTo(0x7F000001);
                assertThat(f.teid()).as("F-TEID %d TEID", instance).isEqualTo(s.teid()).isNotEqualTo(s.ggsnTeid());
            }
            GtpV2IeCursor bearer = new GtpV2IeCursor().reset(a.buffer(), a.bearerContextOffset(),
                    a.bearerContextOffset() + a.bearerContextLength());
            boolean sawUser = false;
            while (bearer.next()) {
                if (bearer.type() == 87) {
                    assertThat(f.wrap(a.buffer(), bearer.valueOffset(), bearer.valueLength(), bearer.instance())).isTrue();
                    assertThat(f.interfaceType()).isEqualTo(5);
                    assertThat(f.ipv4()).as("S5/S8 PGW GTP-U address").isEqualTo(
                            Unpooled.wrappedBuffer(s.real().address().getAddress()).getInt(0));
                    assertThat(f.teid()).isEqualTo(USER_TEID_FLAG | s.ggsnTeid());
                    sawUser = true;
                }
            }
            assertThat(sawUser).isTrue();
        }
        for (int i = 0; i < sessions.size(); i++) {
            GtpSession s = sessions.get(i);
            GtpHarness.send(sgw, GtpHarness.v2Delete(s.teid(), 40 + i), vip1);
            assertThat(GtpHarness.receive(sgw)[1] & 0xFF).isEqualTo(37);
            assertThat(deleteTeids.get(s.real().address().getHostAddress())).contains(s.ggsnTeid());
        }
        assertThat(h.factory.module().sessions().size()).isZero();
    }

    @Test
    void v0CreateAnswersNameTheVipAsSignallingAddress() throws Exception {
        start(" gtp signalling vip\n");
        DatagramSocket sgsn = h.client();
        GtpHarness.send(sgsn, GtpHarness.v0Create("262010000000002", 7), vip0);
        byte[] raw = GtpHarness.receive(sgsn);
        GtpV0Message a = new GtpV0Message();
        assertThat(a.wrap(Unpooled.wrappedBuffer(raw))).isTrue();
        byte[] first = new byte[16];
        byte[] second = new byte[16];
        assertThat(a.ies().gsnAddress(0, first)).isEqualTo(4);
        assertThat(a.ies().gsnAddress(1, second)).isEqualTo(4);
        assertThat(java.util.Arrays.copyOf(first, 4)).isEqualTo(VIP);
        assertThat(java.util.Arrays.copyOf(second, 4)).as("user traffic address untouched")
                .isIn(addr("127.0.0.2"), addr("127.0.0.3"), addr("127.0.0.4"));
        assertThat(a.ies().teidControl(true)).as("flow label signalling untouched").isEqualTo(0x0077);
    }

    @Test
    void aGgsnAddressOfTheOtherFamilyIsDroppedAndCounted() throws Exception {
        start(" gtp signalling vip\n");
        byte[] v6 = addr("2001:db8::2");
        for (FakeGgsn g : h.ggsns) {
            g.answerHook = (req, ans) -> List.of(complete(ans, v6));
        }
        DatagramSocket sgsn = h.client();
        GtpHarness.send(sgsn, GtpHarness.v1Create("262010000000400", 1), vip1);
        await().atMost(WAIT).until(() -> h.drops("GGSN-GN", "gtp_vip_family_mismatch") == 1);
        assertThat(h.factory.module().sessions().size()).isZero();
    }

    @Test
    void checkRefusesTheLineWhereItCannotWorkAndRunningConfigKeepsIt() throws Exception {
        String ok = config(" gtp signalling vip\n");
        assertThat(ConfigWriter.write(h.parse(dir, ok))).contains(" gtp signalling vip\n");

        String plain = ok.replace("service gtp-inspect", "service gtp");
        assertThatThrownBy(() -> h.parse(dir, plain)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("test.cfg:")
                .hasMessageContaining("'gtp signalling vip' needs 'service gtp-inspect' on vserver GGSN-GN");
        String v6Real = ok.replace(" real 127.0.0.4 ", " real ::1 ");
        assertThatThrownBy(() -> h.parse(dir, v6Real)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("real ::1 of serverfarm GGSN-FARM")
                .hasMessageContaining("other address family");
        assertThatThrownBy(() -> h.parse(dir, ok.replace("gtp signalling vip", "gtp signalling ggsn")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("expected 'gtp signalling vip'");
    }
}
