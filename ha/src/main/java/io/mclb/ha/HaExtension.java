package io.mclb.ha;

import io.mclb.admin.AdminServer;
import io.mclb.service.ConfigSyntax;
import io.mclb.config.MclbConfig;
import io.mclb.ha.group.GroupConfig;
import io.mclb.ha.group.GroupManager;
import io.mclb.ha.group.HsrpState;
import io.mclb.ha.group.LinkState;
import io.mclb.ha.group.LinuxInterfaceTestIo;
import io.mclb.ha.group.StandbyGroup;
import io.mclb.ha.vip.LinuxVirtualAddressControl;
import io.mclb.ha.vip.NoopVirtualAddressControl;
import io.mclb.ha.vip.VirtualAddressControl;
import io.mclb.service.ExtensionHost;
import io.mclb.service.RuntimeExtension;
import io.mclb.service.ServiceContext;
import io.mclb.service.ServingGate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Locale;

/**
 * The HA group as a {@link RuntimeExtension}: reads the {@code interface}/{@code standby} records,
 * runs a {@link GroupManager}, gates {@code inservice standby NAME} virtual servers, adds
 * {@code show failover}, {@code POST failover/active|reset|standby}, and refuses local reloads while this node
 * is not active and a peer is (the active node owns the configuration; replication pushes it).
 *
 * <p>Sticky, state and configuration replication ({@code replicate casa}, syntax
 * {@link io.mclb.ha.replication.ReplicationConfigSyntax}, registered on its own as a
 * {@code ConfigSyntax} service) follows the group its virtual servers are gated by: see
 * {@link HaReplication}.
 *
 * <p>Global lines it also owns: {@code mclb ha port N} (default 1985) and
 * {@code mclb ha vip-control linux|noop} (default linux; noop for unprivileged tests).
 * A reload applies changed priority, preempt, timers, key, tracks and peers of a running group at
 * once; added or removed groups and a changed interface, address, number or virtual address take
 * effect after a restart (logged).
 */
public final class HaExtension implements RuntimeExtension {
    private static final Logger LOG = LoggerFactory.getLogger(HaExtension.class);

    private final HaSyntax syntax = new HaSyntax();
    private volatile GroupManager manager;
    private HaReplication replication;
    private List<GroupConfig> running = List.of();
    /** {@code mclb failover stop ...} of the running configuration, or false after {@link #noHandoverOnStop}. */
    private volatile boolean handoverOnStop = true;
    private volatile boolean noHandoverAsked;

    /** Before start (and without groups) nothing is active: a standby-gated server never serves by accident. */
    private final ServingGate gate = name -> {
        GroupManager m = manager;
        return m != null && m.isActive(name);
    };

    @Override
    public String name() {
        return "ha-group";
    }

    @Override
    public ConfigSyntax syntax() {
        return syntax;
    }

    @Override
    public ServingGate gate() {
        return gate;
    }

    @Override
    public void start(ServiceContext ctx, ExtensionHost host) throws Exception {
        MclbConfig config = ctx.config();
        // replaced by the replication's own view when a 'replicate casa' line starts it
        host.addView("replicate", nothingToShow("show replicate: this node has no 'replicate casa' line"
                + " (in a vserver with 'inservice standby NAME')"));
        running = HaSyntax.groups(config);
        if (running.isEmpty()) {
            // 'show failover' is in every operator's runbook: say why there is nothing to show
            host.addView("failover", nothingToShow("show failover: this mclb runs no HA group"
                    + " (no 'standby' lines in its configuration)"));
            return;
        }
        requireInterfaces(running);
        VirtualAddressControl vips = HaSyntax.vipControl(config) == HaLines.VipControl.NOOP
                ? new NoopVirtualAddressControl() : new LinuxVirtualAddressControl();
        handoverOnStop = HaSyntax.stopHandover(config);
        GroupManager m = new GroupManager(running, vips, LinkState.SYSFS, new LinuxInterfaceTestIo(), ctx.registry(),
                ctx.clock(), HaSyntax.port(config));
        replication = HaReplication.create(ctx, host, m);
        m.start();
        manager = m;
        for (GroupConfig g : running) {
            LOG.info("HA {}", g);
        }
        host.addView("failover", new FailoverView(m, LinkState.SYSFS));
        host.addAction("failover/active", q -> answer(m.forceActive(q.get("group")), "this node is going active"
                + (q.get("group") == null ? " in every group" : " in group " + q.get("group"))
                + " (forced until 'mclb failover reset')"));
        host.addAction("failover/reset", q -> answer(m.reset(q.get("group")),
                "forced and Failed states cleared; the election rules apply again"));
        // LocalDirector's 'no failover active'
        host.addAction("failover/standby", q -> answer(m.yieldActive(q.get("group")),
                "this node resigned the active role to its standby"
                        + (q.get("group") == null ? " in every group" : " in group " + q.get("group"))
                        + " (no preempt until 'mclb failover reset' or 'mclb failover active')"));
        host.addReloadGuard(this::refuseReload);
        host.addReadiness(this::notReady);
    }

    /**
     * {@code GET /readyz}: every group active, or standby (and, for the group replication follows,
     * connected to the active's stream); a group still electing is not ready.
     */
    private String notReady() {
        GroupManager m = manager;
        if (m == null) {
            return null;
        }
        HaReplication r = replication;
        for (var g : m.groups().values()) {
            String name = g.config().name();
            HsrpState s = g.state();
            if (s == HsrpState.STANDBY && r != null && r.group().equals(name) && !r.connected()) {
                return "HA group " + name + ": standby, not connected to the active's replication stream";
            }
            if (s != HsrpState.ACTIVE && s != HsrpState.STANDBY) {
                return "HA group " + name + ": " + s.label() + ", neither active nor standby yet";
            }
        }
        return null;
    }

    private static AdminServer.ActionResult answer(List<String> refusals, String done) {
        return refusals.isEmpty() ? new AdminServer.ActionResult(true, done)
                : new AdminServer.ActionResult(false, String.join("; ", refusals));
    }

    /**
     * Interface names are checked here, not by {@code mclb check}: the config may be checked on
     * another host. A group's interface must exist; a tracked one that does not is only down.
     */
    private static void requireInterfaces(List<GroupConfig> groups) throws java.net.SocketException {
        for (GroupConfig g : groups) {
            if (java.net.NetworkInterface.getByName(g.iface()) == null) {
                throw new IllegalStateException("interface " + g.iface() + ": no such interface (this host has "
                        + interfaceNames() + ")");
            }
            for (GroupConfig.Track t : g.tracks()) {
                if (java.net.NetworkInterface.getByName(t.iface()) == null) {
                    LOG.warn("track {} interface {}: no such interface; it counts as down (priority -{})",
                            t.object(), t.iface(), t.decrement());
                }
            }
        }
    }

    private static String interfaceNames() throws java.net.SocketException {
        List<String> names = new java.util.ArrayList<>();
        java.net.NetworkInterface.networkInterfaces().forEach(i -> names.add(i.getName()));
        java.util.Collections.sort(names);
        return String.join(", ", names);
    }

    /** Non-null while a group here is not active and its peer is: the configuration belongs to the active node. */
    String refuseReload() {
        GroupManager m = manager;
        if (m == null) {
            return null;
        }
        long now = m.clock().nanoTime();
        for (StandbyGroup g : m.groups().values()) {
            if (g.state() != io.mclb.ha.group.HsrpState.ACTIVE && g.peerActive(now)) {
                return "this node is " + g.state().label().toLowerCase(Locale.ROOT) + " in HA group "
                        + g.config().name() + " and peer " + g.peer().sender().getHostAddress()
                        + " is active: change the configuration on the active node (it is replicated here), "
                        + "or make this node active first with 'mclb failover active'";
            }
        }
        return null;
    }

    @Override
    public void reloaded(ServiceContext ctx) {
        List<GroupConfig> next = HaSyntax.groups(ctx.config());
        GroupManager m = manager;
        if (m != null) {
            m.reconfigure(next).forEach(LOG::warn);
        } else if (!next.isEmpty()) {
            LOG.warn("HA groups were added to a node that started without any: they start after a restart of mclb");
        }
        running = next;
        handoverOnStop = HaSyntax.stopHandover(ctx.config());
        if (replication != null) {
            replication.reloaded(ctx);
        }
    }

    @Override
    public void noHandoverOnStop() {
        noHandoverAsked = true;
    }

    @Override
    public void stop() {
        GroupManager m = manager;
        manager = null;
        // the group resigns first, so the peer takes over while the replication stream closes
        if (m != null) {
            boolean handover = handoverOnStop && !noHandoverAsked;
            LOG.info("orderly stop: {}", handover ? "handing the active role over (resign)"
                    : "without handover (the standby stays standby)");
            m.close(handover);
        }
        if (replication != null) {
            replication.close();
            replication = null;
        }
    }

    /** The running group manager, or null (no groups configured, or not started). */
    public GroupManager manager() {
        return manager;
    }

    /** A view of something this node does not run: every request is answered with why (400). */
    private static AdminServer.View nothingToShow(String why) {
        return q -> {
            throw new io.mclb.admin.ShowArgs.BadQualifier(why);
        };
    }
}
