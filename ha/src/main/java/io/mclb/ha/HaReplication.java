package io.mclb.ha;

import io.mclb.config.ConfigWriter;
import io.mclb.config.MclbConfig;
import io.mclb.config.VirtualServerConfig;
import io.mclb.ha.group.GroupManager;
import io.mclb.ha.group.HsrpState;
import io.mclb.ha.group.StandbyGroup;
import io.mclb.ha.replication.ReplicatedBindings;
import io.mclb.ha.replication.ReplicatedState;
import io.mclb.ha.replication.ReplicationConfig;
import io.mclb.ha.replication.StickyReplicator;
import io.mclb.service.ExtensionHost;
import io.mclb.runtime.ReplicatedValues;
import io.mclb.service.ServiceContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Drives the {@link StickyReplicator} from the HA group that the replicating virtual servers'
 * {@code inservice standby NAME} names: Active here -> {@code startActive} and push the running
 * configuration (again after every applied configuration); any other state -> {@code startStandby}
 * (it keeps reconnecting to the peer, so a node in Listen after a restart resyncs before its
 * preempt delay runs out).
 *
 * <p>The standby applies a pushed configuration through {@link ExtensionHost#applyConfig} (which
 * bypasses the reload guard that refuses local changes) after {@link StandbyConfig#merge keeping
 * its own node-local lines}, and writes what it applied to {@code DATA_DIR/standby-config.cfg}
 * for inspection; its configuration file is left alone (a restarted node starts from its own file
 * and gets the active's configuration again as soon as it connects).
 *
 * <p>Module values ({@link ReplicatedValues}, e.g. GTP Recovery) ride on the replicator's
 * {@link ReplicatedState}. Threads: role changes run in order on {@code mclb-ha-role}, configuration
 * applies on {@code mclb-ha-config}; neither blocks the group's {@code mclb-ha} thread.
 */
final class HaReplication implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HaReplication.class);
    static final String STANDBY_CONFIG_FILE = "standby-config.cfg";

    private final ServiceContext ctx;
    private final ExtensionHost host;
    private final String group;
    private final ReplicatedState state = new ReplicatedState();
    private final StickyReplicator replicator;
    private final ExecutorService roles = Executors.newSingleThreadExecutor(daemon("mclb-ha-role"));
    private final ExecutorService configs = Executors.newSingleThreadExecutor(daemon("mclb-ha-config"));
    /** Written only on {@code mclb-ha-role}; read by {@code show replicate}. */
    private volatile ReplicationConfig config;
    /** Written only on {@code mclb-ha-role}; null before the first role. */
    private volatile Boolean activeRole;

    private HaReplication(ServiceContext ctx, ExtensionHost host, ReplicationConfig config, String group) {
        this.ctx = ctx;
        this.host = host;
        this.config = config;
        this.group = group;
        this.replicator = new StickyReplicator(ctx.stickyTable(), state, ctx.registry(), config.queueCapacity(),
                new ReplicatedBindings(ctx.bindings(), ctx::realById, ctx.clock()));
        ReplicatedValues values = ctx.replicatedValues();
        state.addListener(values::deliver);
        values.attach(state::put);
    }

    /**
     * Starts replication when the configuration has a {@code replicate casa} line whose group can
     * be found; null otherwise. Call before {@link GroupManager#start()} to see the first state.
     */
    static HaReplication create(ServiceContext ctx, ExtensionHost host, GroupManager manager) {
        MclbConfig c = ctx.config();
        ReplicationConfig rc = ReplicationConfig.from(c).orElse(null);
        if (rc == null) {
            return null;
        }
        String group = groupOf(c, manager.groups());
        if (group == null) {
            LOG.warn("replicate casa: no 'inservice standby NAME' on a replicating vserver names an HA group of "
                    + "this node (and there is not exactly one group): sticky replication stays off");
            return null;
        }
        HaReplication r = new HaReplication(ctx, host, rc, group);
        host.addView("replicate", q -> r.view(io.mclb.admin.ShowArgs.of("replicate", q)));
        manager.addStateListener(r::stateChanged);
        r.role(manager.isActive(group));
        LOG.info("replication {} follows HA group {}", rc, group);
        return r;
    }

    /** The group the replicating vservers are gated by; the only group when none says. */
    static String groupOf(MclbConfig c, Map<String, StandbyGroup> groups) {
        for (VirtualServerConfig v : c.vservers().values()) {
            if (v.record(ReplicationConfig.class) != null && v.standbyGroup() != null && groups.containsKey(v.standbyGroup())) {
                return v.standbyGroup();
            }
        }
        return groups.size() == 1 ? groups.keySet().iterator().next() : null;
    }

    private void stateChanged(StandbyGroup g, HsrpState from, HsrpState to) {
        if (g.config().name().equals(group) && (from == HsrpState.ACTIVE) != (to == HsrpState.ACTIVE)) {
            role(to == HsrpState.ACTIVE);
        }
    }

    private void role(boolean active) {
        roles.execute(() -> {
            if (activeRole != null && activeRole == active) {
                return;
            }
            activeRole = active;
            applyRole();
        });
    }

    /** On {@code mclb-ha-role}. */
    private void applyRole() {
        try {
            if (activeRole) {
                replicator.startActive(config);
                replicator.pushConfig(ConfigWriter.write(ctx.config()));
                LOG.info("replication: active, listening on {}:{} for {}", config.listenAddress().getHostAddress(),
                        config.port(), config.remoteAddress().getHostAddress());
            } else {
                replicator.startStandby(config, this::received);
                LOG.info("replication: standby, connecting to {}:{}", config.remoteAddress().getHostAddress(),
                        config.port());
            }
        } catch (IOException | RuntimeException e) {
            // the group keeps its role; the next role change or reload retries
            LOG.error("replication: cannot start the {} side: {}", activeRole ? "active" : "standby", e.toString());
        }
    }

    /** On the replication thread: the active's running configuration. */
    private void received(String text) {
        configs.execute(() -> {
            String merged = StandbyConfig.merge(ConfigWriter.write(ctx.config()), text);
            Path file = ctx.config().global().dataDir().resolve(STANDBY_CONFIG_FILE);
            try {
                Files.createDirectories(file.getParent());
                Path tmp = file.resolveSibling(STANDBY_CONFIG_FILE + ".tmp");
                Files.writeString(tmp, merged, StandardCharsets.UTF_8);
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                LOG.warn("cannot write {}: {}", file, e.toString());
            }
            var result = host.applyConfig("write standby from " + config.remoteAddress().getHostAddress(), merged);
            if (result.ok()) {
                LOG.info("applied the configuration pushed by the active node");
            } else {
                LOG.warn("the configuration pushed by the active node was refused: {}", result.errors());
            }
        });
    }

    /** After every applied configuration: a changed replicate line restarts the role; an active node pushes. */
    void reloaded(ServiceContext now) {
        ReplicationConfig next = ReplicationConfig.from(now.config()).orElse(null);
        String text = ConfigWriter.write(now.config());
        roles.execute(() -> {
            if (next != null && !sameSettings(next, config)) {
                if (!Objects.equals(next.password(), config.password())) {
                    replicator.rollOver(config.password(), next.passwordTimeout());
                    LOG.info("replication: password changed; the previous one stays valid for {} s",
                            next.passwordTimeout().toSeconds());
                }
                // the ring was sized by the first configuration; a new size needs a restart
                config = next.withTuning(next.interval(), config.reconnectDelay(), config.queueCapacity());
                if (activeRole != null) {
                    applyRole();
                }
            }
            if (Boolean.TRUE.equals(activeRole)) {
                replicator.pushConfig(text);
            }
        });
    }

    private static boolean sameSettings(ReplicationConfig a, ReplicationConfig b) {
        return a.listenAddress().equals(b.listenAddress()) && a.remoteAddress().equals(b.remoteAddress())
                && a.port() == b.port() && a.interval().equals(b.interval())
                && Objects.equals(a.password(), b.password()) && Objects.equals(a.tls(), b.tls());
    }

    /**
     * {@code show replicate [detail]}: the {@code replicate casa} stream of this node, IOS style,
     * one row per replicated table (each sticky kind, each binding kind) with its entries sent and
     * applied, those the standby could not resolve, and its lag.
     */
    io.mclb.admin.Table view(io.mclb.admin.ShowArgs a) {
        boolean detail = a.flag("detail");
        a.end("detail");
        ReplicationConfig c = config;
        Boolean role = activeRole;
        StickyReplicator.Status st = replicator.status();
        List<String> vservers = new java.util.ArrayList<>();
        for (VirtualServerConfig v : ctx.config().vservers().values()) {
            if (v.record(ReplicationConfig.class) != null) {
                vservers.add(v.name());
            }
        }
        io.mclb.admin.Table t = detail
                ? new io.mclb.admin.Table("group", "role", "local", "remote", "port", "tls", "state", "vservers",
                        "backlog", "frames_sent", "frames_received", "resyncs", "overflows", "refused", "table", "sent",
                        "applied", "unresolved", "lag_mean_ms", "lag_p99_ms", "lag_max_ms")
                : new io.mclb.admin.Table("group", "role", "local", "remote", "port", "state", "backlog", "table",
                        "sent", "applied", "unresolved", "lag_p99_ms", "lag_max_ms");
        String r = role == null ? "INIT" : role ? "ACTIVE" : "STANDBY";
        String state = st.connected() ? "CONNECTED" : "DOWN";
        List<StickyReplicator.TableStatus> tables = replicator.tables();
        if (tables.isEmpty()) {
            tables = List.of(new StickyReplicator.TableStatus("-", 0, 0, 0, 0, 0, 0, st.lagMaxMs()));
        }
        for (StickyReplicator.TableStatus ts : tables) {
            if (detail) {
                t.row(group, r, c.listenAddress().getHostAddress(), c.remoteAddress().getHostAddress(), c.port(),
                        c.tls() == null ? "off" : "on", state, String.join(",", vservers), st.backlog(),
                        st.framesSent(), st.framesReceived(), st.resyncs(), st.overflows(), st.refused(), ts.table(),
                        ts.sent(), ts.applied(), ts.unresolved(), ms(ts.lagMeanMs()), ms(ts.lagP99Ms()),
                        ms(ts.lagMaxMs()));
            } else {
                t.row(group, r, c.listenAddress().getHostAddress(), c.remoteAddress().getHostAddress(), c.port(),
                        state, st.backlog(), ts.table(), ts.sent(), ts.applied(), ts.unresolved(), ms(ts.lagP99Ms()),
                        ms(ts.lagMaxMs()));
            }
        }
        return t;
    }

    /** The HA group whose role it follows. */
    String group() {
        return group;
    }

    private static String ms(double v) {
        return String.format(java.util.Locale.ROOT, "%.3f", v);
    }

    /** True while the stream to or from the peer is up. */
    boolean connected() {
        return replicator.connected();
    }

    ReplicatedState state() {
        return state;
    }

    @Override
    public void close() {
        ctx.replicatedValues().detach();
        roles.shutdown();
        configs.shutdown();
        try {
            roles.awaitTermination(5, TimeUnit.SECONDS);
            configs.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        replicator.close();
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
