package io.mclb.ha;

import io.mclb.admin.AdminServer;
import io.mclb.admin.Table;
import io.mclb.ha.group.GroupConfig;
import io.mclb.ha.group.GroupManager;
import io.mclb.ha.group.Hello;
import io.mclb.ha.group.HsrpState;
import io.mclb.ha.group.LinkState;
import io.mclb.ha.group.StandbyGroup;

import java.time.Instant;
import java.util.Arrays;
import java.util.Map;

/**
 * {@code mclb show failover}, after LocalDirector's {@code show failover}: per group a "This host"
 * and an "Other host" row with role (Primary = the higher configured priority, ties by address, as
 * the unit that wins a cold election), state, active time, interface and address, and the link state
 * ({@code Normal} when the line protocol is up, else {@code Failed}). The other host's columns come
 * from its last hello; {@code Unknown} when none was heard within its hold time.
 *
 * <p>LocalDirector's own columns besides the HSRP state: {@code failover} Active, Standby or Failed
 * (this node's interface tests failed: it is out until its link returns or {@code failover reset}),
 * {@code monitoring} {@code Waiting} until six hellos from the peer were heard in a row (the seed's
 * "Normal (Waiting)": the site is not protected yet) then {@code Normal}, and the reason and UTC time
 * of this node's last state change.
 */
final class FailoverView implements AdminServer.View {
    private final GroupManager manager;
    private final LinkState links;

    FailoverView(GroupManager manager, LinkState links) {
        this.manager = manager;
        this.links = links;
    }

    @Override
    public Table table(Map<String, String> query) {
        Table t = new Table("group", "host", "role", "state", "active_time_s", "interface", "address", "link",
                "priority", "connectivity", "failover", "monitoring", "last_change", "last_change_at");
        long now = manager.clock().nanoTime();
        long nowEpochMs = manager.clock().epochMillis();
        for (StandbyGroup g : manager.groups().values()) {
            GroupConfig c = g.config();
            Hello p = g.peer();
            boolean peerFresh = p != null && now - g.peerHeardNs() < p.holdMs() * 1_000_000L;
            boolean primary = p == null || c.priority() > p.priority() || (c.priority() == p.priority()
                    && Arrays.compareUnsigned(c.address().getAddress(), p.sender().getAddress()) > 0);
            String name = c.name() + " (" + c.group() + ")";
            String monitoring = g.failover().waiting() ? "Waiting" : "Normal";
            t.row(name, "This host", primary ? "Primary" : "Secondary",
                    g.state().label() + (g.forced() ? " (forced)" : ""), g.activeForMs(now) / 1000, c.iface(),
                    c.address().getHostAddress(), links.up(c.iface()) ? "Normal" : "Failed", g.effectivePriority(),
                    g.score(), g.failoverState(), monitoring, g.lastReason(),
                    Instant.ofEpochMilli(nowEpochMs - (now - g.stateSinceNs()) / 1_000_000L).toString());
            if (p == null) {
                t.row(name, "Other host", "-", "Unknown", 0, c.iface(), "-", "Unknown", "-", "-", "Unknown", monitoring,
                        "-", "-");
            } else {
                HsrpState s = peerFresh ? p.state() : null;
                t.row(name, "Other host", primary ? "Secondary" : "Primary",
                        s == null ? "Unknown (silent " + (now - g.peerHeardNs()) / 1_000_000_000L + " s)" : s.label(),
                        peerFresh ? p.activeForMs() / 1000 : 0, c.iface(), p.sender().getHostAddress(),
                        peerFresh ? (p.score() == 1000 ? "Normal" : "Degraded") : "Unknown", p.priority(), p.score(),
                        peerFailover(p, peerFresh), monitoring, "-", "-");
            }
        }
        return t;
    }

    /** The peer's role from its last message: a STOP says it stopped without handing over. */
    private static String peerFailover(Hello p, boolean fresh) {
        if (p.type() == Hello.Type.STOP) {
            return "Stopped (no handover)";
        }
        if (!fresh) {
            return "Unknown";
        }
        return p.state() == HsrpState.ACTIVE ? "Active" : "Standby";
    }
}
