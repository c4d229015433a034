package io.mclb.gtp.lb;

import io.mclb.farm.RealServer;
import io.mclb.gtp.GtpTestMessages;
import io.mclb.gtp.GtpTestMessages.Bytes;
import io.mclb.gtp.Tbcd;
import io.mclb.gtp.v0.GtpV0Message;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.gtp.v2.GtpV2Fteid;
import io.mclb.gtp.v2.GtpV2Message;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code gtp signalling vip}, the other direction (issue 13 item 3): the SGSN's control identity
 * in each create is anchored on the virtual address with mclb's TEID, so the GGSN sends its own
 * requests (v1 Update / Delete PDP Context, v2 Update / Delete Bearer) to mclb, which relays them
 * from the virtual address to the SGSN with the SGSN's own TEID and maps the answer back.
 *
 * <p>Two fake GGSNs hand out the same TEIDs, and two SGSNs (each on its own loopback address,
 * port 2123, as 29.060 has GGSNs send requests there) use the same TEID-C: every request must
 * still reach the SGSN that owns the session.
 */
class GtpGgsnInitiatedTest {
    private static final byte[] VIP = {127, 0, 0, 1};
    private static final int SAME_TEID_BASE = 0x100;
    /** Both SGSNs give the GGSN this control TEID: SGSN TEIDs collide across SGSNs too. */
    private static final int SGSN_TEID = 0x11;

    @TempDir
    Path dir;
    private GtpHarness h;
    private InetSocketAddress vip;
    private final List<DatagramSocket> sockets = new ArrayList<>();
    /** What each GGSN (by address) was told about the SGSN in the creates it got: address, TEID. */
    private final Map<String, List<String>> sgsnAsSeenByGgsn = new ConcurrentHashMap<>();

    @AfterEach
    void close() {
        sockets.forEach(DatagramSocket::close);
        if (h != null) {
            h.close();
        }
    }

    private void start() throws Exception {
        start(1);
    }

    private void start(int loops) throws Exception {
        start(loops, "");
    }

    private void start(int loops, String vserverLines) throws Exception {
        h = new GtpHarness();
        for (String a : List.of("127.0.0.2", "127.0.0.3")) {
            FakeGgsn g = new FakeGgsn(a, SAME_TEID_BASE);
            h.ggsns.add(g);
            g.onReceive = b -> {
                if ((b[1] & 0xFF) == 16 || (b[1] & 0xFF) == 18 || (b[1] & 0xFF) == 32) {
                    sgsnAsSeenByGgsn.computeIfAbsent(a, k -> new ArrayList<>()).add(sgsnIdentity(b));
                }
            };
            // as a real GGSN: the answer is addressed to the TEID-C the create gave for the SGSN
            g.answerHook = (req, ans) -> List.of(addressedAsRequested(req, ans));
        }
        int port = GtpHarness.freePort("127.0.0.1");
        vip = new InetSocketAddress("127.0.0.1", port);
        StringBuilder reals = new StringBuilder();
        for (FakeGgsn g : h.ggsns) {
            reals.append(" real ").append(g.address()).append(' ').append(g.port()).append("\n  weight 1\n  inservice\n");
        }
        h.start(h.parse(dir, "mclb admin 127.0.0.1 " + GtpHarness.freePort("127.0.0.1") + "\n"
                + "mclb data-dir " + dir + "\n"
                + "mclb sticky entries 10000\n"
                + "mclb event-loops " + loops + "\n"
                + "ip slb serverfarm GGSN-FARM\n"
                + " predictor roundrobin\n"
                + reals
                + "ip slb vserver GGSN-GN\n"
                + " virtual 127.0.0.1 udp " + port + " service gtp-inspect\n"
                + " serverfarm GGSN-FARM\n"
                + " gtp signalling vip\n"
                + vserverLines
                + " inservice\n"));
    }

    /** An SGSN on its own loopback address, port 2123 (where GGSNs send requests). */
    private DatagramSocket sgsn() throws Exception {
        return sgsn(SgsnAnchor.GTP_C_PORT);
    }

    /** An SGSN on its own loopback address and {@code port} (2123; GTPv0: 3386). */
    private DatagramSocket sgsn(int port) throws Exception {
        for (int tries = 0; ; tries++) {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            InetAddress a = InetAddress.getByAddress(new byte[] {127, 77, (byte) r.nextInt(1, 255), (byte) r.nextInt(1, 255)});
            try {
                DatagramSocket s = new DatagramSocket(new InetSocketAddress(a, port));
                s.setSoTimeout(5000);
                sockets.add(s);
                return s;
            } catch (java.net.BindException e) {
                if (tries > 20) {
                    throw e;
                }
            }
        }
    }

    /** A socket on the GGSN's own address (its requests come from there; another port than its create socket). */
    private DatagramSocket ggsnSide(RealServer ggsn) throws Exception {
        DatagramSocket s = new DatagramSocket(new InetSocketAddress(ggsn.address(), 0));
        s.setSoTimeout(5000);
        sockets.add(s);
        return s;
    }

    private static byte[] receive(DatagramSocket s, InetSocketAddress[] from) throws Exception {
        byte[] buf = new byte[9000];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        s.receive(p);
        if (from != null) {
            from[0] = (InetSocketAddress) p.getSocketAddress();
        }
        return Arrays.copyOf(buf, p.getLength());
    }

    private static void send(DatagramSocket s, byte[] b, InetSocketAddress to) throws Exception {
        s.send(new DatagramPacket(b, b.length, to));
    }

    private static int teid(byte[] m) {
        return Unpooled.wrappedBuffer(m).getInt(4);
    }

    private static int v1Seq(byte[] m) {
        return Unpooled.wrappedBuffer(m).getUnsignedShort(8);
    }

    private static int v2Seq(byte[] m) {
        return Unpooled.wrappedBuffer(m).getUnsignedMedium(8);
    }

    private static byte[] v1Create(String imsi, InetAddress sgsn, int seq) {
        byte[] ies = new Bytes().u8(2).raw(GtpTestMessages.tbcd8(imsi))
                .u8(14).u8(0).u8(15).u8(1)
                .u8(16).u32(0x2222)                  // TEID Data I: user plane, never touched
                .u8(17).u32(SGSN_TEID)               // TEID Control Plane: anchored
                .u8(20).u8(5)
                .tlv(128, GtpTestMessages.hex("f121"))
                .tlv(131, GtpTestMessages.APN_INTERNET)
                .tlv(133, sgsn.getAddress())         // SGSN address for signalling: anchored
                .tlv(133, sgsn.getAddress())         // SGSN address for user traffic: never touched
                .tlv(135, GtpTestMessages.hex("000b921f"))
                .bytes();
        return GtpTestMessages.v1(16, 0, seq, ies);
    }

    private static byte[] v2Create(String imsi, InetAddress sgw, int seq) {
        byte[] bearer = new Bytes().ie2(73, 0, GtpTestMessages.hex("05"))
                .ie2(87, 2, new Bytes().u8(0x84).u32(0x3333).raw(sgw.getAddress()).bytes()) // S5/S8 SGW GTP-U
                .bytes();
        byte[] ies = new Bytes().ie2(1, 0, GtpTestMessages.tbcd(imsi))
                .ie2(82, 0, GtpTestMessages.hex("06"))
                .ie2(87, 0, new Bytes().u8(0x86).u32(SGSN_TEID).raw(sgw.getAddress()).bytes()) // S5/S8 SGW GTP-C
                .ie2(71, 0, GtpTestMessages.APN_INTERNET)
                .ie2(93, 0, bearer)
                .bytes();
        return GtpTestMessages.v2(32, 0, seq, ies);
    }

    /** "address/TEID" of the SGSN's control identity in a create as the GGSN received it. */
    private static String sgsnIdentity(byte[] create) {
        try {
            if ((create[0] & 0xFF) >>> 5 == 1) {
                GtpV1Message m = new GtpV1Message();
                m.wrap(Unpooled.wrappedBuffer(create));
                byte[] a = new byte[16];
                int n = m.ies().gsnAddress(0, a);
                byte[] user = new byte[16];
                int u = m.ies().gsnAddress(1, user);
                return InetAddress.getByAddress(Arrays.copyOf(a, n)).getHostAddress() + "/" + m.ies().teidControl(false)
                        + " user " + InetAddress.getByAddress(Arrays.copyOf(user, u)).getHostAddress() + "/"
                        + m.ies().teidDataI(false);
            }
            GtpV2Message m = new GtpV2Message();
            m.wrap(Unpooled.wrappedBuffer(create));
            GtpV2Fteid f = new GtpV2Fteid();
            m.fteid(0, f);
            return InetAddress.getByAddress(Unpooled.copyInt(f.ipv4()).array()).getHostAddress() + "/" + f.teid();
        } catch (Exception e) {
            return e.toString();
        }
    }

    /** The fake's answer with the header TEID the create named for the SGSN (v1 TEID-C, v2 Sender F-TEID). */
    private static byte[] addressedAsRequested(byte[] req, byte[] ans) {
        int type = req[1] & 0xFF;
        int control;
        if (type == 16 || type == 18) {
            GtpV1Message m = new GtpV1Message();
            m.wrap(Unpooled.wrappedBuffer(req));
            control = m.ies().teidControl(false);
        } else if (type == 32) {
            GtpV2Message m = new GtpV2Message();
            m.wrap(Unpooled.wrappedBuffer(req));
            GtpV2Fteid f = new GtpV2Fteid();
            control = m.fteid(0, f) ? f.teid() : 0;
        } else {
            return ans;
        }
        Unpooled.wrappedBuffer(ans).setInt(4, control);
        return ans;
    }

    private GtpSession session(String imsi, int nsapi) {
        return h.factory.module().sessions().get(Tbcd.encodeRaw(imsi), nsapi);
    }

    @Test
    void v1UpdatesAndDeletesFromTheGgsnReachTheOwningSgsnWithItsOwnTeid() throws Exception {
        start();
        List<DatagramSocket> sgsns = List.of(sgsn(), sgsn());
        List<GtpSession> sessions = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            DatagramSocket sgsn = sgsns.get(i);
            String imsi = "26201000000070" + i;
            send(sgsn, v1Create(imsi, sgsn.getLocalAddress(), 70 + i), vip);
            byte[] a = receive(sgsn, null);
            assertThat(GtpHarness.v1Cause(a)).isEqualTo(128);
            assertThat(teid(a)).as("the answer is addressed to the SGSN's own TEID-C").isEqualTo(SGSN_TEID);
            GtpSession s = session(imsi, 5);
            assertThat(s.sgsnAnchored()).isTrue();
            assertThat(s.sgsnTeid()).isEqualTo(SGSN_TEID);
            assertThat(s.sgsnSignalling()).isEqualTo(sgsn.getLocalSocketAddress());
            sessions.add(s);
        }
        assertThat(sessions.get(0).real()).as("one session on each GGSN").isNotSameAs(sessions.get(1).real());
        assertThat(sessions.get(0).ggsnTeid()).as("the GGSNs' TEIDs collide").isEqualTo(sessions.get(1).ggsnTeid());
        for (GtpSession s : sessions) {
            assertThat(sgsnAsSeenByGgsn.get(s.real().address().getHostAddress()))
                    .as("the GGSN is given the virtual address and mclb's TEID; the user plane is the SGSN's")
                    .containsExactly("127.0.0.1/" + s.teid() + " user " + s.sgsnSignalling().getAddress().getHostAddress()
                            + "/" + 0x2222);
        }

        for (int i = 0; i < 2; i++) {
            GtpSession s = sessions.get(i);
            DatagramSocket sgsn = sgsns.get(i);
            DatagramSocket ggsn = ggsnSide(s.real());
            byte[] update = GtpTestMessages.v1(18, s.teid(), 0x4000 + i, new Bytes().u8(20).u8(5).bytes());
            send(ggsn, update, vip);
            InetSocketAddress[] from = new InetSocketAddress[1];
            byte[] atSgsn = receive(sgsn, from);
            assertThat(from[0]).as("relayed from the virtual address").isEqualTo(vip);
            assertThat(atSgsn[1] & 0xFF).isEqualTo(18);
            assertThat(teid(atSgsn)).as("the SGSN's own TEID").isEqualTo(SGSN_TEID);
            assertThat(atSgsn).hasSameSizeAs(update);
            int upstreamSeq = v1Seq(atSgsn);

            send(ggsn, update, vip); // the GGSN retransmits: the SGSN sees its duplicate
            byte[] again = receive(sgsn, null);
            assertThat(v1Seq(again)).as("a retransmission keeps mclb's sequence").isEqualTo(upstreamSeq);

            // the SGSN answers to the TEID it knows for the GGSN, which is mclb's
            send(sgsn, GtpTestMessages.v1(19, s.teid(), upstreamSeq, new Bytes().u8(1).u8(128).bytes()), from[0]);
            byte[] answer = receive(ggsn, from);
            assertThat(from[0]).isEqualTo(vip);
            assertThat(answer[1] & 0xFF).isEqualTo(19);
            assertThat(v1Seq(answer)).as("the GGSN's own sequence").isEqualTo(0x4000 + i);
            assertThat(teid(answer)).as("the GGSN's own TEID").isEqualTo(s.ggsnTeid());
            assertThat(session(s.imsiRaw() == sessions.get(0).imsiRaw() ? "262010000000700" : "262010000000701", 5))
                    .as("an update ends nothing").isSameAs(s);

            send(ggsn, GtpHarness.v1Delete(s.teid(), 0x5000 + i, 5), vip);
            byte[] delete = receive(sgsn, from);
            assertThat(delete[1] & 0xFF).isEqualTo(20);
            assertThat(teid(delete)).isEqualTo(SGSN_TEID);
            send(sgsn, GtpTestMessages.v1(21, s.teid(), v1Seq(delete), new Bytes().u8(1).u8(128).bytes()), from[0]);
            byte[] deleted = receive(ggsn, null);
            assertThat(deleted[1] & 0xFF).isEqualTo(21);
            assertThat(v1Seq(deleted)).isEqualTo(0x5000 + i);
            assertThat(teid(deleted)).isEqualTo(s.ggsnTeid());
        }
        assertThat(h.factory.module().sessions().size()).as("the GGSN's deletes ended the sessions").isZero();
        for (RealServer r : h.runtime.farms().get("GGSN-FARM").reals()) {
            assertThat(r.activeConnections()).as("connections of %s", r).isZero();
        }
        assertThat(h.counter("mclb.real.initiated", "vserver", "GGSN-GN")).as("updates and deletes relayed").isEqualTo(4);
        assertThat(h.ggsns).allSatisfy(g -> assertThat(g.others.get()).as("no request bounced to a GGSN").isZero());
    }

    /**
     * {@code n} sessions, each created by an SGSN on its own loopback address (added to {@code sgsns}),
     * IMSI {@code imsiPrefix} + two digits, sequence numbers from {@code seq}.
     */
    private List<GtpSession> sessionsOfOwnSgsns(int n, String imsiPrefix, int seq, List<DatagramSocket> sgsns)
            throws Exception {
        List<GtpSession> sessions = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            DatagramSocket sgsn = sgsn();
            sgsns.add(sgsn);
            String imsi = String.format("%s%02d", imsiPrefix, i);
            send(sgsn, v1Create(imsi, sgsn.getLocalAddress(), seq + i), vip);
            assertThat(GtpHarness.v1Cause(receive(sgsn, null))).isEqualTo(128);
            sessions.add(session(imsi, 5));
        }
        return sessions;
    }

    /** A GGSN's Update PDP Context Request for {@code s} (NSAPI 5), sequence {@code seq}. */
    private static byte[] ggsnUpdate(GtpSession s, int seq) {
        return GtpTestMessages.v1(18, s.teid(), seq, new Bytes().u8(20).u8(5).bytes());
    }

    /** The SGSN's accepting answer to {@code request}, the update as it reached the SGSN. */
    private static byte[] updateAccepted(GtpSession s, byte[] request) {
        return GtpTestMessages.v1(19, s.teid(), v1Seq(request), new Bytes().u8(1).u8(128).bytes());
    }

    @Test
    void anSgsnAnswerThatTheKernelHashesToAnotherLoopStillReachesTheGgsn() throws Exception {
        // the GGSN's request leaves from its loop's socket; each SGSN's answer hashes to its own loop
        start(2);
        int n = 8;
        List<DatagramSocket> sgsns = new ArrayList<>();
        List<GtpSession> sessions = sessionsOfOwnSgsns(n, "2620100000009", 90, sgsns);
        for (int i = 0; i < n; i++) {
            GtpSession s = sessions.get(i);
            DatagramSocket ggsn = ggsnSide(s.real());
            send(ggsn, ggsnUpdate(s, 0x700 + i), vip);
            InetSocketAddress[] from = new InetSocketAddress[1];
            byte[] atSgsn = receive(sgsns.get(i), from);
            send(sgsns.get(i), updateAccepted(s, atSgsn), from[0]);
            byte[] answer = receive(ggsn, null);
            assertThat(v1Seq(answer)).as("answer %d", i).isEqualTo(0x700 + i);
            assertThat(teid(answer)).isEqualTo(s.ggsnTeid());
        }
        assertThat(h.drops("GGSN-GN", "gtp_response_to_vip")).isZero();
    }

    @Test
    void sgsnAnswersArrivingTogetherOnAnotherLoopEachReachTheirGgsnOnce() throws Exception {
        // answers a loop does not own are handed to the owning loop after their read batch has
        // moved on: each must keep its own bytes and sender, not the channel's reused packet
        start(2);
        List<DatagramSocket> sgsns = new ArrayList<>();
        List<GtpSession> sessions = sessionsOfOwnSgsns(32, "2620100000008", 30, sgsns);
        int n = sessions.size();
        List<DatagramSocket> ggsns = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            GtpSession s = sessions.get(i);
            DatagramSocket ggsn = ggsnSide(s.real());
            ggsns.add(ggsn);
            send(ggsn, ggsnUpdate(s, 0x900 + i), vip);
        }
        byte[][] answers = new byte[n][];
        InetSocketAddress[] to = new InetSocketAddress[n];
        for (int i = 0; i < n; i++) {
            InetSocketAddress[] from = new InetSocketAddress[1];
            byte[] atSgsn = receive(sgsns.get(i), from);
            answers[i] = updateAccepted(sessions.get(i), atSgsn);
            to[i] = from[0];
        }
        for (int i = 0; i < n; i++) {
            send(sgsns.get(i), answers[i], to[i]);
        }
        for (int i = 0; i < n; i++) {
            byte[] answer = receive(ggsns.get(i), null);
            assertThat(v1Seq(answer)).as("answer %d", i).isEqualTo(0x900 + i);
            assertThat(teid(answer)).isEqualTo(sessions.get(i).ggsnTeid());
        }
        assertThat(h.drops("GGSN-GN", "gtp_response_to_vip")).isZero();
    }

    @Test
    void anSgsnUpdateNamingItsControlIdentityIsAnchoredLikeItsCreate() throws Exception {
        start();
        DatagramSocket sgsn = sgsn();
        send(sgsn, v1Create("262010000000600", sgsn.getLocalAddress(), 60), vip);
        receive(sgsn, null);
        GtpSession s = session("262010000000600", 5);
        // 29.060 7.3.3: an SGSN's Update names its control address and TEID-C again
        byte[] update = GtpTestMessages.v1(18, s.teid(), 61, new Bytes().u8(16).u32(0x2222).u8(17).u32(SGSN_TEID)
                .u8(20).u8(5).tlv(133, sgsn.getLocalAddress().getAddress()).tlv(133, sgsn.getLocalAddress().getAddress())
                .tlv(135, GtpTestMessages.hex("000b921f")).bytes());
        send(sgsn, update, vip);
        byte[] answer = receive(sgsn, null);
        assertThat(answer[1] & 0xFF).isEqualTo(19);
        assertThat(teid(answer)).as("the answer reaches the SGSN with its own TEID").isEqualTo(SGSN_TEID);
        assertThat(sgsnAsSeenByGgsn.get(s.real().address().getHostAddress())).as("create, then update")
                .containsExactly("127.0.0.1/" + s.teid() + " user " + sgsn.getLocalAddress().getHostAddress() + "/" + 0x2222,
                        "127.0.0.1/" + s.teid() + " user " + sgsn.getLocalAddress().getHostAddress() + "/" + 0x2222);
    }

    @Test
    void clientRulesDoNotRefuseAGgsnsOwnRequestsOrEchoes() throws Exception {
        start(1, " client 127.77.0.0 255.255.0.0\n"); // the SGSNs' range only
        DatagramSocket sgsn = sgsn();
        send(sgsn, v1Create("262010000000500", sgsn.getLocalAddress(), 50), vip);
        receive(sgsn, null);
        GtpSession s = session("262010000000500", 5);
        DatagramSocket ggsn = ggsnSide(s.real());
        // the GGSN checks the "SGSN" it was given, the virtual address, with an echo: mclb answers
        send(ggsn, GtpTestMessages.v1(1, 0, 51, new byte[0]), vip);
        assertThat(receive(ggsn, null)[1] & 0xFF).isEqualTo(2);
        send(ggsn, GtpHarness.v1Delete(s.teid(), 52, 5), vip);
        InetSocketAddress[] from = new InetSocketAddress[1];
        byte[] delete = receive(sgsn, from);
        send(sgsn, GtpTestMessages.v1(21, s.teid(), v1Seq(delete), new Bytes().u8(1).u8(128).bytes()), from[0]);
        assertThat(receive(ggsn, null)[1] & 0xFF).isEqualTo(21);
        assertThat(h.factory.module().sessions().size()).isZero();
        // anything else from outside the rules is still refused
        send(h.client(), GtpHarness.v1Create("262010000000501", 53), vip);
        await().until(() -> h.drops("GGSN-GN", "client_not_allowed") == 1);
    }

    @Test
    void aGgsnRequestForNoSessionOfItsOwnIsDroppedAndCountedAndAStrayAnswerToo() throws Exception {
        start();
        DatagramSocket sgsn = sgsn();
        send(sgsn, v1Create("262010000000800", sgsn.getLocalAddress(), 80), vip);
        receive(sgsn, null);
        GtpSession s = session("262010000000800", 5);
        RealServer other = h.runtime.farms().get("GGSN-FARM").reals()[0] == s.real()
                ? h.runtime.farms().get("GGSN-FARM").reals()[1] : h.runtime.farms().get("GGSN-FARM").reals()[0];

        send(ggsnSide(s.real()), GtpTestMessages.v1(18, 0x7777_7777, 1, new Bytes().u8(20).u8(5).bytes()), vip);
        // another GGSN naming this session's TEID must neither reach the SGSN nor be balanced as the SGSN's
        send(ggsnSide(other), GtpTestMessages.v1(18, s.teid(), 2, new Bytes().u8(20).u8(5).bytes()), vip);
        send(ggsnSide(other), GtpTestMessages.v1(18, 0, 3, new Bytes().u8(20).u8(5).bytes()), vip);
        await().until(() -> h.drops("GGSN-GN", "gtp_ggsn_unknown_teid") == 3);
        // an answer to nothing mclb relayed
        send(sgsn, GtpTestMessages.v1(19, s.teid(), 9, new Bytes().u8(1).u8(128).bytes()), vip);
        await().until(() -> h.drops("GGSN-GN", "gtp_response_to_vip") == 1);

        sgsn.setSoTimeout(300);
        assertThatThrownBy(() -> receive(sgsn, null)).as("nothing reached the SGSN").isInstanceOf(SocketTimeoutException.class);
        assertThat(h.ggsns).allSatisfy(g -> assertThat(g.others.get()).isZero());
        assertThat(session("262010000000800", 5)).isSameAs(s);
    }

    @Test
    void v2UpdateAndDeleteBearerFromThePgwReachTheSgwAndOnlyALinkedDeleteEndsTheSession() throws Exception {
        start();
        DatagramSocket sgw = sgsn();
        send(sgw, v2Create("262010000000900", sgw.getLocalAddress(), 90), vip);
        byte[] created = receive(sgw, null);
        assertThat(created[1] & 0xFF).isEqualTo(33);
        assertThat(teid(created)).as("addressed to the SGW's own TEID").isEqualTo(SGSN_TEID);
        GtpSession s = session("262010000000900", 5);
        assertThat(sgsnAsSeenByGgsn.get(s.real().address().getHostAddress()))
                .as("the PGW gets the virtual address and mclb's TEID as the SGW's S5/S8 GTP-C F-TEID")
                .containsExactly("127.0.0.1/" + s.teid());
        DatagramSocket pgw = ggsnSide(s.real());
        InetSocketAddress[] from = new InetSocketAddress[1];

        int[] types = {97, 99, 99};
        byte[][] ies = {
            new Bytes().ie2(73, 0, GtpTestMessages.hex("05")).bytes(),      // Update Bearer: a bearer
            new Bytes().ie2(73, 1, GtpTestMessages.hex("06")).bytes(),      // Delete Bearer: dedicated bearer 6 only
            new Bytes().ie2(73, 0, GtpTestMessages.hex("05")).bytes(),      // Delete Bearer: LBI 5, the PDN connection
        };
        for (int i = 0; i < types.length; i++) {
            send(pgw, GtpTestMessages.v2(types[i], s.teid(), 0x600 + i, ies[i]), vip);
            byte[] atSgw = receive(sgw, from);
            assertThat(from[0]).isEqualTo(vip);
            assertThat(atSgw[1] & 0xFF).isEqualTo(types[i]);
            assertThat(teid(atSgw)).isEqualTo(SGSN_TEID);
            send(sgw, GtpTestMessages.v2(types[i] + 1, s.teid(), v2Seq(atSgw),
                    new Bytes().ie2(2, 0, new byte[] {16, 0}).bytes()), from[0]);
            byte[] answer = receive(pgw, null);
            assertThat(answer[1] & 0xFF).isEqualTo(types[i] + 1);
            assertThat(v2Seq(answer)).isEqualTo(0x600 + i);
            assertThat(teid(answer)).as("the PGW's own S5/S8 TEID").isEqualTo(s.ggsnTeid());
            assertThat(h.factory.module().sessions().size()).as("sessions after message %d", types[i])
                    .isEqualTo(i < 2 ? 1 : 0);
        }
        assertThat(s.real().activeConnections()).isZero();
    }
    /** A v0 Create PDP Context Request (TID of {@code imsi}, NSAPI 0) naming {@code sgsn} in both GSN Addresses. */
    private static byte[] v0Create(String imsi, InetAddress sgsn, int seq) {
        byte[] b = GtpHarness.v0Create(imsi, seq);
        GtpV0Message m = new GtpV0Message();
        assertThat(m.wrap(Unpooled.wrappedBuffer(b))).isTrue();
        Unpooled.wrappedBuffer(b).setBytes(m.ies().gsnAddressOffset(0), sgsn.getAddress()) // for signalling
                .setBytes(m.ies().gsnAddressOffset(1), sgsn.getAddress());                 // for user traffic
        return b;
    }

    /** A GSM 09.60 message of {@code type} with {@code tid} (header octets 12-19 of a create). */
    private static byte[] v0(int type, int seq, byte[] tid, byte[] ies) {
        return new Bytes().u8(0x1E).u8(type).u16(ies.length).u16(seq).u16(0).u8(0xFF).u24(0xFFFFFF).raw(tid).raw(ies)
                .bytes();
    }

    private static int v0Seq(byte[] m) {
        return Unpooled.wrappedBuffer(m).getUnsignedShort(4);
    }

    @Test
    void v0UpdateAndDeleteFromTheGgsnFoundByTheTidReachTheSgsnOn3386AndTheDeleteEndsTheSession() throws Exception {
        start();
        List<String> seenByGgsn = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (FakeGgsn g : h.ggsns) {
            g.answerHook = (req, ans) -> List.of(ans);
            g.onReceive = b -> {
                if ((b[1] & 0xFF) == 16) {
                    GtpV0Message m = new GtpV0Message();
                    m.wrap(Unpooled.wrappedBuffer(b));
                    byte[] a = new byte[16];
                    byte[] u = new byte[16];
                    try {
                        seenByGgsn.add(InetAddress.getByAddress(Arrays.copyOf(a, m.ies().gsnAddress(0, a))).getHostAddress()
                                + " user " + InetAddress.getByAddress(Arrays.copyOf(u, m.ies().gsnAddress(1, u))).getHostAddress());
                    } catch (java.net.UnknownHostException e) {
                        seenByGgsn.add(e.toString());
                    }
                }
            };
        }
        DatagramSocket sgsn = sgsn(SgsnAnchor.GTP_V0_PORT);
        String imsi = "262010000000300";
        byte[] create = v0Create(imsi, sgsn.getLocalAddress(), 30);
        send(sgsn, create, vip);
        byte[] created = receive(sgsn, null);
        assertThat(created[1] & 0xFF).isEqualTo(17);
        GtpSession s = session(imsi, 0);
        assertThat(s.sgsnAnchored()).isTrue();
        assertThat(s.sgsnSignalling()).as("v0's signalling port").isEqualTo(sgsn.getLocalSocketAddress());
        assertThat(seenByGgsn).as("the GGSN gets the virtual address for signalling; the user plane is the SGSN's")
                .containsExactly("127.0.0.1 user " + sgsn.getLocalAddress().getHostAddress());

        byte[] tid = Arrays.copyOfRange(create, 12, 20);
        DatagramSocket ggsn = ggsnSide(s.real());
        InetSocketAddress[] from = new InetSocketAddress[1];
        byte[] update = v0(18, 0x4100, tid, new Bytes().u8(14).u8(0).bytes());
        send(ggsn, update, vip);
        byte[] atSgsn = receive(sgsn, from);
        assertThat(from[0]).as("relayed from the virtual address").isEqualTo(vip);
        assertThat(atSgsn[1] & 0xFF).isEqualTo(18);
        assertThat(Arrays.copyOfRange(atSgsn, 12, 20)).as("the TID unchanged").isEqualTo(tid);
        send(sgsn, v0(19, v0Seq(atSgsn), tid, new Bytes().u8(1).u8(128).bytes()), from[0]);
        byte[] answer = receive(ggsn, from);
        assertThat(from[0]).isEqualTo(vip);
        assertThat(answer[1] & 0xFF).isEqualTo(19);
        assertThat(v0Seq(answer)).as("the GGSN's own sequence").isEqualTo(0x4100);
        assertThat(session(imsi, 0)).as("an update ends nothing").isSameAs(s);

        send(ggsn, v0(20, 0x4101, tid, new byte[0]), vip);
        byte[] delete = receive(sgsn, from);
        assertThat(delete[1] & 0xFF).isEqualTo(20);
        send(sgsn, v0(21, v0Seq(delete), tid, new Bytes().u8(1).u8(128).bytes()), from[0]);
        byte[] deleted = receive(ggsn, null);
        assertThat(deleted[1] & 0xFF).isEqualTo(21);
        assertThat(v0Seq(deleted)).isEqualTo(0x4101);
        assertThat(h.factory.module().sessions().size()).as("the GGSN's delete ended the session").isZero();
        assertThat(s.real().activeConnections()).isZero();

        // the TID names no session now, nor does another IMSI's: dropped, never relayed
        send(ggsn, v0(18, 0x4102, tid, new Bytes().u8(14).u8(0).bytes()), vip);
        send(ggsn, v0(18, 0x4103, Arrays.copyOfRange(GtpHarness.v0Create("262010000000399", 1), 12, 20),
                new Bytes().u8(14).u8(0).bytes()), vip);
        await().until(() -> h.drops("GGSN-GN", "gtp_ggsn_unknown_teid") == 2);
        sgsn.setSoTimeout(300);
        assertThatThrownBy(() -> receive(sgsn, null)).isInstanceOf(SocketTimeoutException.class);
        assertThat(h.ggsns).allSatisfy(g -> assertThat(g.others.get()).as("no request bounced to a GGSN").isZero());
    }
    @Test
    void afterAnAcceptedUpdateFromASecondSgsnTheGgsnsDeleteReachesTheSecondSgsnNotTheFirst() throws Exception {
        start();
        DatagramSocket first = sgsn();
        DatagramSocket second = sgsn();
        send(first, v1Create("262010000000650", first.getLocalAddress(), 65), vip);
        assertThat(GtpHarness.v1Cause(receive(first, null))).isEqualTo(128);
        GtpSession s = session("262010000000650", 5);
        List<io.mclb.binding.Binding> resent = new java.util.concurrent.CopyOnWriteArrayList<>();
        h.factory.module().sessions().listener(new io.mclb.binding.BindingTable.ChangeListener() {
            @Override
            public void opened(io.mclb.binding.BindingTable<?> table, io.mclb.binding.Binding b) {
                resent.add(b);
            }

            @Override
            public void closed(io.mclb.binding.BindingTable<?> table, io.mclb.binding.Binding b) {
            }
        });
        int secondTeid = 0x22;
        InetAddress at = second.getLocalAddress();
        // 29.060 7.3.3: the new SGSN of an inter-SGSN routing area update names its address and TEID-C
        java.util.function.IntFunction<byte[]> update = seq -> GtpTestMessages.v1(18, s.teid(), seq, new Bytes()
                .u8(16).u32(0x2223).u8(17).u32(secondTeid).u8(20).u8(5).tlv(133, at.getAddress()).tlv(133, at.getAddress())
                .tlv(135, GtpTestMessages.hex("000b921f")).bytes());
        FakeGgsn ggsnOf = h.ggsns.stream().filter(g -> g.address().equals(s.real().address().getHostAddress())).findFirst().orElseThrow();
        java.util.function.BiFunction<byte[], byte[], List<byte[]>> asRequested = ggsnOf.answerHook;
        ggsnOf.answerHook = (req, ans) -> {
            List<byte[]> out = asRequested.apply(req, ans);
            if ((req[1] & 0xFF) == 18 && v1Seq(req) != 0 && out.get(0)[12] == 1 && rejectNext[0]) {
                out.get(0)[13] = (byte) 199; // the GGSN refuses the update: nothing moves
            }
            return out;
        };

        rejectNext[0] = true;
        send(second, update.apply(66), vip);
        byte[] refused = receive(second, null);
        assertThat(GtpHarness.v1Cause(refused)).isEqualTo(199);
        assertThat(s.sgsnSignalling()).as("a refused update leaves the first SGSN").isEqualTo(first.getLocalSocketAddress());
        assertThat(resent).isEmpty();

        rejectNext[0] = false;
        send(second, update.apply(67), vip);
        byte[] accepted = receive(second, null);
        assertThat(GtpHarness.v1Cause(accepted)).isEqualTo(128);
        assertThat(teid(accepted)).as("the answer reaches the new SGSN with its own TEID").isEqualTo(secondTeid);
        assertThat(s.sgsnSignalling()).isEqualTo(second.getLocalSocketAddress());
        assertThat(s.sgsnTeid()).isEqualTo(secondTeid);
        assertThat(resent).as("the change is re-sent to the HA standby").containsExactly(s);
        assertThat(h.counter("mclb.gtp.sgsn.changes", "vserver", "GGSN-GN")).isEqualTo(1);

        DatagramSocket ggsn = ggsnSide(s.real());
        send(ggsn, GtpHarness.v1Delete(s.teid(), 0x6500, 5), vip);
        InetSocketAddress[] from = new InetSocketAddress[1];
        byte[] delete = receive(second, from);
        assertThat(delete[1] & 0xFF).isEqualTo(20);
        assertThat(teid(delete)).as("the second SGSN's own TEID").isEqualTo(secondTeid);
        send(second, GtpTestMessages.v1(21, s.teid(), v1Seq(delete), new Bytes().u8(1).u8(128).bytes()), from[0]);
        assertThat(receive(ggsn, null)[1] & 0xFF).isEqualTo(21);
        assertThat(h.factory.module().sessions().size()).isZero();
        first.setSoTimeout(300);
        assertThatThrownBy(() -> receive(first, null)).as("nothing reached the first SGSN")
                .isInstanceOf(SocketTimeoutException.class);
    }

    private final boolean[] rejectNext = new boolean[1];
}
