package io.mclb.transaction;

import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.farm.RealServer;
import io.mclb.runtime.MclbRuntime;
import io.mclb.time.ManualClock;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.micrometer.core.instrument.Counter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One mclb runtime with a {@code test-id} virtual server on 127.0.0.1 in front of fake reals on
 * 127.0.0.2.., real network I/O on loopback and a {@link ManualClock} for timers.
 */
final class RelayHarness implements AutoCloseable {
    static final String VSERVER = "V";
    static final String FARM = "F";
    static final int REQUEST_TIMEOUT_MS = 300;

    final ManualClock clock = new ManualClock();
    final EchoIdService service = new EchoIdService(REQUEST_TIMEOUT_MS);
    final List<FakeReal> reals = new ArrayList<>();
    final InetSocketAddress vip;
    final MclbRuntime runtime;
    private final List<DatagramSocket> clients = new ArrayList<>();

    /**
     * @param realCount  fake reals 127.0.0.2, 127.0.0.3, ...
     * @param realLines  sub-lines of every real (besides {@code inservice}), e.g. "reassign 2"
     */
    RelayHarness(Path dataDir, int realCount, String... realLines) throws Exception {
        this(dataDir, 10_000, realCount, realLines);
    }

    /** @param stickyEntries {@code mclb sticky entries} (at least 1000) */
    RelayHarness(Path dataDir, long stickyEntries, int realCount, String... realLines) throws Exception {
        this(dataDir, stickyEntries, s -> { }, realCount, realLines);
    }

    /** @param setup adjusts the service before the runtime starts (e.g. its id width) */
    RelayHarness(Path dataDir, long stickyEntries, java.util.function.Consumer<EchoIdService> setup, int realCount,
                 String... realLines) throws Exception {
        this(dataDir, stickyEntries, setup, "", "", realCount, realLines);
    }

    /**
     * @param globalLines  extra global lines, e.g. "mclb max-transactions 50\n"
     * @param vserverLines extra lines of the virtual server, e.g. " synguard 5\n"
     */
    RelayHarness(Path dataDir, long stickyEntries, java.util.function.Consumer<EchoIdService> setup,
                 String globalLines, String vserverLines, int realCount, String... realLines) throws Exception {
        setup.accept(service);
        StringBuilder cfg = new StringBuilder(globalLines);
        cfg.append("mclb data-dir ").append(dataDir).append('\n');
        cfg.append("mclb sticky entries ").append(stickyEntries).append('\n');
        cfg.append("mclb event-loops 1\n");
        cfg.append("ip slb serverfarm ").append(FARM).append('\n');
        for (int i = 0; i < realCount; i++) {
            FakeReal r = new FakeReal("127.0.0." + (2 + i));
            reals.add(r);
            cfg.append(" real ").append(r.address()).append(' ').append(r.port()).append('\n');
            cfg.append("  weight 1\n");
            for (String l : realLines) {
                cfg.append("  ").append(l).append('\n');
            }
            cfg.append("  inservice\n");
        }
        int vipPort = freePort();
        vip = new InetSocketAddress(InetAddress.getLoopbackAddress(), vipPort);
        cfg.append("ip slb vserver ").append(VSERVER).append('\n');
        cfg.append(" virtual 127.0.0.1 udp ").append(vipPort).append(" service ").append(EchoIdService.SERVICE)
                .append('\n');
        cfg.append(" serverfarm ").append(FARM).append('\n');
        cfg.append(vserverLines);
        cfg.append(" inservice\n");
        MclbConfig config = ConfigParser.parse("test.cfg", cfg.toString(), dataDir, Modules.of(service).grammar());
        runtime = MclbRuntime.start(config, Modules.of(service), ServingGate.ALWAYS, clock);
    }

    private static int freePort() throws IOException {
        return io.mclb.testing.Ports.freeUdp("127.0.0.1");
    }

    DatagramSocket client() throws IOException {
        DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress());
        s.setSoTimeout(3000);
        clients.add(s);
        return s;
    }

    static byte[] datagram(int type, int id, String sticky, String payload) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] k = sticky.getBytes(StandardCharsets.UTF_8);
        b.write(type);
        b.write(id >>> 8);
        b.write(id);
        b.write(k.length);
        b.writeBytes(k);
        b.writeBytes(payload.getBytes(StandardCharsets.UTF_8));
        return b.toByteArray();
    }

    static byte[] request(int id, String payload) {
        return datagram(EchoIdService.REQUEST, id, "", payload);
    }

    void send(DatagramSocket client, byte[] datagram) throws IOException {
        client.send(new DatagramPacket(datagram, datagram.length, vip));
    }

    /** Receives one datagram (within the socket timeout) and checks it came from the virtual address. */
    Answer receive(DatagramSocket client) throws IOException {
        byte[] buf = new byte[9001];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        client.receive(p);
        return new Answer(java.util.Arrays.copyOf(buf, p.getLength()), (InetSocketAddress) p.getSocketAddress());
    }

    /** A datagram a client received. */
    record Answer(byte[] bytes, InetSocketAddress from) {
        int type() {
            return bytes[0] & 0xff;
        }

        int id() {
            return ((bytes[1] & 0xff) << 8) | (bytes[2] & 0xff);
        }

        String payload() {
            int off = 4 + (bytes[3] & 0xff);
            return new String(bytes, off, bytes.length - off, StandardCharsets.UTF_8);
        }
    }

    RealServer real(int i) {
        FakeReal f = reals.get(i);
        for (RealServer r : runtime.farms().get(FARM).reals()) {
            if (r.port() == f.port() && r.address().getHostAddress().equals(f.address())) {
                return r;
            }
        }
        throw new IllegalArgumentException("no real " + i);
    }

    double counter(String name, String... tags) {
        Counter c = runtime.registry().find(name).tag("vserver", VSERVER).tags(tags).counter();
        return c == null ? 0 : c.count();
    }

    double gauge(String name) {
        var g = runtime.registry().find(name).tag("vserver", VSERVER).gauge();
        return g == null ? Double.NaN : g.value();
    }

    double drops(String reason) {
        return counter("mclb.drops", "reason", reason);
    }

    @Override
    public void close() throws Exception {
        for (DatagramSocket c : clients) {
            c.close();
        }
        runtime.close();
        for (FakeReal r : reals) {
            r.close();
        }
    }
}
