package io.mclb.probe;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.ConfigLine;

import java.net.InetAddress;
import java.util.List;

/**
 * Sub-lines the built-in probe types share (reference section 6): {@code address IP [routed]}
 * (check another address than the real's; {@code routed} is accepted: mclb's probes always follow
 * the routing table), {@code port N}, and the messages for lines a type does not know.
 */
final class ProbeLines {
    private ProbeLines() {
    }

    /** {@code probe NAME}, how every message of a stanza starts. */
    static String label(ConfigLine header) {
        return "probe " + header.get(3);
    }

    /** The header has no tokens after the TYPE word at {@code last}. */
    static void endOfHeader(ConfigLine header, int last) throws BadLine {
        Args.end(header.tokens(), last, "ip slb probe " + header.get(3) + " " + String.join(" ",
                header.tokens().subList(4, Math.min(header.size(), last + 1))));
    }

    /** {@code address IP [routed]}. */
    static InetAddress address(ConfigLine c, String label) throws BadLine {
        List<String> t = c.tokens();
        InetAddress a = Args.address(t, 1, label + " address");
        if (t.size() > 2) {
            if (!c.is(2, "routed")) {
                throw new BadLine(label + " address " + t.get(1) + ": unexpected '" + t.get(2) + "', allowed routed");
            }
            Args.end(t, 2, label + " address " + t.get(1) + " routed");
        }
        return a;
    }

    /** {@code port N}. */
    static int port(ConfigLine c, String label) throws BadLine {
        int p = Args.integer(c.tokens(), 1, label + " port", 1, 65535);
        Args.end(c.tokens(), 1, label + " port " + p);
        return p;
    }

    /** A line the type does not take, naming what it does. */
    static BadLine unknown(String label, String type, ConfigLine c, String allowed) {
        return new BadLine(label + " " + type + ": unknown line '" + c.text() + "', allowed " + allowed
                + ", interval S, faildetect N, timeout S");
    }
}
