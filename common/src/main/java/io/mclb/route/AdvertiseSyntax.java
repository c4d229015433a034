package io.mclb.route;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigLine;
import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.service.ConfigSyntax;

import java.util.List;

/**
 * Route health injection lines: {@code advertise [active]} and {@code no advertise} in a virtual
 * server ({@link Advertise}), and the global {@code mclb advertise table N [protocol P]}
 * ({@link RouteTable}, at most once). The main, local and default tables and the kernel's and
 * BIRD's own protocol numbers are refused: mclb's routes must be told apart from everyone else's.
 */
public final class AdvertiseSyntax implements ConfigSyntax {
    public static final String OWNER = "advertise";
    private static final String THROUGH_A_DAEMON = "the host route goes to the kernel table of 'mclb advertise"
            + " table N' for BIRD or FRR to announce; without that line nothing is advertised";

    @Override
    public String owner() {
        return OWNER;
    }

    @Override
    public Claim claimLine(ConfigBlock block, ConfigLine line) throws BadLine {
        List<String> t = line.tokens();
        if (block == ConfigBlock.VSERVER) {
            if (line.is(0, "no") && line.is(1, "advertise")) {
                Args.end(t, 1, "no advertise");
                return Claim.of(new Advertise(false, false));
            }
            if (!line.is(0, "advertise")) {
                return Claim.notMine();
            }
            if (t.size() > 1 && !line.is(1, "active")) {
                throw new BadLine("advertise " + t.get(1) + ": unexpected, allowed 'advertise [active]'");
            }
            Args.end(t, 1, "advertise active");
            return Claim.of(new Advertise(true, t.size() > 1)).changedMeaning(THROUGH_A_DAEMON);
        }
        if (block != ConfigBlock.GLOBAL || !line.is(0, "mclb") || !line.is(1, "advertise")) {
            return Claim.notMine();
        }
        String usage = "allowed 'mclb advertise table N [protocol P]'";
        if (!line.is(2, "table")) {
            throw new BadLine("mclb advertise" + (t.size() > 2 ? " " + t.get(2) : "") + ": " + usage);
        }
        long table = Args.number(t, 3, "mclb advertise table", 1, 4_294_967_295L);
        if (table >= 253 && table <= 255) {
            throw new BadLine("mclb advertise table " + table + ": the kernel's " + (table == 253 ? "default"
                    : table == 254 ? "main" : "local") + " table, allowed a table of its own, 1..252 or 256..4294967295");
        }
        int protocol = RouteTable.DEFAULT_PROTOCOL;
        if (t.size() > 4) {
            if (!line.is(4, "protocol")) {
                throw new BadLine("mclb advertise table " + table + ": unexpected '" + t.get(4) + "', " + usage);
            }
            protocol = Args.integer(t, 5, "mclb advertise table " + table + " protocol", 4, 255);
            if (protocol == 12) {
                throw new BadLine("mclb advertise table " + table + " protocol 12: BIRD's own routes, allowed 4..255 but 12");
            }
            Args.end(t, 5, "mclb advertise table " + table + " protocol " + protocol);
        }
        return Claim.of(new RouteTable(table, protocol));
    }

    @Override
    public void validate(MclbConfig config, ErrorSink errors) {
        List<ExtensionLine> tables = config.globalExtensions(OWNER);
        for (int i = 1; i < tables.size(); i++) {
            errors.error(tables.get(i).source(), "mclb advertise: given twice, first at line "
                    + tables.get(0).source().line());
        }
    }

    /** The routing table of {@code config}, or null (no route health injection). */
    public static RouteTable table(MclbConfig config) {
        List<RouteTable> t = config.records(RouteTable.class);
        return t.isEmpty() ? null : t.get(0);
    }

    /** The last {@code advertise} line of the virtual server, or IOS's default. */
    public static Advertise of(VirtualServerConfig v) {
        List<Advertise> a = v.records(Advertise.class);
        return a.isEmpty() ? Advertise.DEFAULT : a.get(a.size() - 1);
    }
}
