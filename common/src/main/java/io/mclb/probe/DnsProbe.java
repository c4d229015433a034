package io.mclb.probe;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.ConfigLine;
import io.mclb.config.ProbeConfig;
import io.mclb.farm.RealServer;
import io.mclb.service.ProbeFactory;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code ip slb probe NAME dns}: {@code lookup NAME} asks each real (a DNS server, port 53 or
 * {@code port N}) for NAME's A record and any address in the answer passes; {@code lookup NAME IP}
 * or IOS's {@code lookup IP} (several allowed, with the name from a {@code lookup NAME} line) pass
 * only when one of those addresses is in the answer (an IPv6 one asks for AAAA). NXDOMAIN,
 * REFUSED, any other error code, an answer without the address and silence fail.
 */
public final class DnsProbe implements ProbeFactory {
    static final String TYPE = "dns";
    static final int DNS_PORT = 53;

    /** @param expected addresses one of which must be answered; empty = any address passes */
    record Settings(InetAddress address, int port, String name, List<InetAddress> expected) {
        Settings {
            expected = List.copyOf(expected);
        }

        boolean ipv6() {
            return !expected.isEmpty() && expected.get(0) instanceof Inet6Address;
        }
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Parsed parse(ConfigLine header, List<ConfigLine> lines) throws BadLine {
        String label = ProbeLines.label(header);
        ProbeLines.endOfHeader(header, 4);
        InetAddress address = null;
        int port = 0;
        String name = null;
        List<InetAddress> expected = new ArrayList<>();
        for (ConfigLine c : lines) {
            try {
                List<String> t = c.tokens();
                if (c.is(0, "port")) {
                    port = ProbeLines.port(c, label);
                } else if (c.is(0, "address")) {
                    address = ProbeLines.address(c, label);
                } else if (c.is(0, "lookup")) {
                    String first = Args.token(t, 1, label + " lookup", "name or address, expected 'lookup NAME [IP]'");
                    InetAddress ip = Args.parseAddress(first);
                    if (ip != null) {
                        Args.end(t, 1, label + " lookup " + first);
                        expected.add(ip);
                        continue;
                    }
                    name = hostName(first, label);
                    if (t.size() > 2) {
                        expected.add(Args.address(t, 2, label + " lookup " + first));
                        Args.end(t, 2, label + " lookup " + first + " " + t.get(2));
                    }
                } else {
                    throw ProbeLines.unknown(label, TYPE, c, "lookup NAME [IP], lookup IP, port N, address IP [routed]");
                }
            } catch (BadLine e) {
                throw e.at(c.source());
            }
        }
        if (name == null) {
            throw new BadLine(label + " dns: no name to look up, add 'lookup NAME' (e.g. lookup probe.example.net)");
        }
        if (expected.stream().map(a -> a instanceof Inet6Address).distinct().count() > 1) {
            throw new BadLine(label + " dns: expected addresses mix IPv4 and IPv6; one probe asks for A or AAAA");
        }
        return Parsed.of(new Settings(address, port, name, expected));
    }

    private static String hostName(String s, String label) throws BadLine {
        String n = s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
        boolean ok = !n.isEmpty() && n.length() <= 253;
        for (String l : n.split("\\.", -1)) {
            ok &= l.matches("[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?");
        }
        if (!ok) {
            throw new BadLine(label + " lookup " + s + ": not a host name (labels of letters, digits, '-' or '_', "
                    + "at most 63 characters each, 253 in all)");
        }
        return n;
    }

    @Override
    public ProbeCheck newCheck(ProbeConfig probe, RealServer real, ProbeContext ctx) {
        Settings s = probe.settings(Settings.class);
        int port = s.port() != 0 ? s.port() : DNS_PORT;
        return new Check(ctx, new InetSocketAddress(ProbeTargets.address(s.address(), real), port), s);
    }

    /** One DNS server's lookups, on the probe's loop. */
    private static final class Check extends UdpCheck {
        private final Settings settings;
        private final byte[] qname;
        private final int qtype;
        private final byte[][] expected;
        private int id;

        Check(ProbeContext ctx, InetSocketAddress target, Settings settings) {
            super(ctx, target);
            this.settings = settings;
            this.qname = DnsWire.encodeName(settings.name());
            this.qtype = settings.ipv6() ? DnsWire.TYPE_AAAA : DnsWire.TYPE_A;
            this.expected = settings.expected().stream().map(InetAddress::getAddress).toArray(byte[][]::new);
        }

        @Override
        protected ByteBuf request(ByteBufAllocator alloc) {
            id = ThreadLocalRandom.current().nextInt(0x10000);
            ByteBuf b = alloc.buffer(DnsWire.HEADER + qname.length + 4);
            DnsWire.writeQuery(b, id, qname, qtype);
            return b;
        }

        @Override
        protected Verdict judge(ByteBuf d) {
            if (!DnsWire.isResponseTo(d, id)) {
                return Verdict.NOT_MINE; // late or foreign: the timeout judges this run
            }
            int rcode = DnsWire.rcode(d);
            if (rcode != 0) {
                because(DnsWire.rcodeName(rcode) + " for " + settings.name());
                return Verdict.FAIL;
            }
            int at = DnsWire.answers(d);
            int n = DnsWire.answerCount(d);
            int size = qtype == DnsWire.TYPE_A ? 4 : 16;
            String seen = "";
            for (int i = 0; i < n && at >= 0; i++) {
                long rr = DnsWire.record(d, at);
                if (rr < 0) {
                    break;
                }
                if (DnsWire.type(rr) == qtype && DnsWire.rdLength(rr) == size) {
                    if (matches(d, DnsWire.rdata(rr))) {
                        return Verdict.PASS;
                    }
                    seen = seen.isEmpty() ? address(d, DnsWire.rdata(rr), size) : seen;
                }
                at = DnsWire.rdata(rr) + DnsWire.rdLength(rr);
            }
            if (seen.isEmpty()) {
                because("no " + (qtype == DnsWire.TYPE_A ? "A" : "AAAA") + " record for " + settings.name()
                        + (DnsWire.truncated(d) ? " (truncated answer)" : ""));
            } else {
                because(settings.name() + " answered " + seen + ", expected " + settings.expected().stream()
                        .map(InetAddress::getHostAddress).toList());
            }
            return Verdict.FAIL;
        }

        /** Any address passes when none is expected; else it must be one of them. */
        private boolean matches(ByteBuf d, int at) {
            if (expected.length == 0) {
                return true;
            }
            for (byte[] e : expected) {
                boolean same = true;
                for (int i = 0; i < e.length && same; i++) {
                    same = d.getByte(at + i) == e[i];
                }
                if (same) {
                    return true;
                }
            }
            return false;
        }

        private static String address(ByteBuf d, int at, int size) {
            byte[] b = new byte[size];
            d.getBytes(at, b);
            try {
                return InetAddress.getByAddress(b).getHostAddress();
            } catch (java.net.UnknownHostException e) {
                return "?";
            }
        }
    }
}
