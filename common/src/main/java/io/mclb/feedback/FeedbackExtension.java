package io.mclb.feedback;

import io.mclb.config.MclbConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.farm.RealServer;
import io.mclb.farm.ServerFarm;
import io.mclb.feedback.FeedbackLines.LocalAgentConfig;
import io.mclb.feedback.dfp.DfpAgentServer;
import io.mclb.feedback.dfp.DfpManager;
import io.mclb.feedback.dfp.DfpWeights;
import io.mclb.feedback.dfp.HostWeight;
import io.mclb.feedback.kalap.KalApLoads;
import io.mclb.metrics.MetricNames;
import io.mclb.net.Transports;
import io.mclb.service.ConfigSyntax;
import io.mclb.service.ExtensionHost;
import io.mclb.service.RuntimeExtension;
import io.mclb.service.ServiceContext;
import io.mclb.vserver.VirtualServer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.netty.channel.EventLoopGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Load feedback beside the balancer (an engine built-in {@link RuntimeExtension}): the DFP manager
 * ({@code ip slb dfp}), mclb's own DFP agents ({@code ip dfp agent NAME}), and the KAL-AP load
 * ({@code mclb_kalap_load}, {@code show kal-ap}, {@code GET /api/v1/kal-ap[/TAG]}). DFP runs on one
 * event loop of its own, created when first configured, never on the data-path loops. A reload
 * re-applies everything: agents whose line changed reconnect, new reals get the weights already
 * reported for them, removed agents' weights go.
 */
public final class FeedbackExtension implements RuntimeExtension {
    private static final Logger LOG = LoggerFactory.getLogger(FeedbackExtension.class);

    private ServiceContext ctx;
    private EventLoopGroup group;
    private volatile DfpManager manager;
    private final Map<String, DfpAgentServer> locals = new LinkedHashMap<>();
    private final List<Meter> loadGauges = new ArrayList<>();

    @Override
    public String name() {
        return "feedback";
    }

    /** The lines are an engine syntax ({@link io.mclb.service.Modules}), known even without this extension. */
    @Override
    public ConfigSyntax syntax() {
        return null;
    }

    @Override
    public void start(ServiceContext ctx, ExtensionHost host) throws Exception {
        this.ctx = ctx;
        host.addView("dfp", FeedbackViews.dfp(() -> manager, this::localAgents, () -> ctx.clock().nanoTime()));
        host.addView("kal-ap", FeedbackViews.kalAp(this::loads));
        apply(ctx);
    }

    @Override
    public void reloaded(ServiceContext ctx) throws Exception {
        apply(ctx);
    }

    private synchronized List<DfpAgentServer> localAgents() {
        return List.copyOf(locals.values());
    }

    private List<KalApLoads.VserverLoad> loads() {
        return KalApLoads.all(ctx.vservers().values(), dfpOn());
    }

    private boolean dfpOn() {
        return FeedbackSyntax.manager(ctx.config()) != null;
    }

    private synchronized void apply(ServiceContext ctx) throws Exception {
        MclbConfig config = ctx.config();
        FeedbackLines.ManagerConfig m = FeedbackSyntax.manager(config);
        if (m != null && manager == null) {
            manager = new DfpManager(loop(), ctx.clock(), ctx.registry(), new DfpWeights());
        }
        if (manager != null) {
            manager.configure(m, targets(ctx));
        }
        Map<String, LocalAgentConfig> wanted = new LinkedHashMap<>();
        FeedbackSyntax.localAgents(config).forEach(a -> wanted.put(a.name(), a));
        for (String name : new ArrayList<>(locals.keySet())) {
            if (!wanted.containsKey(name)) {
                locals.remove(name).close();
            }
        }
        for (LocalAgentConfig a : wanted.values()) {
            DfpAgentServer s = locals.get(a.name());
            if (s == null) {
                s = new DfpAgentServer(a.name(), loop().next(), ctx.clock(), ctx.registry(), new VserverWeights(ctx));
                locals.put(a.name(), s);
            }
            s.configure(new DfpAgentServer.Settings(new InetSocketAddress(a.port()), a.password(),
                    a.passwordTimeoutSeconds(), a.intervalSeconds(), a.inService()));
        }
        registerLoads(ctx);
    }

    private io.netty.channel.EventLoop loop() {
        if (group == null) {
            group = Transports.newGroup(1, "mclb-dfp");
        }
        return group.next();
    }

    /** One {@code mclb_kalap_load{vserver,tag}} per virtual server, computed at scrape time. */
    private void registerLoads(ServiceContext ctx) {
        loadGauges.forEach(ctx.registry()::remove);
        loadGauges.clear();
        for (VirtualServer v : ctx.vservers().values()) {
            String tag = FeedbackSyntax.kalApTag(v.snapshot().config());
            String name = v.name();
            loadGauges.add(Gauge.builder(MetricNames.KALAP_LOAD, () -> {
                VirtualServer now = ctx.vservers().get(name);
                return now == null ? Double.NaN : KalApLoads.of(now, dfpOn()).load();
            }).description("KAL-AP load 0..255 (255 = offline)").tag("vserver", name).tag("tag", tag == null ? "" : tag)
                    .register(ctx.registry()));
        }
    }

    /** Every IPv4 real with the ports it serves (its own, or its farm's virtual servers') and its farm's bind ID. */
    static List<DfpWeights.Target> targets(ServiceContext ctx) {
        List<DfpWeights.Target> out = new ArrayList<>();
        for (ServerFarm f : ctx.farms().values()) {
            int bind = FeedbackSyntax.bindId(f.config());
            int[] farmPorts = ctx.config().vservers().values().stream()
                    .filter(v -> f.name().equals(v.farm()) || f.name().equals(v.backupFarm()))
                    .mapToInt(VirtualServerConfig::port).distinct().toArray();
            for (RealServer r : f.reals()) {
                if (r.address() instanceof Inet4Address a) {
                    int[] ports = r.port() != 0 ? new int[] {r.port()} : farmPorts;
                    out.add(new DfpWeights.Target(r, HostWeight.ipv4(a), ports, bind));
                }
            }
        }
        return out;
    }

    /** The running DFP manager, or null (tests, views). */
    public DfpManager manager() {
        return manager;
    }

    @Override
    public synchronized void stop() {
        DfpManager m = manager;
        manager = null;
        if (m != null) {
            m.close();
        }
        locals.values().forEach(DfpAgentServer::close);
        locals.clear();
        if (ctx != null) {
            loadGauges.forEach(ctx.registry()::remove);
        }
        loadGauges.clear();
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            group = null;
        }
        LOG.debug("load feedback stopped");
    }
}
