package io.mclb.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.mclb.runtime.MclbRuntime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The admin HTTP listener (DESIGN section 6): {@code GET /metrics} (Prometheus text, or
 * OpenMetrics when the scraper asks for it), {@code GET /api/v1/<what>} (JSON; {@code ?format=text}
 * gives the IOS-like table that {@code mclb show} prints), {@code POST /api/v1/reload}.
 * Off the data path: its own two threads.
 */
public final class AdminServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);
    static final String OPENMETRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    /** What {@code POST /api/v1/reload} runs: re-read the file and apply it. */
    public interface Reloader {
        /** @return {@code ok}, {@code errors} (file:line lines) and {@code notes} */
        ReloadResult reload();
    }

    public record ReloadResult(boolean ok, List<String> errors, List<String> notes) {
    }

    /** Extra views a module adds (e.g. {@code failover}, {@code gtp gsn}). */
    public interface View {
        Table table(Map<String, String> query);

        /**
         * The HTTP status of the answer: 200 unless the view says otherwise (a view of one object,
         * {@code kal-ap/TAG}, answers 503 while it is offline so that an HTTP-checking GSLB can use it).
         */
        default int status(Table table, Map<String, String> query) {
            return 200;
        }
    }

    /** An operator action a module adds ({@code POST /api/v1/NAME}, e.g. {@code failover/active}). */
    public interface Action {
        ActionResult run(Map<String, String> query);
    }

    /** The answer to an action: {@code ok} and a message for the operator. */
    public record ActionResult(boolean ok, String message) {
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final Supplier<MclbRuntime> runtime;
    private final Reloader reloader;
    private final Supplier<String> runningConfig;
    private final Map<String, View> extraViews = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, Action> actions = new java.util.concurrent.ConcurrentHashMap<>();

    public AdminServer(InetSocketAddress address, Supplier<MclbRuntime> runtime, Reloader reloader,
                       Supplier<String> runningConfig) throws IOException {
        this.runtime = runtime;
        this.reloader = reloader;
        this.runningConfig = runningConfig;
        this.server = HttpServer.create(address, 16);
        this.executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "mclb-admin");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/metrics", this::metrics);
        server.createContext("/api/v1/", this::api);
    }

    public void addView(String name, View view) {
        extraViews.put(name, view);
    }

    public void addAction(String name, Action action) {
        actions.put(name, action);
    }

    public void start() {
        server.start();
        LOG.info("admin listener on http://{}", AdminViews.hostPort(address().getAddress(), address().getPort()));
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    private void metrics(HttpExchange ex) throws IOException {
        try (ex) {
            String accept = ex.getRequestHeaders().getFirst("Accept");
            boolean om = accept != null && accept.contains("application/openmetrics-text");
            String type = om ? OPENMETRICS : PROMETHEUS_TEXT;
            String body = runtime.get().registry().scrape(type);
            send(ex, 200, type, body);
        }
    }

    private void api(HttpExchange ex) throws IOException {
        try (ex) {
            URI uri = ex.getRequestURI();
            String what = uri.getPath().substring("/api/v1/".length());
            Map<String, String> q = query(uri.getRawQuery());
            boolean text = "text".equals(q.get("format"));
            if ("POST".equals(ex.getRequestMethod())) {
                if (what.equals("reload")) {
                    ReloadResult r = reloader.reload();
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("ok", r.ok());
                    body.put("errors", r.errors());
                    body.put("notes", r.notes());
                    send(ex, r.ok() ? 200 : 400, "application/json", Json.write(body));
                } else if (actions.containsKey(what)) {
                    ActionResult r = actions.get(what).run(q);
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("ok", r.ok());
                    body.put("message", r.message());
                    send(ex, r.ok() ? 200 : 409, "application/json", Json.write(body));
                } else {
                    send(ex, 404, "text/plain", "unknown action " + what + "\n");
                }
                return;
            }
            if (what.equals("running-config")) {
                String cfg = runningConfig.get();
                send(ex, 200, text ? "text/plain" : "application/json",
                        text ? cfg : Json.write(Map.of("running_config", cfg)));
                return;
            }
            Table t;
            try {
                t = view(what, q);
            } catch (ShowArgs.BadQualifier e) {
                send(ex, 400, "text/plain", e.getMessage() + "\n");
                return;
            }
            View x = extraView(what, q);
            int status = x == null ? 200 : x.status(t, q);
            if (t == null) {
                send(ex, 404, "text/plain", "unknown view '" + what
                        + "'; known: reals, vservers, serverfarms, sticky, conns, stats, probe, running-config"
                        + (extraViews.isEmpty() ? "" : ", " + String.join(", ", extraViews.keySet())) + "\n");
                return;
            }
            send(ex, status, text ? "text/plain" : "application/json", text ? t.toText() : t.toJson());
        } catch (RuntimeException e) {
            LOG.warn("admin request {} failed", ex.getRequestURI(), e);
            send(ex, 500, "text/plain", "internal error: " + e + "\n");
        }
    }

    private Table view(String what, Map<String, String> q) {
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
                View x = extraView(what, q);
                yield x == null ? null : x.table(q);
            }
        };
    }

    /** A module's view: {@code NAME}, or {@code NAME/ITEM} with ITEM passed as the query's {@code item}. */
    private View extraView(String what, Map<String, String> q) {
        View x = extraViews.get(what);
        int slash = what.indexOf('/');
        if (x == null && slash > 0) {
            x = extraViews.get(what.substring(0, slash));
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

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new HashMap<>();
        if (raw == null) {
            return q;
        }
        for (String kv : raw.split("&")) {
            int i = kv.indexOf('=');
            String k = i < 0 ? kv : kv.substring(0, i);
            String v = i < 0 ? "" : kv.substring(i + 1);
            q.put(java.net.URLDecoder.decode(k, StandardCharsets.UTF_8),
                    java.net.URLDecoder.decode(v, StandardCharsets.UTF_8));
        }
        return q;
    }

    private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
