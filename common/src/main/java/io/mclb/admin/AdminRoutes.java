package io.mclb.admin;

import io.mclb.config.AdminLine;
import io.mclb.runtime.MclbRuntime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The admin plane's answers, transport aside: which path takes which method (405 with
 * {@code Allow} otherwise, 404 for an unknown path), who may change things (over TCP a
 * state-changing call needs the {@code mclb admin token}: 401 without or with a wrong one, 403
 * while none is configured; the local socket needs none), and the views, actions, health and
 * readiness themselves. Thread-safe: views and actions are registered in concurrent maps and the
 * token is read from the running configuration on each call, so a reload rotates it.
 */
final class AdminRoutes {
    private static final Logger LOG = LoggerFactory.getLogger(AdminRoutes.class);
    static final String API = "/api/v1/";
    private static final List<String> BUILT_IN_VIEWS = List.of("reals", "vservers", "serverfarms", "sticky", "conns",
            "stats", "probe", "running-config");
    private static final String READ_METHODS = "GET, HEAD";

    private final Supplier<MclbRuntime> runtime;
    private final AdminServer.Reloader reloader;
    private final Supplier<String> runningConfig;
    private final AdminRefusals refusals;
    final Map<String, AdminServer.View> views = new ConcurrentHashMap<>();
    final Map<String, AdminServer.Action> actions = new ConcurrentHashMap<>();
    final List<AdminServer.Readiness> readiness = new CopyOnWriteArrayList<>();
    private volatile boolean stopping;

    AdminRoutes(Supplier<MclbRuntime> runtime, AdminServer.Reloader reloader, Supplier<String> runningConfig,
                AdminRefusals refusals) {
        this.runtime = runtime;
        this.reloader = reloader;
        this.runningConfig = runningConfig;
        this.refusals = refusals;
    }

    void stopping() {
        stopping = true;
    }

    /** Whether the answer is cheap enough for the I/O thread (no view computed, no action run). */
    static boolean immediate(AdminRequest r) {
        return r.path().equals("/healthz") || r.path().equals("/readyz");
    }

    AdminResponse handle(AdminRequest r) {
        String path = r.path();
        boolean read = r.method().equals("GET") || r.method().equals("HEAD");
        if (path.equals("/metrics") || path.equals("/healthz") || path.equals("/readyz")) {
            if (!read) {
                return notAllowed(READ_METHODS, r);
            }
            return switch (path) {
                case "/metrics" -> metrics(r);
                case "/healthz" -> AdminResponse.text(200, "ok\n");
                default -> ready();
            };
        }
        if (!path.startsWith(API) || path.length() == API.length()) {
            return AdminResponse.text(404, "no such path " + path + "; known: /metrics, /healthz, /readyz, "
                    + API + "<view>\n");
        }
        String what = path.substring(API.length());
        if (what.equals("reload") || actions.containsKey(what)) {
            if (!r.method().equals("POST")) {
                return notAllowed("POST", r);
            }
            AdminResponse refused = authorize(r);
            return refused != null ? refused : act(what, query(r.rawQuery()));
        }
        if (!read) {
            if (!isView(what)) {
                return AdminResponse.text(404, "unknown action " + what + "\n");
            }
            return notAllowed(READ_METHODS, r);
        }
        return view(what, query(r.rawQuery()));
    }

    private boolean isView(String what) {
        int slash = what.indexOf('/');
        return BUILT_IN_VIEWS.contains(what) || views.containsKey(what)
                || (slash > 0 && views.containsKey(what.substring(0, slash)));
    }

    private static AdminResponse notAllowed(String allow, AdminRequest r) {
        return AdminResponse.text(405, r.method() + " " + r.path() + ": method not allowed; allowed " + allow + "\n")
                .withHeader("Allow", allow);
    }

    /** Null when {@code r} may change things; else the refusal. */
    private AdminResponse authorize(AdminRequest r) {
        if (r.local()) {
            return null;
        }
        String what = r.method() + " " + r.path();
        AdminLine.Token token = runtime.get().config().records(AdminLine.Token.class).stream().findFirst()
                .orElse(null);
        if (token == null) {
            refusals.refuse(AdminRefusals.Reason.TOKEN_NOT_CONFIGURED, r.source(), what);
            return AdminResponse.text(403, what + ": refused; state-changing calls over TCP need a token"
                    + " ('mclb admin token FILE' in the configuration) and none is configured; on this host"
                    + " mclb reload|failover use the local socket (DATA_DIR/admin.sock)\n");
        }
        String auth = r.authorization();
        if (auth == null || !auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            refusals.refuse(AdminRefusals.Reason.TOKEN_MISSING, r.source(), what);
            return unauthorized(what + ": refused; send 'Authorization: Bearer TOKEN' (mclb --token-file FILE)\n");
        }
        byte[] given = auth.substring(7).strip().getBytes(StandardCharsets.UTF_8);
        // digests first: equal lengths, so the comparison time says nothing about the token's length
        if (!MessageDigest.isEqual(sha256(given), sha256(token.secret()))) {
            refusals.refuse(AdminRefusals.Reason.TOKEN_WRONG, r.source(), what);
            return unauthorized(what + ": refused; the bearer token is not this node's 'mclb admin token'\n");
        }
        return null;
    }

    private static AdminResponse unauthorized(String body) {
        return AdminResponse.text(401, body).withHeader("WWW-Authenticate", "Bearer realm=\"mclb\"");
    }

    private static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private AdminResponse ready() {
        if (stopping) {
            return AdminResponse.text(503, "not ready: shutting down\n");
        }
        if (runtime.get() == null) {
            return AdminResponse.text(503, "not ready: no configuration loaded\n");
        }
        for (AdminServer.Readiness check : readiness) {
            String why = check.notReady();
            if (why != null) {
                return AdminResponse.text(503, "not ready: " + why + "\n");
            }
        }
        return AdminResponse.text(200, "ready\n");
    }

    private AdminResponse metrics(AdminRequest r) {
        boolean om = r.accept() != null && r.accept().contains("application/openmetrics-text");
        String type = om ? AdminServer.OPENMETRICS : AdminServer.PROMETHEUS_TEXT;
        return AdminResponse.of(200, type, runtime.get().registry().scrape(type));
    }

    private AdminResponse act(String what, Map<String, String> q) {
        if (what.equals("reload")) {
            AdminServer.ReloadResult r = reloader.reload();
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("ok", r.ok());
            body.put("errors", r.errors());
            body.put("notes", r.notes());
            return AdminResponse.json(r.ok() ? 200 : 400, Json.write(body));
        }
        AdminServer.ActionResult r = actions.get(what).run(q);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("ok", r.ok());
        body.put("message", r.message());
        return AdminResponse.json(r.ok() ? 200 : 409, Json.write(body));
    }

    private AdminResponse view(String what, Map<String, String> q) {
        boolean text = "text".equals(q.get("format"));
        if (what.equals("running-config")) {
            String cfg = runningConfig.get();
            return text ? AdminResponse.text(200, cfg)
                    : AdminResponse.json(200, Json.write(Map.of("running_config", cfg)));
        }
        Table t;
        try {
            t = table(what, q);
        } catch (ShowArgs.BadQualifier e) {
            return AdminResponse.text(400, e.getMessage() + "\n");
        }
        if (t == null) {
            return AdminResponse.text(404, "unknown view '" + what + "'; known: " + String.join(", ", BUILT_IN_VIEWS)
                    + (views.isEmpty() ? "" : ", " + String.join(", ", views.keySet())) + "\n");
        }
        AdminServer.View x = extraView(what, q);
        int status = x == null ? 200 : x.status(t, q);
        return text ? AdminResponse.text(status, t.toText()) : AdminResponse.json(status, t.toJson());
    }

    private Table table(String what, Map<String, String> q) {
        AdminViews v = new AdminViews(runtime.get());
        return switch (what) {
            case "reals" -> v.reals(ShowArgs.of(what, q));
            case "vservers" -> v.vservers(ShowArgs.of(what, q));
            case "serverfarms" -> v.serverfarms(ShowArgs.of(what, q));
            case "sticky" -> v.sticky(ShowArgs.of(what, q), q.get("table"), parseInt(q.get("limit"), 1000));
            case "conns" -> v.conns(ShowArgs.of(what, q), parseInt(q.get("limit"), 1000));
            case "stats" -> v.stats();
            case "probe" -> ProbeView.table(runtime.get(), ShowArgs.of(what, q), q);
            default -> {
                AdminServer.View x = extraView(what, q);
                yield x == null ? null : x.table(q);
            }
        };
    }

    /** A module's view: {@code NAME}, or {@code NAME/ITEM} with ITEM passed as the query's {@code item}. */
    private AdminServer.View extraView(String what, Map<String, String> q) {
        AdminServer.View x = views.get(what);
        int slash = what.indexOf('/');
        if (x == null && slash > 0) {
            x = views.get(what.substring(0, slash));
            if (x != null) {
                q.put("item", what.substring(slash + 1));
            }
        }
        return x;
    }

    private static int parseInt(String s, int dflt) {
        try {
            return s == null ? dflt : Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return dflt;
        }
    }

    static Map<String, String> query(String raw) {
        Map<String, String> q = new HashMap<>();
        if (raw == null) {
            return q;
        }
        for (String kv : raw.split("&")) {
            int i = kv.indexOf('=');
            String k = i < 0 ? kv : kv.substring(0, i);
            String v = i < 0 ? "" : kv.substring(i + 1);
            try {
                q.put(java.net.URLDecoder.decode(k, StandardCharsets.UTF_8),
                        java.net.URLDecoder.decode(v, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                LOG.debug("admin: bad query escape in {}", kv);
            }
        }
        return q;
    }
}
