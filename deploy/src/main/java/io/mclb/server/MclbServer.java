package io.mclb.server;

import io.mclb.admin.AdminOptions;
import io.mclb.admin.AdminServer;
import io.mclb.config.ConfigError;
import io.mclb.config.ConfigException;
import io.mclb.config.ConfigParser;
import io.mclb.config.ConfigWriter;
import io.mclb.config.MclbConfig;
import io.mclb.service.ExtensionHost;
import io.mclb.service.Modules;
import io.mclb.runtime.MclbRuntime;
import io.mclb.service.RuntimeExtension;
import io.mclb.time.NanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * One mclb process: the runtime built from a configuration file, its admin listener, its runtime
 * extensions (HA, replication: started before the admin listener answers, stopped before the runtime), and
 * reload (from {@code mclb reload}, the admin API, or SIGHUP). A reload that fails, or that an
 * extension's guard refuses (a standby while its peer is active), keeps the running configuration
 * and says why.
 */
public final class MclbServer implements AutoCloseable, ExtensionHost {
    private static final Logger LOG = LoggerFactory.getLogger(MclbServer.class);

    private final Path configFile;
    private final StartupOverrides overrides;
    private final Modules modules;
    private final MclbRuntime runtime;
    private final AdminServer admin;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final java.util.concurrent.atomic.AtomicBoolean closing = new java.util.concurrent.atomic.AtomicBoolean();
    private final List<ReloadGuard> guards = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<RuntimeExtension> started = new java.util.ArrayList<>();

    private MclbServer(Path configFile, StartupOverrides overrides, Modules modules, MclbRuntime runtime,
                       AdminServer admin) {
        this.configFile = configFile;
        this.overrides = overrides;
        this.modules = modules;
        this.runtime = runtime;
        this.admin = admin;
    }

    /** Parses the file, starts the balancer and its admin listener. */
    public static MclbServer start(Path configFile, Modules modules) throws Exception {
        return start(configFile, modules, StartupOverrides.NONE);
    }

    /** Parses the file, applies the command line's overrides, starts. */
    public static MclbServer start(Path configFile, Modules modules, StartupOverrides overrides) throws Exception {
        MclbConfig config = ConfigParser.parse(configFile, modules.grammar());
        return start(configFile, config, modules, overrides);
    }

    public static MclbServer start(Path configFile, MclbConfig config, Modules modules) throws Exception {
        return start(configFile, config, modules, StartupOverrides.NONE);
    }

    public static MclbServer start(Path configFile, MclbConfig parsed, Modules modules, StartupOverrides overrides)
            throws Exception {
        MclbConfig config = overrides.apply(parsed);
        for (ConfigError w : config.warnings()) {
            LOG.warn("{}", w);
        }
        MclbRuntime rt = MclbRuntime.start(config, modules, modules.gate(), NanoClock.system());
        AdminServer admin;
        MclbServer[] self = new MclbServer[1];
        try {
            admin = new AdminServer(AdminOptions.of(config), () -> rt, () -> self[0].reload(),
                    () -> ConfigWriter.write(rt.config()));
        } catch (IOException e) {
            // the message already names the listener and what to do (BindFailures)
            rt.close();
            throw e;
        }
        self[0] = new MclbServer(configFile, overrides, modules, rt, admin);
        for (var m : modules.services()) {
            m.views().forEach(admin::addView);
        }
        try {
            for (RuntimeExtension x : modules.extensions()) {
                x.start(rt, self[0]);
                self[0].started.add(x);
            }
        } catch (Exception | Error e) {
            self[0].close();
            throw e;
        }
        admin.addAction("stop", self[0]::stopAction);
        // answer only once every extension has registered its views (e.g. show failover)
        admin.start();
        LOG.info("mclb running: {} farm(s), {} vserver(s); metrics at http://{}:{}/metrics",
                config.farms().size(), config.vservers().size(), admin.address().getAddress().getHostAddress(),
                admin.address().getPort());
        return self[0];
    }

    /** Re-reads the configuration file and applies it; a bad file changes nothing. */
    public synchronized AdminServer.ReloadResult reload() {
        if (configFile == null) {
            return new AdminServer.ReloadResult(false, List.of("this mclb runs a built-in configuration"), List.of());
        }
        for (ReloadGuard g : guards) {
            String why = g.refuseReload();
            if (why != null) {
                runtime.reloadRefused();
                LOG.warn("reload refused: {}", why);
                return new AdminServer.ReloadResult(false, List.of(why), List.of());
            }
        }
        MclbConfig next;
        try {
            next = overrides.apply(ConfigParser.parse(configFile, modules.grammar()));
        } catch (ConfigException e) {
            runtime.reloadRefused();
            List<String> errors = e.errors().stream().map(ConfigError::toString).toList();
            LOG.warn("reload refused, the running configuration stays:\n{}", String.join("\n", errors));
            return new AdminServer.ReloadResult(false, errors, List.of());
        } catch (IOException e) {
            runtime.reloadRefused();
            LOG.warn("reload refused: {}", e.toString());
            return new AdminServer.ReloadResult(false, List.of(e.getMessage()), List.of());
        }
        return apply(next);
    }

    private AdminServer.ReloadResult apply(MclbConfig next) {
        try {
            List<String> notes = runtime.reload(next);
            for (RuntimeExtension x : started) {
                x.reloaded(runtime);
            }
            List<String> warnings = next.warnings().stream().map(ConfigError::toString).toList();
            List<String> all = new java.util.ArrayList<>(warnings);
            all.addAll(notes);
            return new AdminServer.ReloadResult(true, List.of(), all);
        } catch (Exception e) {
            LOG.error("reload failed while applying", e);
            return new AdminServer.ReloadResult(false, List.of("apply failed: " + e.getMessage()), List.of());
        }
    }

    /**
     * {@inheritDoc} The text's relative paths resolve against the configuration file's directory;
     * the running configuration keeps naming the local file as its source.
     */
    @Override
    public synchronized AdminServer.ReloadResult applyConfig(String origin, String text) {
        MclbConfig parsed;
        try {
            Path dir = configFile == null ? null : configFile.toAbsolutePath().getParent();
            parsed = ConfigParser.parse(origin, text, dir, modules.grammar());
        } catch (ConfigException e) {
            runtime.reloadRefused();
            List<String> errors = e.errors().stream().map(ConfigError::toString).toList();
            LOG.warn("configuration from {} refused:\n{}", origin, String.join("\n", errors));
            return new AdminServer.ReloadResult(false, errors, List.of());
        }
        LOG.info("applying the configuration from {}", origin);
        return apply(overrides.apply(new MclbConfig(parsed.global(), parsed.farms(), parsed.vservers(),
                parsed.globalExtensions(), parsed.warnings(), configFile)));
    }

    @Override
    public void addView(String name, AdminServer.View view) {
        admin.addView(name, view);
    }

    @Override
    public void addAction(String name, AdminServer.Action action) {
        admin.addAction(name, action);
    }

    @Override
    public void addReadiness(AdminServer.Readiness check) {
        admin.addReadiness(check);
    }

    @Override
    public void addReloadGuard(ReloadGuard guard) {
        guards.add(guard);
    }

    public MclbRuntime runtime() {
        return runtime;
    }

    public AdminServer admin() {
        return admin;
    }

    /** How long {@code mclb stop}'s answer gets to leave before the admin listener closes. */
    private static final long STOP_ANSWER_GRACE_MS = 200;

    /**
     * {@code POST /api/v1/stop[?handover=false]} ({@code mclb stop [--no-handover]}): an orderly stop, as
     * SIGTERM; {@code handover=false} tells the extensions first (an active HA group then leaves its
     * standby standing by instead of resigning to it).
     */
    private AdminServer.ActionResult stopAction(java.util.Map<String, String> q) {
        boolean handover = !"false".equals(q.get("handover"));
        if (!handover) {
            for (RuntimeExtension x : started) {
                x.noHandoverOnStop();
            }
        }
        LOG.info("stop requested over the admin API{}", handover ? "" : " (no handover)");
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(STOP_ANSWER_GRACE_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            close();
        }, "mclb-stop");
        t.start();
        return new AdminServer.ActionResult(true, "mclb is stopping" + (handover
                ? " (an active HA group hands over to its standby at once)"
                : " without handing over (an active HA group's standby stays standby)"));
    }

    /** Blocks until {@link #close()}. */
    public void awaitStop() throws InterruptedException {
        stopped.await();
    }

    @Override
    public void close() {
        // SIGTERM's hook and 'mclb stop' may both come: the first one stops
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).stop();
            } catch (RuntimeException e) {
                LOG.warn("stopping extension {} failed", started.get(i).name(), e);
            }
        }
        admin.close();
        runtime.close();
        stopped.countDown();
        LOG.info("mclb stopped");
    }
}
