package io.mclb.gtp.lb;

import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.farm.RealServer;
import io.mclb.gtp.GtpTestMessages;
import io.mclb.runtime.MclbRuntime;
import io.mclb.time.ManualClock;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** An mclb runtime with the GTP module in front of {@link FakeGgsn}s, on loopback with a manual clock. */
final class GtpHarness implements AutoCloseable {
    final ManualClock clock = new ManualClock();
    final GtpServiceModule factory = new GtpServiceModule();
    final List<FakeGgsn> ggsns = new ArrayList<>();
    final List<DatagramSocket> clients = new ArrayList<>();
    MclbRuntime runtime;

    static int freePort(String address) throws IOException {
        return io.mclb.testing.Ports.freeUdp(address);
    }

    /** The usual farm of the service tests: fake GGSNs on 127.0.0.2, .3 and .4. */
    List<FakeGgsn> threeGgsns() throws IOException {
        return List.of(ggsn("127.0.0.2"), ggsn("127.0.0.3"), ggsn("127.0.0.4"));
    }

    FakeGgsn ggsn(String address) throws IOException {
        FakeGgsn g = new FakeGgsn(address, 0x10000 * (ggsns.size() + 1));
        ggsns.add(g);
        return g;
    }

    /** A fake GGSN on a fixed port of {@code address}. */
    FakeGgsn ggsn(String address, int port) throws IOException {
        FakeGgsn g = new FakeGgsn(address, port, 0x10000 * (ggsns.size() + 1));
        ggsns.add(g);
        return g;
    }

    /** A {@code real} line per GGSN of {@code farm}, each followed by {@code realLines} and {@code inservice}. */
    static String reals(List<FakeGgsn> farm, String realLines) {
        StringBuilder out = new StringBuilder();
        for (FakeGgsn g : farm) {
            out.append(" real ").append(g.address()).append(' ').append(g.port()).append('\n').append(realLines)
                    .append("  inservice\n");
        }
        return out.toString();
    }

    /**
     * The global lines and farm GGSN-FARM ({@code farmLines}, then a {@code real} per GGSN) for a fuzz run: numconns
     * 255, because mutated node-failure causes and unanswered requests charge failures, but a real
     * answering in between must not be failed out.
     */
    static String fuzzGlobalsAndReals(Path dir, List<FakeGgsn> farm, String farmLines) throws IOException {
        StringBuilder reals = new StringBuilder();
        for (FakeGgsn g : farm) {
            reals.append(" real ").append(g.address()).append(' ').append(g.port())
                    .append("\n  faildetect numconns 255\n  inservice\n");
        }
        return "mclb admin 127.0.0.1 " + freePort("127.0.0.1") + "\n"
                + "mclb data-dir " + dir + "\n"
                + "mclb sticky entries 10000\n"
                + "mclb event-loops 1\n"
                + "ip slb serverfarm GGSN-FARM\n"
                + farmLines
                + reals;
    }

    MclbConfig parse(Path dir, String text) throws Exception {
        return ConfigParser.parse("test.cfg", text, dir, Modules.of(factory).grammar());
    }

    void start(MclbConfig config) throws Exception {
        runtime = MclbRuntime.start(config, Modules.of(factory), ServingGate.ALWAYS, clock);
    }

    DatagramSocket client() throws IOException {
        return client("127.0.0.1");
    }

    DatagramSocket client(String address) throws IOException {
        DatagramSocket s = new DatagramSocket(0, InetAddress.getByName(address));
        s.setSoTimeout(3000);
        clients.add(s);
        return s;
    }

    static void send(DatagramSocket c, byte[] b, InetSocketAddress to) throws IOException {
        c.send(new DatagramPacket(b, b.length, to));
    }

    static byte[] receive(DatagramSocket c) throws IOException {
        byte[] buf = new byte[9000];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        c.receive(p);
        return Arrays.copyOf(buf, p.getLength());
    }

    /** The FakeGgsn that has seen more creates than in {@code before}, or -1. */
    int gotCreate(int[] before) {
        for (int i = 0; i < ggsns.size(); i++) {
            if (ggsns.get(i).creates.get() > before[i]) {
                return i;
            }
        }
        return -1;
    }

    int[] creates() {
        return ggsns.stream().mapToInt(g -> g.creates.get()).toArray();
    }

    RealServer real(String farm, FakeGgsn g) {
        for (RealServer r : runtime.farms().get(farm).reals()) {
            if (r.port() == g.port() && r.address().getHostAddress().equals(g.address())) {
                return r;
            }
        }
        throw new IllegalArgumentException("no real for " + g.address());
    }

    /** Summed over the series carrying {@code tags} (several reals or causes may match). */
    double counter(String name, String... tags) {
        return io.mclb.testing.Metrics.count(runtime.registry(), name, tags);
    }

    double drops(String vserver, String reason) {
        return counter("mclb.drops", "vserver", vserver, "reason", reason);
    }

    // ---- messages ----

    static byte[] v1Create(String imsi, int seq) {
        return GtpTestMessages.v1(16, 0, seq, GtpTestMessages.v1CreateRequestIes(GtpTestMessages.tbcd8(imsi)));
    }

    static byte[] v1Delete(int teid, int seq, int nsapi) {
        return GtpTestMessages.v1(20, teid, seq, new GtpTestMessages.Bytes().u8(20).u8(nsapi).bytes());
    }

    static byte[] v2Create(String imsi, int seq) {
        byte[] bearer = new GtpTestMessages.Bytes().ie2(73, 0, GtpTestMessages.hex("05")).bytes();
        byte[] ies = new GtpTestMessages.Bytes()
                .ie2(1, 0, GtpTestMessages.tbcd(imsi))
                .ie2(82, 0, GtpTestMessages.hex("06"))
                .ie2(87, 0, GtpTestMessages.hex("8a 00001000 7f000014"))
                .ie2(71, 0, GtpTestMessages.APN_INTERNET)
                .ie2(93, 0, bearer)
                .bytes();
        return GtpTestMessages.v2(32, 0, seq, ies);
    }

    static byte[] v2Delete(int teid, int seq) {
        return GtpTestMessages.v2(36, teid, seq, new GtpTestMessages.Bytes().ie2(73, 0, GtpTestMessages.hex("05")).bytes());
    }

    /** sgsnemu-style v0 Create with the TID in osmo-ggsn layout for {@code imsi}, NSAPI 0. */
    static byte[] v0Create(String imsi, int seq) {
        return io.mclb.gtp.GtpMalformedCorpus.v0Create(imsi, seq);
    }

    static int v1Cause(byte[] answer) {
        // first IE after the 12-octet header is Cause (TV 1)
        return answer[12] == 1 ? answer[13] & 0xFF : -1;
    }

    static int v1Seq(byte[] answer) {
        return ((answer[8] & 0xFF) << 8) | (answer[9] & 0xFF);
    }

    @Override
    public void close() {
        clients.forEach(DatagramSocket::close);
        if (runtime != null) {
            runtime.close();
        }
        ggsns.forEach(FakeGgsn::close);
    }
}
