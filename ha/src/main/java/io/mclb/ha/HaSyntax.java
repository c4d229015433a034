package io.mclb.ha;

import io.mclb.config.BadLine;
import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigLine;
import io.mclb.service.ConfigSyntax;
import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.ha.group.GroupConfig;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The HA configuration lines (owner {@code ha}): {@code interface NAME} stanzas with their
 * {@code standby} lines and global {@code track N interface IFACE line-protocol} lines (grammar in
 * {@link HaConfigReader}). Validation: every {@code inservice standby NAME} names a configured
 * {@code standby G name NAME}; group names are unique; every {@code standby G track N} has its
 * {@code track N} line.
 */
public final class HaSyntax implements ConfigSyntax {
    public static final String OWNER = "ha";

    @Override
    public String owner() {
        return OWNER;
    }

    @Override
    public Claim claimLine(ConfigBlock block, ConfigLine line) throws BadLine {
        List<String> tokens = line.tokens();
        if (block != ConfigBlock.GLOBAL || tokens.isEmpty()) {
            return Claim.notMine();
        }
        if (tokens.size() >= 2 && tokens.get(0).equalsIgnoreCase("mclb") && tokens.get(1).equalsIgnoreCase("ha")) {
            return mclbHa(tokens, line);
        }
        if (!tokens.get(0).equalsIgnoreCase("track")) {
            return Claim.notMine();
        }
        try {
            HaConfigReader.trackLine(tokens);
            return Claim.of(line);
        } catch (IllegalArgumentException e) {
            throw new BadLine(e.getMessage());
        }
    }

    @Override
    public Claim claimStanza(ConfigLine headerLine, List<ConfigLine> childLines) throws BadLine {
        List<String> header = headerLine.tokens();
        List<List<String>> children = childLines.stream().map(ConfigLine::tokens).toList();
        if (header.isEmpty() || !header.get(0).equalsIgnoreCase("interface")) {
            return Claim.notMine();
        }
        try {
            HaConfigReader.stanza(header, children, null);
            return Claim.of(headerLine);
        } catch (IllegalArgumentException e) {
            throw new BadLine(e.getMessage());
        }
    }

    @Override
    public void validate(MclbConfig config, ErrorSink errors) {
        List<ExtensionLine> lines = config.globalExtensions(OWNER);
        Map<Integer, String> tracks;
        try {
            tracks = HaConfigReader.tracks(lines);
        } catch (IllegalArgumentException e) {
            return; // already reported while parsing
        }
        Map<String, ExtensionLine> names = new HashMap<>();
        for (ExtensionLine l : lines) {
            if (!l.tokens().get(0).equalsIgnoreCase("interface")) {
                continue;
            }
            try {
                for (GroupConfig g : HaConfigReader.stanza(l.tokens(), l.children(), tracks)) {
                    ExtensionLine first = names.putIfAbsent(g.name(), l);
                    if (first != null) {
                        errors.error(l.source(), "standby " + g.group() + " name " + g.name()
                                + ": already used by a group at line " + first.source().line());
                    }
                }
            } catch (IllegalArgumentException e) {
                errors.error(l.source(), e.getMessage());
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

    private static Claim mclbHa(List<String> t, ConfigLine headerLine) throws BadLine {
        String line = String.join(" ", t);
        if (t.size() == 4 && t.get(2).equalsIgnoreCase("port")) {
            try {
                HaConfigReader.number(t.get(3), line, 1, 65535);
                return Claim.of(headerLine);
            } catch (IllegalArgumentException e) {
                throw new BadLine(e.getMessage());
            }
        }
        if (t.size() == 4 && t.get(2).equalsIgnoreCase("vip-control")
                && (t.get(3).equals("linux") || t.get(3).equals("noop"))) {
            return Claim.of(headerLine);
        }
        throw new BadLine("'" + line + "': allowed 'mclb ha port N' or 'mclb ha vip-control linux|noop'");
    }

    /** The value of {@code mclb ha KEY VALUE}, or null. */
    static String setting(MclbConfig config, String key) {
        String v = null;
        for (ExtensionLine l : config.globalExtensions(OWNER)) {
            List<String> t = l.tokens();
            if (t.size() == 4 && t.get(0).equalsIgnoreCase("mclb") && t.get(2).equalsIgnoreCase(key)) {
                v = t.get(3);
            }
        }
        return v;
    }

    /** The configured groups of a validated configuration. */
    public static List<GroupConfig> groups(MclbConfig config) {
        List<ExtensionLine> lines = config.globalExtensions(OWNER);
        return HaConfigReader.groups(lines, HaConfigReader.tracks(lines));
    }
}
