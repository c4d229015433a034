package io.mclb.probe;

import io.mclb.config.Args;
import io.mclb.config.BadLine;
import io.mclb.config.ConfigLine;
import io.mclb.config.ProbeConfig;
import io.mclb.farm.RealServer;
import io.mclb.service.ProbeFactory;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code ip slb probe NAME http} (reference section 6): {@code request [method get|head|post|name M]
 * [url PATH]} (GET /), {@code expect [status CODE] [regex RE]} (200; the regex must be found in the
 * body), {@code credentials USER [[0|7] PW]} (basic authentication; stored as type 7),
 * {@code header NAME VALUE} (several; {@code header Host X} replaces the Host header),
 * {@code port N} (80) and {@code address IP [routed]}. One HTTP/1.1 request per interval with a
 * Host header and {@code Connection: close}; a 401 may be the expected status (IOS's advice for
 * protected servers). Anything else is a failure naming what was wrong.
 */
public final class HttpProbe implements ProbeFactory {
    static final String TYPE = "http";
    static final int DEFAULT_PORT = 80;

    /**
     * @param regex    found in the body, or null
     * @param user     basic-authentication user, or null
     * @param password its password (may be empty)
     */
    record Settings(InetAddress address, int port, String method, String url, int status, String regex, String user,
                    String password, List<List<String>> headers) {
        Settings {
            headers = List.copyOf(headers);
        }

        @Override
        public String toString() { // never the password
            return "http " + method + " " + url + " expect " + status + (regex == null ? "" : " regex " + regex);
        }
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public BringUpClass bringUpClass() {
        return BringUpClass.TCP;
    }

    @Override
    public Parsed parse(ConfigLine header, List<ConfigLine> lines) throws BadLine {
        String label = ProbeLines.label(header);
        ProbeLines.endOfHeader(header, 4);
        InetAddress address = null;
        int port = 0;
        String method = "GET";
        String url = "/";
        int status = 200;
        String regex = null;
        String user = null;
        String password = "";
        List<List<String>> headers = new ArrayList<>();
        List<List<String>> stored = new ArrayList<>();
        for (ConfigLine c : lines) {
            try {
                List<String> t = c.tokens();
                List<String> keep = t;
                switch (c.word(0)) {
                    case "port" -> port = ProbeLines.port(c, label);
                    case "address" -> address = ProbeLines.address(c, label);
                    case "request" -> {
                        for (int i = 1; i < t.size(); i += 2) {
                            if (c.is(i, "method")) {
                                String m = Args.token(t, i + 1, label + " request method", "method, allowed get, head, post, name M");
                                if (m.equalsIgnoreCase("name")) {
                                    method = Args.token(t, i + 2, label + " request method name", "method name");
                                    if (!method.matches("[A-Za-z][A-Za-z0-9-]{0,31}")) {
                                        throw new BadLine(label + " request method name " + method + ": not a method token");
                                    }
                                    method = method.toUpperCase(Locale.ROOT);
                                    i++;
                                } else if (m.matches("(?i)get|head|post")) {
                                    method = m.toUpperCase(Locale.ROOT);
                                } else {
                                    throw new BadLine(label + " request method " + m + ": unknown method, allowed get, head, post, name M");
                                }
                            } else if (c.is(i, "url")) {
                                url = Args.token(t, i + 1, label + " request url", "path, e.g. /health");
                                if (!url.startsWith("/") || url.chars().anyMatch(ch -> ch <= ' ' || ch >= 0x7f)) {
                                    throw new BadLine(label + " request url " + url + ": not a path, allowed /PATH without spaces");
                                }
                            } else {
                                throw new BadLine(label + " request " + t.get(i) + ": unknown keyword, allowed method M, url PATH");
                            }
                        }
                    }
                    case "expect" -> {
                        int i = 1;
                        if (c.is(i, "status")) {
                            status = Args.integer(t, i + 1, label + " expect status", 100, 599);
                            i += 2;
                        }
                        if (c.is(i, "regex")) {
                            regex = String.join(" ", t.subList(i + 1, t.size()));
                            if (regex.isEmpty()) {
                                throw new BadLine(label + " expect regex: missing regular expression");
                            }
                            try {
                                Pattern.compile(regex);
                            } catch (PatternSyntaxException e) {
                                throw new BadLine(label + " expect regex " + regex + ": not a regular expression ("
                                        + e.getDescription() + ")");
                            }
                        } else if (i < t.size() || i == 1) {
                            throw new BadLine(label + " expect" + (i < t.size() ? " " + t.get(i) : "")
                                    + ": allowed 'expect [status CODE] [regex RE]'");
                        }
                    }
                    case "credentials" -> {
                        user = Args.token(t, 1, label + " credentials", "user name, expected 'credentials USER [PW]'");
                        password = t.size() > 2 ? Args.secret(t, 2, label + " credentials " + user) : "";
                        if (user.indexOf(':') >= 0) {
                            throw new BadLine(label + " credentials " + user + ": a basic-authentication user has no ':'");
                        }
                        keep = t.size() > 2 ? Args.withType7Secret(t, 2, password) : t;
                    }
                    case "header" -> {
                        String name = Args.token(t, 1, label + " header", "header name, expected 'header NAME VALUE'");
                        if (!name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                            throw new BadLine(label + " header " + name + ": not a header name");
                        }
                        Args.token(t, 2, label + " header " + name, "value");
                        headers.add(List.of(name, String.join(" ", t.subList(2, t.size()))));
                    }
                    default -> throw ProbeLines.unknown(label, TYPE, c, "request, expect, credentials, header, port N, "
                            + "address IP [routed]");
                }
                stored.add(keep);
            } catch (BadLine e) {
                throw e.at(c.source());
            }
        }
        return new Parsed(new Settings(address, port, method, url, status, regex, user, password, headers), stored);
    }

    @Override
    public ProbeCheck newCheck(ProbeConfig probe, RealServer real, ProbeContext ctx) {
        Settings s = probe.settings(Settings.class);
        int port = s.port() != 0 ? s.port() : DEFAULT_PORT;
        InetSocketAddress target = new InetSocketAddress(ProbeTargets.address(s.address(), real), port);
        return new HttpCheck(ctx, target, s, probe.timeoutSeconds() * 1000);
    }
}
