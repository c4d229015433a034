package io.mclb.perf.gtp.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.mclb.config.ConfigParser;
import io.mclb.gtp.Apn;
import io.mclb.gtp.lb.GtpServiceModule;
import io.mclb.gtp.lb.GtpSession;
import io.mclb.gtp.v2.GtpV2Fteid;
import io.mclb.gtp.v2.GtpV2Ie;
import io.mclb.gtp.v2.GtpV2IeCursor;
import io.mclb.gtp.v2.GtpV2Message;
import io.mclb.perf.gtp.load.GtpRequestEncoder;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.mclb.testing.Ports;
import io.mclb.time.ManualClock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GTPv2 under {@code gtp signalling vip} against the project's PGW simulator: three simulators
 * (127.0.0.2-4), each numbering its S5/S8 control TEIDs from the same start, so they collide. The
 * SGW (127.0.0.1) must be told the virtual address and mclb's TEID in the PGW S5/S8 GTP-C F-TEID
 * (interface type 7), never the PGW's own; the PGW's user-plane F-TEID in the Bearer Context is
 * left alone; and each Delete Session Request sent to mclb's TEID must reach the simulator that
 * holds the session with that simulator's own TEID: a simulator that cannot find the TEID counts
 * it in {@link GgsnSimulator#deletesNotFound()}.
 */
class PgwSimulatorsBehindSignallingVipTest {
    private static final byte[] APN = Apn.encode("internet");
    private static final byte[] SGW = {127, 0, 0, 1};

    @TempDir
    Path dir;
    private final List<GgsnSimulator> pgws = new ArrayList<>();
    private MclbRuntime runtime;
    private DatagramSocket sgw;

    @AfterEach
    void tearDown() {
        if (sgw != null) {
            sgw.close();
        }
        if (runtime != null) {
            runtime.close();
        }
        pgws.forEach(GgsnSimulator::close);
    }

    @Test
    void createSessionAnswersNameTheVipAndDeletesReachTheOwningPgwWithItsOwnTeid() throws Exception {
        StringBuilder reals = new StringBuilder();
        for (int i = 2; i <= 4; i++) {
            GgsnSimulator pgw = GgsnSimulator.builder().listen(new InetSocketAddress("127.0.0." + i, 0)).start();
            pgws.add(pgw);
            reals.append(" real 127.0.0.").append(i).append(' ').append(pgw.boundAddresses().get(0).getPort())
                    .append("\n  weight 1\n  inservice\n");
        }
        int vipPort = Ports.freeUdp("127.0.0.1");
        InetSocketAddress vip = new InetSocketAddress("127.0.0.1", vipPort);
        String cfg = "mclb admin 127.0.0.1 " + Ports.freeUdp("127.0.0.1") + "\n"
                + "mclb data-dir " + dir + "\n"
                + "mclb sticky entries 10000\n"
                + "mclb event-loops 1\n"
                + "ip slb serverfarm PGW-FARM\n"
                + " predictor roundrobin\n"
                + reals
                + "ip slb vserver S5-S8\n"
                + " virtual 127.0.0.1 udp " + vipPort + " service gtp-inspect\n"
                + " serverfarm PGW-FARM\n"
                + " gtp signalling vip\n"
                + " inservice\n";
        GtpServiceModule gtp = new GtpServiceModule();
        Modules modules = Modules.of(gtp);
        runtime = MclbRuntime.start(ConfigParser.parse("test.cfg", cfg, dir, modules.grammar()), modules,
                ServingGate.ALWAYS, new ManualClock());
        sgw = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        sgw.setSoTimeout(5_000);

        int sessions = 6;
        List<Integer> anchoredTeids = new ArrayList<>();
        Set<Integer> pgwTeids = new HashSet<>();
        GtpV2Fteid f = new GtpV2Fteid();
        for (int i = 0; i < sessions; i++) {
            long imsi = GtpRequestEncoder.imsiRaw(262_010_000_000_100L + i, 15);
            int seq = 0x100 + i;
            GtpV2Message a = v2(exchange(vip, b -> GtpRequestEncoder.writeV2Create(b, seq, imsi, 5, 0x5000 + seq, SGW, APN)));
            assertThat(a.cause()).isEqualTo(16);
            assertThat(a.teid()).as("header: the SGW's own TEID").isEqualTo(0x5000 + seq);
            GtpSession s = gtp.module().sessions().get(imsi, 5);
            assertThat(a.fteid(1, f)).isTrue();
            assertThat(f.interfaceType()).isEqualTo(GtpV2Ie.IF_S5S8_PGW_GTPC);
            assertThat(f.ipv4()).as("PGW S5/S8 GTP-C address given to the SGW").isEqualTo(0x7F000001);
            assertThat(f.teid()).as("PGW S5/S8 GTP-C TEID given to the SGW").isEqualTo(s.teid()).isNotEqualTo(s.ggsnTeid());
            int pgwAddress = Unpooled.wrappedBuffer(s.real().address().getAddress()).getInt(0);
            GtpV2IeCursor c = new GtpV2IeCursor().reset(a.buffer(), a.bearerContextOffset(),
                    a.bearerContextOffset() + a.bearerContextLength());
            int userPlane = 0;
            while (c.next()) {
                if (c.type() == GtpV2Ie.F_TEID && f.wrap(a.buffer(), c.valueOffset(), c.valueLength(), c.instance())) {
                    assertThat(f.interfaceType()).isEqualTo(GtpV2Ie.IF_S5S8_PGW_GTPU);
                    assertThat(f.ipv4()).as("S5/S8 PGW GTP-U address untouched").isEqualTo(pgwAddress);
                    userPlane++;
                }
            }
            assertThat(userPlane).as("user-plane F-TEIDs in the Bearer Context").isEqualTo(1);
            anchoredTeids.add(s.teid());
            pgwTeids.add(s.ggsnTeid());
        }
        assertThat(pgwTeids).as("the simulators' own TEIDs collide").hasSizeLessThan(sessions);
        assertThat(new HashSet<>(anchoredTeids)).as("mclb's TEIDs are unique").hasSize(sessions);
        assertThat(pgws).allSatisfy(p -> assertThat(p.activeSessions()).isEqualTo(2));

        for (int i = 0; i < sessions; i++) {
            int teid = anchoredTeids.get(i);
            int seq = 0x200 + i;
            GtpV2Message d = v2(exchange(vip, b -> GtpRequestEncoder.writeV2Delete(b, seq, teid, 5)));
            assertThat(d.messageType()).isEqualTo(37);
            assertThat(d.cause()).as("delete %d accepted by the PGW holding it", i).isEqualTo(16);
        }
        assertThat(pgws).allSatisfy(p -> {
            assertThat(p.deletesNotFound()).as("deletes with a TEID the PGW does not know").isZero();
            assertThat(p.activeSessions()).isZero();
        });
        assertThat(gtp.module().sessions().size()).isZero();
    }

    private ByteBuf exchange(InetSocketAddress to, Consumer<ByteBuf> writer) throws Exception {
        ByteBuf out = Unpooled.buffer(512);
        writer.accept(out);
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        sgw.send(new DatagramPacket(bytes, bytes.length, to));
        DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
        sgw.receive(in);
        assertThat(in.getSocketAddress()).as("answers come from the virtual address").isEqualTo(to);
        return Unpooled.wrappedBuffer(in.getData(), 0, in.getLength());
    }

    private static GtpV2Message v2(ByteBuf b) {
        GtpV2Message m = new GtpV2Message();
        assertThat(m.wrap(b)).as("v2 decodes: %s", m.reason()).isTrue();
        return m;
    }
}
