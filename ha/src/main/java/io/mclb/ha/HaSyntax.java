package io.mclb.ha;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigLine;
import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.ha.group.GroupConfig;
import io.mclb.ha.group.GroupManager;
import io.mclb.service.ConfigSyntax;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The HA configuration lines (owner {@code ha}), read once into {@link HaLines} records:
 * {@code interface NAME} stanzas with their {@code standby} lines, global
 * {@code track N interface IFACE line-protocol} lines (grammar in {@link HaConfigReader}) and
 * {@code mclb ha port N} / {@code mclb ha vip-control linux|noop}. Validation: every
 * {@code inservice standby NAME} names a configured {@code standby G name NAME}; group names are
 * unique; every {@code standby G track N} has its {@code track N} line.
 */
public final class HaSyntax implements ConfigSyntax {
    public static final String OWNER = "ha";

    @Override
    public String owner() {
        return OWNER;
    }

    @Override
    public List<String> keywords(ConfigBlock block) {
        return block == ConfigBlock.GLOBAL ? List.of("interface", "track") : List.of();
    }

    @Override
    public Claim claimLine(ConfigBlock block, ConfigLine line) throws BadLine {
        if (block != ConfigBlock.GLOBAL) {
            return Claim.notMine();
        }
        if (line.is(0, "mclb") && line.is(1, "ha")) {
            return Claim.of(mclbHa(line));
        }
        if (line.is(0, "mclb") && line.is(1, "failover")) {
            return Claim.of(mclbFailover(line));
        }
        return line.is(0, "track") ? Claim.of(HaConfigReader.trackLine(line)) : Claim.notMine();
    }

    @Override
    public Claim claimStanza(ConfigLine header, List<ConfigLine> children) throws BadLine {
        if (!header.is(0, "interface")) {
            return Claim.notMine();
        }
        Claim c = HaConfigReader.stanza(header, children);
        boolean groups = children.stream().anyMatch(l -> l.is(0, "standby"));
        // what an IOS operator must know before pairing: this is not Cisco HSRP on the wire
        return groups ? c.changedMeaning("standby groups run mclb's HSRP-style protocol: hellos in mclb's own format, "
                + "unicast to 'standby G peer' and multicast, signed with HMAC-SHA256 over the key-string (not HSRP MD5); "
                + "an mclb pairs with an mclb only") : c;
    }

    private static Object mclbHa(ConfigLine l) throws BadLine {
        if (l.size() == 4 && l.is(2, "port")) {
            return new HaLines.HaPort(Args.integer(l.tokens(), 3, "mclb ha port", 1, 65535));
        }
        if (l.size() == 4 && l.is(2, "vip-control") && (l.is(3, "linux") || l.is(3, "noop"))) {
            return l.is(3, "linux") ? HaLines.VipControl.LINUX : HaLines.VipControl.NOOP;
        }
        throw new BadLine("'" + l.text() + "': allowed 'mclb ha port N' or 'mclb ha vip-control linux|noop'");
    }

    private static Object mclbFailover(ConfigLine l) throws BadLine {
        if (l.size() == 4 && l.is(2, "stop") && (l.is(3, "handover") || l.is(3, "no-handover"))) {
            return new HaLines.StopHandover(l.is(3, "handover"));
        }
        throw new BadLine("'" + l.text() + "': allowed 'mclb failover stop handover' (the default: an orderly stop "
                + "hands the active role over at once) or 'mclb failover stop no-handover'");
    }

    /** {@code mclb failover stop handover|no-handover}, else handover. */
    static boolean stopHandover(MclbConfig config) {
        List<HaLines.StopHandover> v = config.records(HaLines.StopHandover.class);
        return v.isEmpty() || v.get(v.size() - 1).handover();
    }

    @Override
    public void validate(MclbConfig config, ErrorSink errors) {
        StatefulBackupRules.validate(config, errors);
        Map<Integer, String> tracks = tracks(config);
        Map<String, ExtensionLine> names = new LinkedHashMap<>();
        for (ExtensionLine l : config.globalExtensions(OWNER)) {
            if (!(l.record() instanceof HaLines.HaInterface i)) {
                continue;
            }
            for (HaLines.Standby g : i.groups()) {
                ExtensionLine first = names.putIfAbsent(g.name(), l);
                if (first != null) {
                    errors.error(l.source(), "standby " + g.group() + " name " + g.name()
                            + ": already used by a group at line " + first.source().line());
                }
                for (HaLines.TrackRef t : g.tracks()) {
                    if (!tracks.containsKey(t.object())) {
                        errors.error(t.source(), "standby " + g.group() + " track " + t.object() + ": no 'track "
                                + t.object() + " interface IFACE line-protocol' line defines object " + t.object());
                    }
                }
            }
        }
        for (VirtualServerConfig v : config.vservers().values()) {
            if (v.standbyGroup() != null && !names.containsKey(v.standbyGroup())) {
                errors.error(v.source(), "vserver " + v.name() + ": inservice standby " + v.standbyGroup()
                        + ": no 'standby G name " + v.standbyGroup() + "' under any interface"
                        + (names.isEmpty() ? "" : " (defined: " + String.join(", ", names.keySet()) + ")"));
            }
        }
    }

    /** The tracked objects of the {@code track} lines: object number to interface (a later line wins). */
    private static Map<Integer, String> tracks(MclbConfig config) {
        Map<Integer, String> out = new HashMap<>();
        for (HaLines.TrackLine t : config.records(HaLines.TrackLine.class)) {
            out.put(t.object(), t.iface());
        }
        return out;
    }

    /** {@code mclb ha port N}, else {@link GroupManager#DEFAULT_PORT}. */
    static int port(MclbConfig config) {
        List<HaLines.HaPort> ports = config.records(HaLines.HaPort.class);
        return ports.isEmpty() ? GroupManager.DEFAULT_PORT : ports.get(ports.size() - 1).port();
    }

    /** {@code mclb ha vip-control linux|noop}, else linux. */
    static HaLines.VipControl vipControl(MclbConfig config) {
        List<HaLines.VipControl> v = config.records(HaLines.VipControl.class);
        return v.isEmpty() ? HaLines.VipControl.LINUX : v.get(v.size() - 1);
    }

    /** The configured groups of a validated configuration, their tracked objects resolved. */
    public static List<GroupConfig> groups(MclbConfig config) {
        Map<Integer, String> tracks = tracks(config);
        List<GroupConfig> out = new ArrayList<>();
        for (HaLines.HaInterface i : config.records(HaLines.HaInterface.class)) {
            for (HaLines.Standby g : i.groups()) {
                out.add(group(i, g, tracks));
            }
        }
        return out;
    }

    private static GroupConfig group(HaLines.HaInterface i, HaLines.Standby g, Map<Integer, String> tracks) {
        List<GroupConfig.Track> resolved = new ArrayList<>(g.tracks().size());
        for (HaLines.TrackRef t : g.tracks()) {
            String iface = tracks.get(t.object());
            if (iface == null) {
                throw new IllegalStateException("standby " + g.group() + " track " + t.object()
                        + ": not validated (no track line)");
            }
            resolved.add(new GroupConfig.Track(t.object(), iface, t.decrement()));
        }
        byte[] key = g.key() == null ? null : g.key().getBytes(StandardCharsets.UTF_8);
        return new GroupConfig(i.name(), i.address(), i.prefix(), i.version(), g.group(), g.name(), g.vip(),
                g.priority(), g.preempt(), g.preemptDelayMs(), g.helloMs(), g.holdMs(), key, resolved, g.peers());
    }
}
