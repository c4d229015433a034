package io.mclb.gtp.lb;

import io.mclb.admin.AdminServer;
import io.mclb.config.VirtualServerConfig;
import io.mclb.service.ConfigSyntax;
import io.mclb.service.ProbeFactory;
import io.mclb.service.ServiceContext;
import io.mclb.service.ServiceInspector;
import io.mclb.service.ServiceModule;
import io.mclb.sticky.StickyKind;
import io.mclb.time.NanoClock;
import io.mclb.vserver.VirtualServer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The GTP module: services {@code gtp} and {@code gtp-inspect} ({@link GtpInspector}), their
 * configuration lines ({@link GtpConfigSyntax}), the {@code gtp-echo} probe type
 * ({@link GtpEchoProbe}), the IMSI sticky kind and the persisted Recovery value
 * ({@link GtpRecovery}). Sessions live in the runtime's binding table (aged by the runtime). One
 * instance serves one runtime at a time; {@link #start} is idempotent and re-reads everything
 * after a reload.
 *
 * <p>The request timeout ({@code idle gtp request S}, default 30 s, the IOS-style short request
 * timer) is fixed when a virtual server's listeners start: a reload that changes it applies to
 * relays started afterwards (a changed address, port or service re-creates them).
 */
public final class GtpServiceModule implements ServiceModule {
    static {
        // the HA replicator carries this module's bindings to the standby (issue 13)
        GtpSession.KIND.codec(GtpSessionCodec.INSTANCE);
    }

    private static final Logger LOG = LoggerFactory.getLogger(GtpServiceModule.class);

    private final GtpConfigSyntax syntax = new GtpConfigSyntax();
    private final GtpModule module = new GtpModule();
    private final GtpEchoProbe echoProbe = new GtpEchoProbe(module);
    private volatile MeterRegistry registry;
    private MeterRegistry gaugesOn;
    private ScheduledFuture<?> cacExpiry;
    private ScheduledFuture<?> gsnExpiry;
    private volatile NanoClock clock = NanoClock.system();

    @Override
    public ConfigSyntax syntax() {
        return syntax;
    }

    /** The module's shared state (sessions, Recovery): for the admin API and tests. */
    public GtpModule module() {
        return module;
    }

    @Override
    public List<ProbeFactory> probeTypes() {
        return List.of(echoProbe);
    }

    @Override
    public List<StickyKind> stickyKinds() {
        return List.of(GtpModule.IMSI, GtpModule.ASN_MSID);
    }

    @Override
    public Map<String, AdminServer.View> views() {
        // the clock is read per request: a runtime (re)started later brings its own
        return Map.of("gtp", q -> new GtpView(module, clock).table(q));
    }

    @Override
    public ServiceInspector<?> newInspector(VirtualServer vs) {
        MeterRegistry r = registry != null ? registry : new SimpleMeterRegistry();
        return new GtpInspector(vs, module, module.metrics(vs.name(), r));
    }

    @Override
    public synchronized void start(ServiceContext ctx) throws Exception {
        registry = ctx.registry();
        clock = ctx.clock();
        List<GtpLines.GsnTimer> timers = ctx.config().records(GtpLines.GsnTimer.class);
        module.gsns().idleSeconds(timers.isEmpty() ? GsnTable.DEFAULT_IDLE_SECONDS
                : timers.get(timers.size() - 1).seconds()); // the last line wins, as in IOS
        module.sessions(ctx.bindings().table(GtpSession.KIND));
        module.teids().node(GtpHaNode.of(ctx.config()));
        Path dataDir = ctx.config().global().dataDir();
        module.recovery(GtpRecovery.loadOrCreate(dataDir, () -> new SecureRandom().nextInt(256)));
        // HA: the active's Recovery goes to the standby, which stores it, so echo answers keep it after a failover
        ctx.replicatedValues().onReceived(GtpRecovery.REPLICATED_KEY, v -> {
            if (v.length == 1) {
                try {
                    GtpRecovery.store(dataDir, v[0] & 0xFF);
                    module.recovery(v[0] & 0xFF);
                } catch (IOException e) {
                    LOG.warn("cannot store the replicated GTP Recovery {}: {}", v[0] & 0xFF, e.toString());
                }
            }
        });
        ctx.replicatedValues().publish(GtpRecovery.REPLICATED_KEY, new byte[] {(byte) module.recovery()});
        if (gaugesOn != registry) {
            Gauge.builder(GtpMetrics.SESSIONS, module, m -> m.sessions().size())
                    .description("GTP sessions established through mclb and not yet ended").register(registry);
            FunctionCounter.builder(GtpMetrics.TEID_COLLISIONS, module, m -> m.sessions().aliasCollisions())
                    .description("Creates whose GGSN TEID was already learned from another GGSN (last one wins)")
                    .register(registry);
            for (GsnTable.Side side : GsnTable.Side.values()) {
                Gauge.builder(GtpMetrics.GSNS, module, m -> m.gsns().count(side))
                        .description("GSNs seen and not yet forgotten by the GSN idle timer (ip slb timers gtp gsn)")
                        .tag("side", side.name().toLowerCase(java.util.Locale.ROOT)).register(registry);
            }
            gaugesOn = registry;
        }
        // a CAC window is the longest 'idle gtp imsi' of the GTP virtual servers
        long window = 0;
        for (VirtualServerConfig v : ctx.config().vservers().values()) {
            if (v.service() != null && syntax.services().contains(v.service())) {
                window = Math.max(window, GtpVserverSettings.of(v).imsiSeconds() * 1_000_000_000L);
            }
        }
        long windowNs = window;
        if (cacExpiry != null) {
            cacExpiry.cancel(false);
        }
        cacExpiry = ctx.loops().next().scheduleAtFixedRate(() -> module.expireCac(ctx.clock().nanoTime(), windowNs),
                1, 1, TimeUnit.SECONDS);
        if (gsnExpiry != null) {
            gsnExpiry.cancel(false);
        }
        gsnExpiry = ctx.loops().next().scheduleAtFixedRate(() -> module.gsns().expire(ctx.clock().nanoTime()),
                1, 1, TimeUnit.SECONDS);
    }

    @Override
    public synchronized void stop() {
        if (cacExpiry != null) {
            cacExpiry.cancel(false);
            cacExpiry = null;
        }
        if (gsnExpiry != null) {
            gsnExpiry.cancel(false);
            gsnExpiry = null;
        }
    }
}
