package io.mclb.radius.lb;

import io.mclb.config.ConfigParser;
import io.mclb.config.MclbConfig;
import io.mclb.farm.RealServer;
import io.mclb.radius.codec.Dictionaries;
import io.mclb.runtime.MclbRuntime;
import io.mclb.sticky.StickyKey;
import io.mclb.sticky.StickyKind;
import io.mclb.sticky.StickyValue;
import io.mclb.time.ManualClock;
import io.mclb.service.Modules;
import io.mclb.service.ServingGate;
import io.micrometer.core.instrument.Counter;
import org.tinyradius.packet.RadiusPacket;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * mclb with the RADIUS module on loopback: fake AAAs on 127.0.0.5/6/7 (auth and accounting
 * sockets each), virtual servers on 127.0.0.100, a NAS socket on 127.0.0.1 (covered by
 * {@code mclb radius client 127.0.0.0 255.0.0.0}). The configuration text uses placeholders:
 * {@code AUTH5}, {@code ACCT6}... for the AAA ports, {@code VAUTH}/{@code VACCT} for the virtual
 * ports and {@code DATA} for the data directory.
 */
final class RadiusHarness implements AutoCloseable {
    static final String NAS_SECRET = "nas-secret";
    static final String AAA_SECRET = "aaa-secret";

    final ManualClock clock = new ManualClock();
    final RadiusServiceModule factory = new RadiusServiceModule();
    final Map<String, FakeAaa> auth = new LinkedHashMap<>();
    final Map<String, FakeAaa> acct = new LinkedHashMap<>();
    final int vauth;
    final int vacct;
    final MclbConfig config;
    /** The configuration text after placeholders were replaced. */
    final String text;
    final MclbRuntime runtime;
    private final List<DatagramSocket> sockets = new ArrayList<>();

    RadiusHarness(Path dataDir, String configTemplate) throws Exception {
        this(dataDir, configTemplate, AAA_SECRET);
    }

    RadiusHarness(Path dataDir, String configTemplate, String aaaSecret) throws Exception {
        for (int i = 5; i <= 7; i++) {
            auth.put("AUTH" + i, new FakeAaa("127.0.0." + i, aaaSecret));
            acct.put("ACCT" + i, new FakeAaa("127.0.0." + i, aaaSecret));
        }
        vauth = freePort();
        vacct = freePort();
        String text = configTemplate.replace("DATA", dataDir.toString());
        for (var e : auth.entrySet()) {
            text = text.replace(e.getKey(), String.valueOf(e.getValue().port()));
        }
        for (var e : acct.entrySet()) {
            text = text.replace(e.getKey(), String.valueOf(e.getValue().port()));
        }
        text = text.replace("VAUTH", String.valueOf(vauth)).replace("VACCT", String.valueOf(vacct));
        this.text = text;
        config = ConfigParser.parse("test.cfg", text, dataDir, Modules.of(factory).grammar());
        runtime = MclbRuntime.start(config, Modules.of(factory), ServingGate.ALWAYS, clock);
    }

    /** The configuration of the issue, ports adapted, with {@code extraAcct} added to RADIUS-ACCT. */
    static String issueConfig(String extraGlobal, String extraAuth, String extraAcct) {
        StringBuilder b = new StringBuilder();
        b.append("mclb data-dir DATA\nmclb sticky entries 10000\nmclb event-loops 1\n");
        b.append("mclb radius client 127.0.0.0 255.0.0.0 key 0 nas-secret\n").append(extraGlobal);
        b.append("ip slb serverfarm AAA-FARM\n");
        for (int i = 5; i <= 7; i++) {
            b.append(" real 127.0.0.").append(i).append(" AUTH").append(i)
                    .append("\n  mclb radius key 0 aaa-secret\n  reassign 2\n  inservice\n");
        }
        b.append("ip slb serverfarm AAA-ACCT\n");
        for (int i = 5; i <= 7; i++) {
            b.append(" real 127.0.0.").append(i).append(" ACCT").append(i)
                    .append("\n  mclb radius key 0 aaa-secret\n  reassign 2\n  inservice\n");
        }
        b.append("ip slb vserver RADIUS-AUTH\n virtual 127.0.0.100 udp VAUTH service radius\n serverfarm AAA-FARM\n")
                .append(" sticky radius calling-station-id group 2\n").append(extraAuth).append(" inservice\n");
        b.append("ip slb vserver RADIUS-ACCT\n virtual 127.0.0.100 udp VACCT service radius\n serverfarm AAA-ACCT\n")
                .append(" sticky radius calling-station-id group 2\n sticky radius framed-ip group 2\n")
                .append(" purge radius framed-ip acct on-off\n").append(extraAcct).append(" inservice\n");
        return b.toString();
    }

    private static int freePort() throws IOException {
        return io.mclb.testing.Ports.freeUdp("127.0.0.100");
    }

    DatagramSocket nas() throws IOException {
        DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
        s.setSoTimeout(3000);
        sockets.add(s);
        return s;
    }

    /**
     * A NAS socket on {@code address} whose datagrams a daemon thread hands to {@code onDatagram}
     * (a copy of the bytes, and the sender), until the harness closes it.
     */
    DatagramSocket listen(String address, java.util.function.BiConsumer<byte[], InetSocketAddress> onDatagram)
            throws IOException {
        DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0));
        sockets.add(s);
        Thread t = new Thread(() -> {
            byte[] buf = new byte[65535];
            while (!s.isClosed()) {
                try {
                    DatagramPacket d = new DatagramPacket(buf, buf.length);
                    s.receive(d);
                    onDatagram.accept(Arrays.copyOf(buf, d.getLength()), (InetSocketAddress) d.getSocketAddress());
                } catch (IOException e) {
                    // closed at the end of the test
                }
            }
        }, "nas-" + address);
        t.setDaemon(true);
        t.start();
        return s;
    }

    static byte[] encode(RadiusPacket p, String secret) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            p.encodeRequestPacket(out, secret);
            return out.toByteArray();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    void send(DatagramSocket nas, byte[] wire, int port) throws IOException {
        nas.send(new DatagramPacket(wire, wire.length, InetAddress.getByName("127.0.0.100"), port));
    }

    /** Receives one answer and decodes it as TinyRadius would for the NAS (throws if it does not verify). */
    RadiusPacket receive(DatagramSocket nas, RadiusPacket request) throws Exception {
        return decodeAnswer(receiveRaw(nas), request);
    }

    /** Decodes an answer as TinyRadius would for the NAS (throws if it does not verify with the NAS secret). */
    static RadiusPacket decodeAnswer(byte[] b, RadiusPacket request) throws Exception {
        return RadiusPacket.decodeResponsePacket(Dictionaries.standard(), new ByteArrayInputStream(b), NAS_SECRET,
                request);
    }

    byte[] receiveRaw(DatagramSocket nas) throws IOException {
        byte[] buf = new byte[4096];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        nas.receive(p);
        if (!p.getAddress().getHostAddress().equals("127.0.0.100")) {
            throw new AssertionError("answer from " + p.getAddress());
        }
        return Arrays.copyOf(buf, p.getLength());
    }

    /** The fake (auth or acct) that has seen more requests than recorded in {@code before}, or null. */
    static String grew(Map<String, FakeAaa> fakes, Map<String, Integer> before) {
        for (var e : fakes.entrySet()) {
            if (e.getValue().count() > before.getOrDefault(e.getKey(), 0)) {
                return e.getKey();
            }
        }
        return null;
    }

    static Map<String, Integer> counts(Map<String, FakeAaa> fakes) {
        Map<String, Integer> m = new LinkedHashMap<>();
        fakes.forEach((k, v) -> m.put(k, v.count()));
        return m;
    }

    RealServer real(String farm, String address) {
        for (RealServer r : runtime.farms().get(farm).reals()) {
            if (r.address().getHostAddress().equals(address)) {
                return r;
            }
        }
        throw new IllegalArgumentException(address);
    }

    /** The real a framed-IP entry of group 2 names, or null. */
    RealServer framedIpEntry(String ip) throws Exception {
        StickyKey k = new StickyKey().set(RadiusStickyKinds.FRAMED_IP, 2, InetAddress.getByName(ip).getAddress());
        StickyValue v = new StickyValue();
        return runtime.stickyTable().get(k, v, clock.epochMillis()) ? runtime.realById(v.realId()) : null;
    }

    RealServer callingStationEntry(String csid) {
        StickyKey k = new StickyKey().set(RadiusStickyKinds.CALLING_STATION_ID, 2,
                csid.getBytes(StandardCharsets.UTF_8));
        StickyValue v = new StickyValue();
        return runtime.stickyTable().get(k, v, clock.epochMillis()) ? runtime.realById(v.realId()) : null;
    }

    FramedIpIndex framedIps() {
        return factory.framedIps();
    }

    double counter(String name, String vserver, String... tags) {
        Counter c = runtime.registry().find(name).tag("vserver", vserver).tags(tags).counter();
        return c == null ? 0 : c.count();
    }

    /** The sum of counter {@code name} with {@code tags} over {@code vservers}. */
    double total(String[] vservers, String name, String... tags) {
        double sum = 0;
        for (String vs : vservers) {
            String[] t = Arrays.copyOf(tags, tags.length + 2);
            t[tags.length] = "vserver";
            t[tags.length + 1] = vs;
            sum += io.mclb.testing.Metrics.count(runtime.registry(), name, t);
        }
        return sum;
    }

    /** Requests the fakes dealt with, or datagrams they sent back. */
    static double fakes(Map<String, FakeAaa> fakes, boolean handled) {
        double sum = 0;
        for (FakeAaa f : fakes.values()) {
            sum += handled ? f.handled() : f.answers();
        }
        return sum;
    }

    /** The drops of {@code vservers} by reason, those above 0. */
    Map<String, Double> dropsByReason(String... vservers) {
        Map<String, Double> m = new java.util.TreeMap<>();
        for (String vs : vservers) {
            for (Counter c : runtime.registry().find("mclb.drops").tag("vserver", vs).counters()) {
                if (c.count() > 0) {
                    m.merge(c.getId().getTag("reason"), c.count(), Double::sum);
                }
            }
        }
        return m;
    }

    double drops(String vserver, String reason) {
        return counter("mclb.drops", vserver, "reason", reason);
    }

    @Override
    public void close() throws Exception {
        sockets.forEach(DatagramSocket::close);
        runtime.close();
        auth.values().forEach(FakeAaa::close);
        acct.values().forEach(FakeAaa::close);
    }
}
