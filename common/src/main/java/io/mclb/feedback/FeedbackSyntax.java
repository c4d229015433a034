package io.mclb.feedback;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.CiscoType7;
import io.mclb.config.ConfigBlock;
import io.mclb.config.ConfigLine;
import io.mclb.config.ExtensionLine;
import io.mclb.config.MclbConfig;
import io.mclb.config.ServerFarmConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.feedback.FeedbackLines.Capp;
import io.mclb.feedback.FeedbackLines.CappPeer;
import io.mclb.feedback.FeedbackLines.AgentLine;
import io.mclb.feedback.FeedbackLines.ManagerConfig;
import io.mclb.feedback.FeedbackLines.LineError;
import io.mclb.feedback.FeedbackLines.LocalAgentConfig;
import io.mclb.service.ConfigSyntax;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The load-feedback lines (owner {@code feedback}, an engine built-in), read once into
 * {@link FeedbackLines} records:
 * <ul>
 * <li>{@code ip slb dfp [password [0|7] PW [TIMEOUT]]} with {@code agent IP PORT [TIMEOUT [RETRY-COUNT
 *     [RETRY-INTERVAL]]]} lines (mclb as DFP manager);</li>
 * <li>{@code ip dfp agent NAME} with {@code port N}, {@code password [0|7] PW [TIMEOUT]},
 *     {@code interval S}, {@code inservice} (mclb as DFP agent);</li>
 * <li>{@code ip slb capp udp} with {@code peer [IP] port N} and {@code peer [IP] secret [0|7] SECRET};</li>
 * <li>in a server farm {@code bindid [ID]} and {@code farm-weight N}; in a virtual server
 *     {@code kal-ap domain TAG} (each with a {@code no} form).</li>
 * </ul>
 * Passwords and secrets are stored as {@code 7 <obfuscated>}, so {@code show running-config} never
 * prints them. A refused sub-line of a stanza is reported at its own line (see
 * {@link FeedbackLines.LineError}).
 */
public final class FeedbackSyntax implements ConfigSyntax {
    public static final String OWNER = "feedback";
    /** Bind IDs (IOS range 0-65533; 65534 and 65535 are not usable, U). */
    static final int MAX_BIND_ID = 65533;
    /** A KAL-AP tag: it is a URL path segment of {@code GET /api/v1/kal-ap/TAG}; 76 is ACE's limit. */
    private static final String TAG_PATTERN = "[A-Za-z0-9._-]{1,76}";
    private static final String AGENT_USAGE = "allowed 'agent IP PORT [TIMEOUT [RETRY-COUNT [RETRY-INTERVAL]]]'";
    private static final String LOCAL_USAGE = "allowed 'port N', 'password [0|7] PW [TIMEOUT]', 'interval S', "
            + "'inservice', 'no inservice'";
    private static final String PEER_USAGE = "allowed 'peer [IP] port N' or 'peer [IP] secret [0|7] SECRET'";

    @Override
    public String owner() {
        return OWNER;
    }

    @Override
    public List<String> keywords(ConfigBlock block) {
        return switch (block) {
            case SERVERFARM -> List.of("bindid", "farm-weight");
            case VSERVER -> List.of("kal-ap");
            default -> List.of();
        };
    }

    @Override
    public Claim claimLine(ConfigBlock block, ConfigLine line) throws BadLine {
        List<String> t = line.tokens();
        boolean no = line.is(0, "no");
        int k = no ? 1 : 0;
        if (block == ConfigBlock.SERVERFARM && line.is(k, "bindid")) {
            if (no) {
                Args.end(t, k + (t.size() > k + 1 ? 1 : 0), "no bindid");
                return Claim.of(new FeedbackLines.BindId(0));
            }
            int id = t.size() > 1 ? Args.integer(t, 1, "bindid", 0, MAX_BIND_ID) : 0;
            Args.end(t, 1, "bindid");
            return Claim.of(new FeedbackLines.BindId(id));
        }
        if (block == ConfigBlock.SERVERFARM && line.is(k, "farm-weight")) {
            if (no) {
                Args.end(t, k + (t.size() > k + 1 ? 1 : 0), "no farm-weight");
                return Claim.of(new FeedbackLines.FarmWeight(0));
            }
            int w = Args.integer(t, 1, "farm-weight", 1, 65535);
            Args.end(t, 1, "farm-weight " + w);
            return Claim.of(new FeedbackLines.FarmWeight(w));
        }
        if (block == ConfigBlock.VSERVER && line.is(k, "kal-ap")) {
            if (!line.is(k + 1, "domain")) {
                throw new BadLine(line.text() + ": allowed 'kal-ap domain TAG'");
            }
            if (no) {
                Args.end(t, k + (t.size() > k + 2 ? 2 : 1), "no kal-ap domain");
                return Claim.of(new FeedbackLines.KalApDomain(null));
            }
            String tag = Args.token(t, 2, "kal-ap domain", "TAG");
            if (!tag.matches(TAG_PATTERN)) {
                throw new BadLine("kal-ap domain " + tag + ": not a tag, allowed 1-76 letters, digits, '.', '-', '_'");
            }
            Args.end(t, 2, "kal-ap domain " + tag);
            return Claim.of(new FeedbackLines.KalApDomain(tag));
        }
        return Claim.notMine();
    }

    @Override
    public Claim claimStanza(ConfigLine header, List<ConfigLine> children) throws BadLine {
        if (header.is(0, "ip") && header.is(1, "slb") && header.is(2, "dfp")) {
            return manager(header, children);
        }
        if (header.is(0, "ip") && header.is(1, "dfp") && header.is(2, "agent")) {
            return localAgent(header, children);
        }
        if (header.is(0, "ip") && header.is(1, "slb") && header.is(2, "capp")) {
            return capp(header, children);
        }
        return Claim.notMine();
    }

    /** {@code ip slb dfp [password [0|7] PW [TIMEOUT]]} and its agents. */
    private static Claim manager(ConfigLine header, List<ConfigLine> children) throws BadLine {
        List<String> t = header.tokens();
        PasswordArg pw = PasswordArg.NONE;
        if (t.size() > 3) {
            if (!header.is(3, "password")) {
                throw new BadLine("ip slb dfp: unexpected '" + t.get(3) + "', allowed 'ip slb dfp [password [0|7] PW [TIMEOUT]]'");
            }
            pw = PasswordArg.read(t, 4, "ip slb dfp password");
        }
        List<AgentLine> agents = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        SubLines sub = SubLines.read(children, c -> {
            AgentLine a = agent(c);
            if (!seen.add(a.key())) {
                throw new BadLine("agent " + a.key() + ": duplicate agent");
            }
            agents.add(a);
            return c.tokens();
        });
        ManagerConfig m = new ManagerConfig(pw.clear(), pw.timeoutSeconds(), agents, sub.errors, header.source());
        return Claim.stanza(m, pw.stored(t, 4), null);
    }

    private static AgentLine agent(ConfigLine c) throws BadLine {
        List<String> t = c.tokens();
        if (!c.is(0, "agent")) {
            throw new BadLine("ip slb dfp: unknown line '" + c.text() + "', " + AGENT_USAGE);
        }
        InetAddress ip = Args.address(t, 1, "agent");
        String label = "agent " + t.get(1);
        int port = Args.integer(t, 2, label + " port", 1, 65535);
        int timeout = t.size() > 3 ? Args.integer(t, 3, label + " timeout", 0, 65535)
                : FeedbackLines.DEFAULT_AGENT_TIMEOUT_SECONDS;
        int retries = t.size() > 4 ? Args.integer(t, 4, label + " retry-count", 0, 65535)
                : FeedbackLines.DEFAULT_RETRY_COUNT;
        int interval = t.size() > 5 ? Args.integer(t, 5, label + " retry-interval", 1, 65535)
                : FeedbackLines.DEFAULT_RETRY_INTERVAL_SECONDS;
        Args.end(t, 5, label);
        if (timeout > 0 && timeout < 3) {
            // the IOS DFP agent subsystem needs at least 3 s between hellos (dfp-kalap.md section 5)
            throw new BadLine(label + " timeout " + timeout + ": agents report at most every 3 s, allowed 0 or 3..65535");
        }
        return new AgentLine(ip, port, timeout, retries, interval, c.source());
    }

    /** {@code ip dfp agent NAME} and its sub-lines. */
    private static Claim localAgent(ConfigLine header, List<ConfigLine> children) throws BadLine {
        List<String> h = header.tokens();
        String name = Args.token(h, 3, "ip dfp agent", "NAME");
        Args.end(h, 3, "ip dfp agent " + name);
        LocalAgentLines a = new LocalAgentLines(name);
        SubLines sub = SubLines.read(children, a::line);
        if (a.inService && a.port == 0 && sub.errors.isEmpty()) {
            throw new BadLine("ip dfp agent " + name + ": inservice needs 'port N' (the TCP port managers connect to)");
        }
        LocalAgentConfig c = new LocalAgentConfig(name, a.port, a.pw.clear(), a.pw.timeoutSeconds(), a.interval,
                a.inService, sub.errors, header.source());
        return Claim.stanza(c, null, sub.stored);
    }

    /** The settings of an {@code ip dfp agent} stanza as its sub-lines are read. */
    private static final class LocalAgentLines {
        final String name;
        int port;
        PasswordArg pw = PasswordArg.NONE;
        int interval = FeedbackLines.DEFAULT_REPORT_INTERVAL_SECONDS;
        boolean inService;

        LocalAgentLines(String name) {
            this.name = name;
        }

        List<String> line(ConfigLine c) throws BadLine {
            List<String> t = c.tokens();
            switch (c.word(0)) {
                case "port" -> {
                    port = Args.integer(t, 1, "port", 1, 65535);
                    Args.end(t, 1, "port");
                }
                case "password" -> {
                    pw = PasswordArg.read(t, 1, "ip dfp agent " + name + " password");
                    return pw.stored(t, 1);
                }
                case "interval" -> {
                    interval = Args.integer(t, 1, "interval", 1, 65535);
                    Args.end(t, 1, "interval");
                }
                case "inservice" -> {
                    Args.end(t, 0, "inservice");
                    inService = true;
                }
                case "no" -> {
                    if (!c.is(1, "inservice") || t.size() != 2) {
                        throw new BadLine("ip dfp agent " + name + ": unknown line '" + c.text() + "', " + LOCAL_USAGE);
                    }
                    inService = false;
                }
                default -> throw new BadLine("ip dfp agent " + name + ": unknown line '" + c.text() + "', " + LOCAL_USAGE);
            }
            return t;
        }
    }

    /** {@code ip slb capp udp} and its {@code peer} lines. */
    private static Claim capp(ConfigLine header, List<ConfigLine> children) throws BadLine {
        if (!header.is(3, "udp") || header.size() != 4) {
            throw new BadLine("'" + header.text() + "': allowed 'ip slb capp udp'");
        }
        List<CappPeer> peers = new ArrayList<>();
        SubLines sub = SubLines.read(children, c -> {
            List<String> t = c.tokens();
            if (!c.is(0, "peer")) {
                throw new BadLine("ip slb capp udp: unknown line '" + c.text() + "', " + PEER_USAGE);
            }
            int i = 1;
            InetAddress ip = null;
            if (!c.is(1, "port") && !c.is(1, "secret")) {
                ip = Args.address(t, 1, "peer");
                i = 2;
            }
            if (c.is(i, "port")) {
                int port = Args.integer(t, i + 1, "peer port", 1, 65535);
                Args.end(t, i + 1, "peer port " + port);
                peers.add(new CappPeer(ip, port, null, c.source()));
                return t;
            }
            if (c.is(i, "secret")) {
                String secret = Args.secret(t, i + 1, "peer secret");
                peers.add(new CappPeer(ip, 0, secret, c.source()));
                return Args.withType7Secret(t, i + 1, secret);
            }
            throw new BadLine("peer" + (i < t.size() ? " " + String.join(" ", t.subList(1, t.size())) : "")
                    + ": " + PEER_USAGE);
        });
        return Claim.stanza(new Capp(peers, sub.errors, header.source()), null, sub.stored);
    }

    /**
     * A stanza's sub-lines read one by one: a refused one becomes a {@link LineError} at its own
     * line (so the error names it) and is stored with its secrets masked.
     */
    private static final class SubLines {
        /** Reads one sub-line; returns the tokens to store (its secret obfuscated). */
        interface Reader {
            List<String> line(ConfigLine c) throws BadLine;
        }

        final List<LineError> errors = new ArrayList<>();
        final List<List<String>> stored = new ArrayList<>();

        static SubLines read(List<ConfigLine> children, Reader reader) {
            SubLines out = new SubLines();
            for (ConfigLine c : children) {
                try {
                    out.stored.add(reader.line(c));
                } catch (BadLine e) {
                    out.errors.add(new LineError(c.source(), e.getMessage()));
                    out.stored.add(redacted(c.tokens()));
                }
            }
            return out;
        }
    }

    /** A refused line is stored with its secret masked: the configuration never runs, but errors echo lines. */
    private static List<String> redacted(List<String> t) {
        List<String> out = new ArrayList<>(t);
        for (int i = 0; i < out.size() - 1; i++) {
            if (out.get(i).equalsIgnoreCase("password") || out.get(i).equalsIgnoreCase("secret")) {
                for (int j = i + 1; j < out.size(); j++) {
                    out.set(j, "***");
                }
            }
        }
        return out;
    }

    @Override
    public void validate(MclbConfig config, ErrorSink errors) {
        List<ExtensionLine> global = config.globalExtensions(OWNER);
        ExtensionLine firstManager = null;
        ExtensionLine firstCapp = null;
        Map<String, ExtensionLine> agentNames = new HashMap<>();
        Map<Integer, String> agentPorts = new HashMap<>();
        for (ExtensionLine x : global) {
            if (x.record() instanceof ManagerConfig m) {
                m.childErrors().forEach(e -> errors.error(e.at(), e.message()));
                if (firstManager != null) {
                    errors.error(x.source(), "ip slb dfp: given twice, first at line " + firstManager.source().line()
                            + " (one DFP manager; list every agent under it)");
                }
                firstManager = firstManager == null ? x : firstManager;
            } else if (x.record() instanceof LocalAgentConfig a) {
                a.childErrors().forEach(e -> errors.error(e.at(), e.message()));
                ExtensionLine first = agentNames.putIfAbsent(a.name(), x);
                if (first != null) {
                    errors.error(x.source(), "ip dfp agent " + a.name() + ": duplicate name, first defined at line "
                            + first.source().line());
                }
                String other = a.port() == 0 ? null : agentPorts.putIfAbsent(a.port(), a.name());
                if (other != null && first == null) {
                    errors.error(x.source(), "ip dfp agent " + a.name() + ": port " + a.port()
                            + " is already used by ip dfp agent " + other);
                }
            } else if (x.record() instanceof Capp c) {
                c.childErrors().forEach(e -> errors.error(e.at(), e.message()));
                if (firstCapp != null) {
                    errors.error(x.source(), "ip slb capp udp: given twice, first at line " + firstCapp.source().line());
                } else {
                    errors.warning(x.source(), "ip slb capp udp: accepted, but mclb does not answer KAL-AP queries over"
                            + " UDP (the GSS wire format is not public); a GSLB reads the same load from"
                            + " GET /api/v1/kal-ap/TAG");
                }
                firstCapp = firstCapp == null ? x : firstCapp;
            }
        }
        boolean dfp = firstManager != null;
        for (ServerFarmConfig f : config.farms().values()) {
            FeedbackLines.FarmWeight fw = last(f.records(FeedbackLines.FarmWeight.class));
            if (fw != null && fw.weight() > 0 && !dfp) {
                errors.warning(f.source(), "serverfarm " + f.name() + ": farm-weight " + fw.weight()
                        + " takes effect only with 'ip slb dfp' (absolute KAL-AP load); the relative load is reported");
            }
        }
        for (VirtualServerConfig v : config.vservers().values()) {
            ServerFarmConfig f = config.farms().get(v.farm());
            int bind = f == null ? 0 : bindId(f);
            String svc = v.service();
            // the Home Agent Director's module refuses a bind ID itself, at the bindid line
            if (bind != 0 && svc != null && svc.startsWith("gtp")) {
                errors.error(v.source(), "vserver " + v.name() + ": serverfarm " + f.name() + " has bindid " + bind
                        + ", which GPRS load balancing does not support (IOS); remove it");
            }
        }
    }

    /** The farm's bind ID ({@code bindid}; a farm without one is bind ID 0). */
    public static int bindId(ServerFarmConfig f) {
        FeedbackLines.BindId b = last(f.records(FeedbackLines.BindId.class));
        return b == null ? 0 : b.id();
    }

    /** The farm's {@code farm-weight}, 0 when none. */
    public static int farmWeight(ServerFarmConfig f) {
        FeedbackLines.FarmWeight w = last(f.records(FeedbackLines.FarmWeight.class));
        return w == null ? 0 : w.weight();
    }

    /** The virtual server's {@code kal-ap domain} tag, or null. */
    public static String kalApTag(VirtualServerConfig v) {
        FeedbackLines.KalApDomain d = last(v.records(FeedbackLines.KalApDomain.class));
        return d == null ? null : d.tag();
    }

    /** The {@code ip slb dfp} stanza, or null when mclb is no DFP manager. */
    public static ManagerConfig manager(MclbConfig config) {
        List<ManagerConfig> m = config.records(ManagerConfig.class);
        return m.isEmpty() ? null : m.get(0);
    }

    /** The {@code ip dfp agent} stanzas, in file order. */
    public static List<LocalAgentConfig> localAgents(MclbConfig config) {
        return config.records(LocalAgentConfig.class);
    }

    private static <T> T last(List<T> l) {
        return l.isEmpty() ? null : l.get(l.size() - 1);
    }
}
