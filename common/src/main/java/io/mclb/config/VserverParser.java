package io.mclb.config;

import java.net.Inet4Address;
import io.mclb.service.ConfigSyntax;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code ip slb vserver NAME} block. mclb balances UDP only and needs a port: {@code tcp} and
 * {@code any} are refused with the reason; port 0 is IOS all-ports, for a service that declares
 * its ports ({@link ConfigSyntax#allPorts}). A {@code service} keyword must be one an
 * extension declares ({@link ConfigSyntax#services()}); protocol forms of {@code sticky},
 * {@code idle} and {@code client} are offered to the extensions.
 */
final class VserverParser {

    private final ParseContext ctx;
    private final String name;
    private final String object;
    private InetAddress address;
    private int port;
    private List<Integer> allPorts = List.of();
    private String service;
    private String farm;
    private String backup;
    private boolean backupSticky;
    private int idle = VirtualServerConfig.DEFAULT_IDLE_SECONDS;
    private int stickySeconds;
    private int stickyGroup;
    private Integer stickyPrefix;
    private String stickyMask;
    private Tokenizer.Line stickyLine;
    private final List<ClientRule> clients = new ArrayList<>();
    private boolean inService;
    private String standby;
    private final List<ExtensionLine> extensions = new ArrayList<>();

    private VserverParser(ParseContext ctx, String name) {
        this.ctx = ctx;
        this.name = name;
        this.object = "vserver " + name;
    }

    static VirtualServerConfig parse(ParseContext ctx, Tokenizer.Node n, String name) {
        VserverParser p = new VserverParser(ctx, name);
        for (Tokenizer.Node c : n.children()) {
            Tokenizer.Line l = c.line();
            try {
                if (!p.line(l)) {
                    ExtensionLine x = ctx.offer(ConfigBlock.VSERVER, l, c.descendants(), " in vserver " + name);
                    if (x != null) {
                        p.extensions.add(x);
                    }
                    continue;
                }
            } catch (BadLine e) {
                ctx.error(l, e.getMessage());
                ctx.markBroken(p.object, l.tokens().get(0).toLowerCase(Locale.ROOT));
            }
            ctx.noChildren(c);
        }
        return new VirtualServerConfig(name, p.address, p.port, p.allPorts, p.service, p.farm, p.backup, p.backupSticky, p.idle,
                p.sticky(), p.clients, p.inService, p.standby, p.extensions, ctx.at(n.line()));
    }

    private StickyConfig sticky() {
        if (stickyLine == null) {
            return null;
        }
        int host = address == null || address instanceof Inet4Address ? 32 : 128;
        if (stickyMask == null) {
            return new StickyConfig(stickySeconds, stickyGroup, host);
        }
        try {
            return new StickyConfig(stickySeconds, stickyGroup, Args.prefix(stickyMask, "netmask", host));
        } catch (BadLine e) {
            ctx.error(stickyLine, e.getMessage());
            ctx.markBroken(object, "sticky");
            return null;
        }
    }

    private boolean line(Tokenizer.Line l) throws BadLine {
        List<String> t = l.tokens();
        switch (t.get(0).toLowerCase(Locale.ROOT)) {
            case "virtual" -> virtual(l);
            case "serverfarm" -> serverfarm(l);
            case "sticky" -> {
                if (t.size() > 1 && !meantAsNumber(t.get(1))) {
                    return false; // a protocol form (sticky gtp imsi, sticky radius ...)
                }
                sticky(l);
            }
            case "idle" -> {
                if (t.size() > 1 && !meantAsNumber(t.get(1))) {
                    return false; // a protocol form (idle gtp request S, ...)
                }
                idle = Args.integer(t, 1, "idle", 1, 65535);
                Args.end(t, 1, "idle " + t.get(1));
            }
            case "client" -> {
                if (t.size() > 1 && Args.parseAddress(t.get(1)) == null) {
                    return false;
                }
                clients.add(client(t, 1));
            }
            case "inservice" -> inservice(t);
            case "no" -> {
                return reset(l);
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    /** A token that starts with a digit is a value of the core line ({@code idle 30s} is a bad number, not a new form). */
    private static boolean meantAsNumber(String s) {
        return !s.isEmpty() && Character.isDigit(s.charAt(0));
    }

    private void virtual(Tokenizer.Line l) throws BadLine {
        ctx.mark(object, "virtual", l);
        List<String> t = l.tokens();
        InetAddress a = Args.address(t, 1, "virtual");
        int i = 2;
        if (l.is(i, "tcp")) {
            throw new BadLine("virtual " + t.get(1) + " tcp: mclb balances UDP only, allowed udp");
        }
        if (l.is(i, "udp")) {
            i++;
        } else if (i < t.size() && Args.parseAddress(t.get(i)) != null) {
            throw new BadLine("virtual " + t.get(1) + " " + t.get(i)
                    + ": network virtual servers are not supported, give one address and a port");
        }
        if (l.is(i, "any")) {
            throw new BadLine("virtual " + t.get(1) + " port any: give a port 1..65535 (all ports is written"
                    + " 'udp 0' and needs a service that has that form)");
        }
        int p = i < t.size() && t.get(i).matches("0+") ? 0
                : Args.integer(t, i, "virtual " + t.get(1) + " port", 1, 65535);
        String svc = null;
        if (t.size() > i + 1) {
            if (!l.is(i + 1, "service")) {
                throw new BadLine("virtual " + t.get(1) + ": unexpected '" + t.get(i + 1) + "', allowed service SVC");
            }
            if (t.size() < i + 3) {
                throw new BadLine("virtual " + t.get(1) + " service: missing service name" + servicesAllowed());
            }
            svc = service(t.get(i + 2));
            Args.end(t, i + 2, "virtual " + t.get(1) + " service " + t.get(i + 2));
        }
        List<Integer> ports = p == 0 ? allPorts(t.get(1), svc) : List.of();
        address = a;
        port = p;
        allPorts = ports;
        service = svc;
    }

    /** IOS all-ports ({@code udp 0}) exists for services that listen on several well-known ports (GTP). */
    private List<Integer> allPorts(String vip, String svc) throws BadLine {
        List<String> forms = new ArrayList<>();
        for (ConfigSyntax x : ctx.extensions) {
            for (String s : x.services()) {
                if (!x.allPorts(s).isEmpty()) {
                    if (s.equals(svc)) {
                        return x.allPorts(s);
                    }
                    forms.add(s);
                }
            }
        }
        String allowed = forms.isEmpty() ? "this build has no all-ports service"
                : "all ports is for 'service " + String.join("|", forms) + "' only";
        throw new BadLine("virtual " + vip + " udp 0" + (svc == null ? "" : " service " + svc) + ": " + allowed
                + "; give a port 1..65535");
    }

    private String service(String s) throws BadLine {
        for (ConfigSyntax x : ctx.extensions) {
            for (String svc : x.services()) {
                if (svc.equalsIgnoreCase(s)) {
                    return svc;
                }
            }
        }
        throw new BadLine("service " + s + ": unknown service" + servicesAllowed());
    }

    private String servicesAllowed() {
        List<String> all = new ArrayList<>();
        ctx.extensions.forEach(x -> all.addAll(x.services()));
        return all.isEmpty() ? ", no services in this build (no service keyword means plain UDP)"
                : ", allowed " + String.join(", ", all) + " (no service keyword means plain UDP)";
    }

    private void serverfarm(Tokenizer.Line l) throws BadLine {
        ctx.mark(object, "serverfarm", l);
        List<String> t = l.tokens();
        if (t.size() < 2) {
            throw new BadLine("serverfarm: missing server farm name");
        }
        String b = null;
        boolean bs = false;
        if (t.size() > 2) {
            if (l.is(2, "backup") && t.size() == 3) {
                throw new BadLine("serverfarm " + t.get(1) + " backup: missing backup server farm name");
            }
            if (!l.is(2, "backup")) {
                throw new BadLine("serverfarm " + t.get(1) + ": unexpected '" + String.join(" ", t.subList(2, t.size()))
                        + "', allowed backup NAME [sticky]");
            }
            b = t.get(3);
            if (t.size() > 4) {
                if (!l.is(4, "sticky")) {
                    throw new BadLine("serverfarm " + t.get(1) + " backup " + b + ": unexpected '" + t.get(4)
                            + "', allowed sticky");
                }
                Args.end(t, 4, "serverfarm " + t.get(1) + " backup " + b + " sticky");
                bs = true;
            }
        }
        farm = t.get(1);
        backup = b;
        backupSticky = bs;
    }

    private void sticky(Tokenizer.Line l) throws BadLine {
        ctx.mark(object, "sticky", l);
        List<String> t = l.tokens();
        int seconds = Args.integer(t, 1, "sticky", 1, 65535);
        int group = 0;
        String mask = null;
        for (int i = 2; i < t.size(); i += 2) {
            if (l.is(i, "group")) {
                group = Args.integer(t, i + 1, "sticky " + seconds + " group", 0, 32767);
            } else if (l.is(i, "netmask")) {
                if (i + 1 >= t.size()) {
                    throw new BadLine("sticky " + seconds + " netmask: missing mask, allowed a dotted IPv4 mask or /prefix");
                }
                mask = t.get(i + 1);
                Args.prefix(mask, "netmask", 128);
            } else {
                throw new BadLine("sticky " + seconds + ": unexpected '" + t.get(i) + "', allowed group N, netmask MASK");
            }
        }
        stickySeconds = seconds;
        stickyGroup = group;
        stickyMask = mask;
        stickyLine = l;
    }

    private ClientRule client(List<String> t, int i) throws BadLine {
        InetAddress a = Args.address(t, i, "client");
        if (i + 1 >= t.size()) {
            throw new BadLine("client " + t.get(i) + ": missing mask, allowed a dotted IPv4 mask or /prefix");
        }
        int prefix = Args.prefix(t.get(i + 1), "client " + t.get(i) + " mask", a instanceof Inet4Address ? 32 : 128);
        boolean exclude = false;
        if (t.size() > i + 2) {
            if (!t.get(i + 2).equalsIgnoreCase("exclude")) {
                throw new BadLine("client " + t.get(i) + " " + t.get(i + 1) + ": unexpected '" + t.get(i + 2)
                        + "', allowed exclude");
            }
            Args.end(t, i + 2, "client " + t.get(i) + " " + t.get(i + 1) + " exclude");
            exclude = true;
        }
        return new ClientRule(a, prefix, exclude);
    }

    private void inservice(List<String> t) throws BadLine {
        String group = null;
        if (t.size() > 1) {
            if (!t.get(1).equalsIgnoreCase("standby") || t.size() < 3) {
                throw new BadLine("inservice " + t.get(1) + ": allowed 'inservice' or 'inservice standby NAME'");
            }
            Args.end(t, 2, "inservice standby " + t.get(2));
            group = t.get(2);
        }
        inService = true;
        standby = group;
    }

    private boolean reset(Tokenizer.Line l) throws BadLine {
        List<String> t = l.tokens();
        if (l.is(1, "inservice")) {
            inService = false;
            standby = null;
        } else if (l.is(1, "sticky") && (t.size() == 2 || meantAsNumber(t.get(2)))) {
            stickyLine = null;
        } else if (l.is(1, "idle") && (t.size() == 2 || meantAsNumber(t.get(2)))) {
            idle = VirtualServerConfig.DEFAULT_IDLE_SECONDS;
        } else if (l.is(1, "client") && t.size() > 2 && Args.parseAddress(t.get(2)) != null) {
            ClientRule r = client(t, 2);
            clients.removeIf(r::equals);
        } else {
            return false;
        }
        return true;
    }
}
