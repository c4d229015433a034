package io.mclb.farm;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.RealConfig;
import io.mclb.config.ServerFarmConfig;
import io.mclb.service.ConfigSyntax;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The real's line {@code track-port MASTER PORT...} and {@code no track-port} ({@link TrackPort}).
 * Rules: at least two distinct ports; each names a real at this address in some farm; a port of
 * an address belongs to one group (the same group may be written under each of its reals).
 */
public final class TrackPortSyntax implements ConfigSyntax {
    public static final String OWNER = "track-port";

    @Override
    public String owner() {
        return OWNER;
    }

    @Override
    public Claim claimLine(ConfigBlock block, ConfigLine line) throws BadLine {
        if (block != ConfigBlock.REAL) {
            return Claim.notMine();
        }
        List<String> t = line.tokens();
        if (line.is(0, "no") && line.is(1, "track-port")) {
            return Claim.of(new TrackPort(List.of(), line.source()));
        }
        if (!line.is(0, "track-port")) {
            return Claim.notMine();
        }
        Set<Integer> ports = new LinkedHashSet<>();
        for (int i = 1; i < t.size(); i++) {
            int p = Args.integer(t, i, "track-port", 1, 65535);
            if (!ports.add(p)) {
                throw new BadLine("track-port " + String.join(" ", t.subList(1, t.size())) + ": port " + p
                        + " given twice");
            }
        }
        if (ports.size() < 2) {
            throw new BadLine("track-port" + (t.size() > 1 ? " " + t.get(1) : "")
                    + ": give the master port and at least one port that follows it, e.g. 'track-port 2123 3386'");
        }
        return Claim.of(new TrackPort(new ArrayList<>(ports), line.source()));
    }

    @Override
    public void validate(MclbConfig config, ErrorSink errors) {
        Map<String, TrackPort> groupOf = new HashMap<>();
        for (Map.Entry<InetAddress, TrackPort> e : groups(config)) {
            InetAddress a = e.getKey();
            TrackPort g = e.getValue();
            for (int p : g.ports()) {
                if (!hasReal(config, a, p)) {
                    errors.error(g.source(), "track-port " + join(g) + ": no real " + a.getHostAddress() + " " + p
                            + " in any serverfarm");
                }
                TrackPort other = groupOf.putIfAbsent(a.getHostAddress() + " " + p, g);
                if (other != null && !other.ports().equals(g.ports())) {
                    errors.error(g.source(), "track-port " + join(g) + ": port " + p + " of " + a.getHostAddress()
                            + " is already in the group 'track-port " + join(other) + "' (line "
                            + other.source().line() + ")");
                }
            }
        }
    }

    /** Every group in force: the last track-port line of each real block that has one, with the real's address. */
    static List<Map.Entry<InetAddress, TrackPort>> groups(MclbConfig config) {
        List<Map.Entry<InetAddress, TrackPort>> out = new ArrayList<>();
        for (ServerFarmConfig f : config.farms().values()) {
            for (RealConfig r : f.reals()) {
                List<TrackPort> lines = r.records(TrackPort.class);
                if (!lines.isEmpty() && !lines.get(lines.size() - 1).ports().isEmpty()) {
                    out.add(Map.entry(r.address(), lines.get(lines.size() - 1)));
                }
            }
        }
        return out;
    }

    private static boolean hasReal(MclbConfig config, InetAddress a, int port) {
        for (ServerFarmConfig f : config.farms().values()) {
            for (RealConfig r : f.reals()) {
                if (r.address().equals(a) && r.port() == port) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String join(TrackPort g) {
        return String.join(" ", g.ports().stream().map(String::valueOf).toList());
    }
}
