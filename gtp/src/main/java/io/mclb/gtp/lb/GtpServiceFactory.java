package io.mclb.gtp.lb;

import io.mclb.config.ConfigSyntax;
import io.mclb.config.ServerFarmConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.farm.ServerFarm;
import io.mclb.transaction.TransactionRelay;
import io.mclb.vserver.ServiceContext;
import io.mclb.vserver.ServiceFactory;
import io.mclb.vserver.VirtualServer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The GTP module: services {@code gtp} and {@code gtp-inspect}, their configuration lines
 * ({@link GtpConfigSyntax}), the persisted Recovery value ({@link GtpRecovery}), the session ager
 * (every second) and the gtp-echo probers. One instance serves one runtime at a time;
 * {@link #start} is idempotent and re-reads everything after a reload.
 *
 * <p>The request timeout ({@code idle gtp request S}, default 30 s, the IOS-style short request
 * timer) is fixed when a virtual server's listeners start: a reload that changes it applies to
 * relays started afterwards (a changed address, port or service re-creates them).
 */
public final class GtpServiceFactory implements ServiceFactory {
    private static final Logger LOG = LoggerFactory.getLogger(GtpServiceFactory.class);
    private static final long AGE_PERIOD_MS = 1000;

    private final GtpConfigSyntax syntax = new GtpConfigSyntax();
    private final GtpModule module = new GtpModule();
    private final Map<Long, GtpEchoJudge> judges = new ConcurrentHashMap<>();
    private final List<GtpEchoProber> probers = new ArrayList<>();
    private volatile MeterRegistry registry;
    private MeterRegistry gaugesOn;
    private java.util.concurrent.ScheduledFuture<?> ager;
    /**
     * The session ager walks every session: with a million subscribers that is tens of
     * milliseconds, which must not stall an event loop (seen in a profile), so it has a thread.
     */
    private java.util.concurrent.ScheduledExecutorService agerThread;

    @Override
    public ConfigSyntax syntax() {
        return syntax;
    }

    /** The module's shared state (sessions, Recovery): for the admin API and tests. */
    public GtpModule module() {
        return module;
    }

    @Override
    public ChannelHandler newRelay(VirtualServer vs, EventLoop loop) {
        MeterRegistry r = registry != null ? registry : new SimpleMeterRegistry();
        GtpVserverSettings st = GtpVserverSettings.of(vs.snapshot().config());
        GtpInspector inspector = new GtpInspector(vs, module, module.metrics(vs.name(), r));
        return new TransactionRelay(vs, loop, inspector, st.requestSeconds() * 1000L);
    }

    @Override
    public synchronized void start(ServiceContext ctx) throws Exception {
        registry = ctx.registry();
        module.registry(registry);
        java.nio.file.Path dataDir = ctx.config().global().dataDir();
        module.recovery(GtpRecovery.loadOrCreate(dataDir, () -> new SecureRandom().nextInt(256)));
        // HA: the active's Recovery goes to the standby, which stores it, so echo answers keep it after a failover
        ctx.replicatedValues().onReceived(GtpRecovery.REPLICATED_KEY, v -> {
            if (v.length == 1) {
                try {
                    GtpRecovery.store(dataDir, v[0] & 0xFF);
                    module.recovery(v[0] & 0xFF);
                } catch (java.io.IOException e) {
                    LOG.warn("cannot store the replicated GTP Recovery {}: {}", v[0] & 0xFF, e.toString());
                }
            }
        });
        ctx.replicatedValues().publish(GtpRecovery.REPLICATED_KEY, new byte[] {(byte) module.recovery()});
        if (gaugesOn != registry) {
            Gauge.builder(GtpMetrics.SESSIONS, module.sessions(), GtpSessions::size)
                    .description("GTP sessions established through mclb and not yet ended").register(registry);
            Gauge.builder(GtpMetrics.TEID_COLLISIONS, module.sessions(), GtpSessions::teidCollisions)
                    .description("Creates whose GGSN TEID was already learned from another GGSN (last one wins)")
                    .register(registry);
            gaugesOn = registry;
        }
        long cacWindowNs = 0;
        for (VirtualServerConfig v : ctx.config().vservers().values()) {
            if (v.service() != null && syntax.services().contains(v.service())) {
                cacWindowNs = Math.max(cacWindowNs, GtpVserverSettings.of(v).imsiSeconds() * 1_000_000_000L);
            }
        }
        long window = cacWindowNs;
        if (ager != null) {
            ager.cancel(false);
        }
        if (agerThread == null) {
            agerThread = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "mclb-gtp-session-ager");
                t.setDaemon(true);
                return t;
            });
        }
        ager = agerThread.scheduleAtFixedRate(() -> {
            try {
                long now = ctx.clock().nanoTime();
                module.sessions().expire(now);
                module.expireCac(now, window);
            } catch (RuntimeException e) {
                LOG.warn("gtp session ager: {}", e.toString());
            }
        }, AGE_PERIOD_MS, AGE_PERIOD_MS, TimeUnit.MILLISECONDS);
        restartProbers(ctx);
    }

    private void restartProbers(ServiceContext ctx) {
        closeProbers();
        Map<String, GtpProbeConfig> probes = GtpProbeConfig.all(ctx.config());
        for (ServerFarm farm : ctx.farms().values()) {
            ServerFarmConfig fc = farm.config();
            String name = GtpProbeConfig.probeOf(fc);
            GtpProbeConfig p = name == null ? null : probes.get(name);
            if (p != null) {
                GtpEchoProber prober = new GtpEchoProber(ctx, module, farm, p, GtpProbeConfig.purgeOnRestart(fc), judges);
                prober.start();
                probers.add(prober);
            }
        }
    }

    private void closeProbers() {
        for (GtpEchoProber p : probers) {
            p.close();
        }
        probers.clear();
    }

    @Override
    public synchronized void stop() {
        if (ager != null) {
            ager.cancel(false);
            ager = null;
        }
        if (agerThread != null) {
            agerThread.shutdownNow();
            agerThread = null;
        }
        closeProbers();
    }
}
