package io.mclb.ha.group;

import io.mclb.ha.vip.VirtualAddressControl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Carries out what the state machines ask for: hellos and probes go to the {@link HelloSockets};
 * each transition is logged and counted once, moves the virtual address, then tells the
 * {@link GroupManager.StateListener}s.
 *
 * <p>The address is acquired, and {@code vip:port} bound to answer takeover probes, on the way into
 * Active; both are undone on the way out. Listeners run after that, so one that starts serving on
 * Active finds the address in place.
 *
 * <p>Runs on the {@code mclb-ha} thread (and on the starting thread for the first transitions).
 */
final class GroupOutbox implements StandbyGroup.Outbox {
    /** The manager's name: log lines keep the component name operators know (showShortLogName). */
    private static final Logger LOG = LoggerFactory.getLogger(GroupManager.class);

    private final RunningGroups groups;
    private final HelloSockets sockets;
    private final VirtualAddressControl vips;
    private final HaMetrics metrics;
    /** Copy-on-write: added from other threads, iterated here. */
    private final List<GroupManager.StateListener> listeners;

    GroupOutbox(RunningGroups groups, HelloSockets sockets, VirtualAddressControl vips, HaMetrics metrics,
                List<GroupManager.StateListener> listeners) {
        this.groups = groups;
        this.sockets = sockets;
        this.vips = vips;
        this.metrics = metrics;
        this.listeners = listeners;
    }

    @Override
    public void send(Hello h) {
        sockets.sendHello(groups.sending(h), h);
    }

    @Override
    public void probe(Hello probe) {
        sockets.sendProbe(groups.sending(probe), probe);
    }

    @Override
    public void transitioned(StandbyGroup g, HsrpState from, HsrpState to, String reason, long nowNs) {
        GroupConfig c = g.config();
        LOG.info("group {} ({} on {}): {} -> {}: {}", c.name(), c.group(), c.iface(), from.label(), to.label(),
                reason);
        metrics.transition(c.name(), to);
        if (to == HsrpState.ACTIVE && g.vip() != null) {
            vips.acquire(c.iface(), g.vip(), c.prefix());
            sockets.openVip(g);
        } else if (from == HsrpState.ACTIVE && g.vip() != null) {
            sockets.closeVip(g);
            vips.release(c.iface(), g.vip(), c.prefix());
        }
        for (GroupManager.StateListener l : listeners) {
            try {
                l.stateChanged(g, from, to);
            } catch (RuntimeException e) {
                LOG.warn("group {}: state listener failed", c.name(), e);
            }
        }
    }

    @Override
    public void withheld(StandbyGroup g, String reason) {
        metrics.withheld(g.config().name(), reason);
    }
}
