package io.mclb.probe;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.ConfigLine;
import io.mclb.config.ProbeConfig;
import io.mclb.farm.RealServer;
import io.mclb.service.ProbeFactory;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;

/**
 * {@code ip slb probe NAME custom udp} (reference section 6): {@code request data START HEX...}
 * lines build the request (each puts its bytes at byte START, gaps are zero), {@code response
 * CLAUSE data START HEX...} lines are what an answer must hold (every clause: those bytes at byte
 * START), {@code port N} (default: the real's port) and {@code address IP [routed]}. Without a
 * clause any answer passes. HEX is hexadecimal digits, in one token or several ({@code 05 04 00 77}).
 */
public final class CustomUdpProbe implements ProbeFactory {
    static final String TYPE = "custom";
    static final int MAX_BYTES = 1472;

    /** What an answer must hold at byte {@code start}. */
    record Clause(int number, int start, byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Clause c && c.number == number && c.start == start && Arrays.equals(c.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * number + start) + Arrays.hashCode(bytes);
        }
    }

    record Settings(InetAddress address, int port, byte[] request, List<Clause> clauses) {
        Settings {
            clauses = List.copyOf(clauses);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Settings s && java.util.Objects.equals(s.address, address) && s.port == port
                    && Arrays.equals(s.request, request) && s.clauses.equals(clauses);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(address, port, Arrays.hashCode(request), clauses);
        }
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Parsed parse(ConfigLine header, List<ConfigLine> lines) throws BadLine {
        String label = ProbeLines.label(header);
        if (!header.is(5, "udp")) {
            throw new BadLine("ip slb probe " + header.get(3) + " custom" + (header.size() > 5 ? " " + header.get(5) : "")
                    + ": allowed 'custom udp'");
        }
        ProbeLines.endOfHeader(header, 5);
        InetAddress address = null;
        int port = 0;
        byte[] request = new byte[0];
        TreeMap<Integer, Clause> clauses = new TreeMap<>();
        for (ConfigLine c : lines) {
            try {
                List<String> t = c.tokens();
                if (c.is(0, "port")) {
                    port = ProbeLines.port(c, label);
                } else if (c.is(0, "address")) {
                    address = ProbeLines.address(c, label);
                } else if (c.is(0, "request")) {
                    if (!c.is(1, "data")) {
                        throw new BadLine(label + " request: expected 'request data START HEX'");
                    }
                    int start = Args.integer(t, 2, label + " request data start", 0, MAX_BYTES - 1);
                    byte[] b = hex(t, 3, label + " request data " + start);
                    if (start + b.length > MAX_BYTES) {
                        throw new BadLine(label + " request data " + start + ": ends at byte " + (start + b.length)
                                + ", allowed at most " + MAX_BYTES);
                    }
                    byte[] grown = Arrays.copyOf(request, Math.max(request.length, start + b.length));
                    System.arraycopy(b, 0, grown, start, b.length);
                    request = grown;
                } else if (c.is(0, "response")) {
                    String l = label + " response";
                    int n = Args.integer(t, 1, l + " clause", 1, 255);
                    if (!c.is(2, "data")) {
                        throw new BadLine(l + " " + n + ": expected 'response CLAUSE data START HEX'");
                    }
                    int start = Args.integer(t, 3, l + " " + n + " data start", 0, MAX_BYTES - 1);
                    Clause old = clauses.put(n, new Clause(n, start, hex(t, 4, l + " " + n + " data " + start)));
                    if (old != null) {
                        throw new BadLine(l + " " + n + ": clause " + n + " given twice");
                    }
                } else {
                    throw ProbeLines.unknown(label, "custom udp", c,
                            "request data START HEX, response CLAUSE data START HEX, port N, address IP [routed]");
                }
            } catch (BadLine e) {
                throw e.at(c.source());
            }
        }
        if (request.length == 0) {
            throw new BadLine(label + " custom udp: no request, add 'request data START HEX'");
        }
        return Parsed.of(new Settings(address, port, request, new ArrayList<>(clauses.values())));
    }

    private static byte[] hex(List<String> t, int from, String label) throws BadLine {
        String s = String.join("", t.subList(Math.min(from, t.size()), t.size()));
        if (s.startsWith("0x") || s.startsWith("0X")) {
            s = s.substring(2);
        }
        if (s.isEmpty() || s.length() % 2 != 0 || !s.matches("[0-9A-Fa-f]+")) {
            throw new BadLine(label + ": '" + String.join(" ", t.subList(Math.min(from, t.size()), t.size()))
                    + "' is not hexadecimal bytes, allowed pairs of 0-9 A-F, e.g. 05 04 00 77");
        }
        return HexFormat.of().parseHex(s);
    }

    @Override
    public ProbeCheck newCheck(ProbeConfig probe, RealServer real, ProbeContext ctx) {
        Settings s = probe.settings(Settings.class);
        int port = ProbeTargets.port(s.port(), real, ctx.service(), 0);
        if (port == 0) {
            return ProbeCheck.failing("no port to send to: the real has none and no virtual server uses farm "
                    + real.farmName() + "; set 'port N'");
        }
        return new Check(ctx, new InetSocketAddress(ProbeTargets.address(s.address(), real), port), s);
    }

    /** One real's datagrams, on the probe's loop. */
    private static final class Check extends UdpCheck {
        private final Settings settings;

        Check(ProbeContext ctx, InetSocketAddress target, Settings settings) {
            super(ctx, target);
            this.settings = settings;
        }

        @Override
        protected ByteBuf request(ByteBufAllocator alloc) {
            return alloc.buffer(settings.request().length).writeBytes(settings.request());
        }

        @Override
        protected Verdict judge(ByteBuf d) {
            int base = d.readerIndex();
            for (Clause c : settings.clauses()) {
                if (d.readableBytes() < c.start() + c.bytes().length) {
                    because("answer of " + d.readableBytes() + " bytes too short for clause " + c.number()
                            + " (" + c.bytes().length + " bytes at byte " + c.start() + ")");
                    return Verdict.FAIL;
                }
                for (int i = 0; i < c.bytes().length; i++) {
                    if (d.getByte(base + c.start() + i) != c.bytes()[i]) {
                        byte[] got = new byte[c.bytes().length];
                        d.getBytes(base + c.start(), got);
                        because("clause " + c.number() + ": expected " + HexFormat.of().formatHex(c.bytes())
                                + " at byte " + c.start() + ", got " + HexFormat.of().formatHex(got));
                        return Verdict.FAIL;
                    }
                }
            }
            return Verdict.PASS;
        }
    }
}
