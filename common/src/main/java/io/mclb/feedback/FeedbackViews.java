package io.mclb.feedback;

import io.mclb.admin.AdminServer;
import io.mclb.admin.Table;
import io.mclb.feedback.FeedbackLines.AgentLine;
import io.mclb.feedback.dfp.DfpAgentServer;
import io.mclb.feedback.dfp.DfpManager;
import io.mclb.feedback.dfp.DfpWeights;
import io.mclb.feedback.dfp.HostWeight;
import io.mclb.feedback.kalap.KalApLoad;
import io.mclb.feedback.kalap.KalApLoads;
import io.mclb.feedback.kalap.KalApLoads.VserverLoad;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code show dfp}, {@code show dfp weights} ({@code /api/v1/dfp?table=weights}) and
 * {@code show kal-ap} ({@code /api/v1/kal-ap}, {@code /api/v1/kal-ap/TAG}).
 */
final class FeedbackViews {
    private FeedbackViews() {
    }

    /** {@code show dfp}: the manager's password, its agents, mclb's own agents; or the weights. */
    static AdminServer.View dfp(Supplier<DfpManager> manager, Supplier<Collection<DfpAgentServer>> locals,
                                Supplier<Long> nowNs) {
        return q -> "weights".equals(q.get("table")) || "weights".equals(q.get("item"))
                ? weights(manager.get()) : agents(manager.get(), locals.get(), nowNs.get());
    }

    private static Table agents(DfpManager m, Collection<DfpAgentServer> locals, long nowNs) {
        Table t = new Table("role", "agent", "port", "state", "timeout", "retry_count", "interval", "reports",
                "last_report_s", "note");
        if (m != null) {
            t.row("manager", "-", "-", "-", "-", "-", "-", "-", "-", "passwd " + m.passwords().describe(nowNs));
            for (DfpManager.AgentStatus a : m.status()) {
                AgentLine c = a.config();
                t.row("agent", c.address().getHostAddress(), c.port(), a.state().label(), c.timeoutSeconds(),
                        c.retryCount(), c.retryIntervalSeconds(), a.reports(),
                        a.lastReportAgoMs() < 0 ? "-" : String.format("%.1f", a.lastReportAgoMs() / 1000.0),
                        a.lastError().isEmpty() ? "-" : a.lastError());
            }
        }
        for (DfpAgentServer s : locals) {
            DfpAgentServer.Settings c = s.settings();
            boolean up = c != null && c.inService();
            t.row("local " + s.name(), c == null ? "-" : c.listen().getAddress().getHostAddress(),
                    c == null ? "-" : c.listen().getPort(), up ? "inservice" : "outofservice", "-", "-",
                    c == null ? "-" : c.intervalSeconds(), s.reportsSent(), "-", s.managers() + " manager(s)");
        }
        return t;
    }

    private static Table weights(DfpManager m) {
        Table t = new Table("real", "protocol", "port", "bind_id", "weight", "agent", "set_at", "reals");
        if (m == null) {
            return t;
        }
        for (DfpWeights.Row r : m.weights().rows()) {
            HostWeight h = r.host();
            t.row(HostWeight.text(h.address()), HostWeight.protocolName(h.protocol()), h.port() == 0 ? "any" : h.port(),
                    h.bindId(), h.weight(), r.agent(), Instant.ofEpochMilli(r.atEpochMillis()).toString(), r.reals());
        }
        return t;
    }

    /** {@code show kal-ap} and {@code GET /api/v1/kal-ap/TAG} (503 while offline, 404 for no such tag). */
    static AdminServer.View kalAp(Supplier<List<VserverLoad>> loads) {
        return new AdminServer.View() {
            @Override
            public Table table(Map<String, String> q) {
                List<VserverLoad> all = loads.get();
                String item = q.get("item");
                if (item != null) {
                    return one(all, item);
                }
                String only = q.get("table");
                Table t = new Table("vserver", "tag", "load", "state", "mode", "farm", "active", "inservice",
                        "weight_sum", "farm_weight");
                for (VserverLoad l : all) {
                    if (only == null || only.isEmpty() || only.equals(l.tag()) || only.equals(l.vserver())) {
                        t.row(l.vserver(), l.tag() == null ? "-" : l.tag(), l.load(), l.online() ? "online" : "offline",
                                l.mode().name().toLowerCase(java.util.Locale.ROOT), l.farm(), l.active(),
                                l.inService(), l.weightSum(), l.farmWeight() == 0 ? "-" : l.farmWeight());
                    }
                }
                return t;
            }

            @Override
            public int status(Table t, Map<String, String> q) {
                if (q.get("item") == null) {
                    return 200;
                }
                if (t.rows().isEmpty()) {
                    return 404;
                }
                return KalApLoad.OFFLINE == (int) t.rows().get(0).get("load") ? 503 : 200;
            }
        };
    }

    /** The load of a tag (or, when no virtual server has that tag, of the virtual server so named). */
    private static Table one(List<VserverLoad> all, String item) {
        Table t = new Table("tag", "load", "state", "vservers");
        int load = KalApLoads.ofTag(all, item);
        List<String> names = new ArrayList<>();
        for (VserverLoad l : all) {
            if (load >= 0 ? item.equals(l.tag()) : item.equals(l.vserver())) {
                names.add(l.vserver());
                load = load >= 0 ? load : l.load();
            }
        }
        if (!names.isEmpty()) {
            t.row(item, load, load < KalApLoad.OFFLINE ? "online" : "offline", String.join(",", names));
        }
        return t;
    }
}
