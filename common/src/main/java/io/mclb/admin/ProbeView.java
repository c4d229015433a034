package io.mclb.admin;

import io.mclb.probe.ProbeStatus;
import io.mclb.runtime.MclbRuntime;

import java.util.Map;

/**
 * {@code show probe [name NAME] [detail]} (IOS {@code show ip slb probe}): one row per probe and
 * real with its target, the probe's verdict, last result and round trip and the consecutive
 * failures; {@code detail} adds the timing, the real's own state, the counts and why the last
 * check failed.
 */
final class ProbeView {
    private ProbeView() {
    }

    /**
     * @param a     the CLI's qualifiers ({@code name NAME}, {@code detail})
     * @param query the API's own parameters, {@code name} and {@code detail} (any value)
     */
    static Table table(MclbRuntime rt, ShowArgs a, Map<String, String> query) {
        String typed = a.value("name");
        boolean detail = a.flag("detail") || query.containsKey("detail");
        a.end("name NAME, detail");
        String name = typed != null ? typed : query.get("name");
        if (name != null && !name.isEmpty() && rt.probeStatus().stream().noneMatch(s -> s.probe().equals(name))) {
            throw new ShowArgs.BadQualifier("show probe name " + name + ": no such probe attached to a real");
        }
        Table t = detail
                ? new Table("probe", "type", "farm", "real", "target", "state", "real_state", "last_result", "rtt_ms",
                "fails", "interval_s", "faildetect", "timeout_s", "passed", "failed", "timeouts", "last_check_s_ago",
                "reason")
                : new Table("probe", "type", "farm", "real", "target", "state", "last_result", "rtt_ms", "fails");
        for (ProbeStatus s : rt.probeStatus()) {
            if (name != null && !name.isEmpty() && !s.probe().equals(name)) {
                continue;
            }
            String rtt = s.lastRttNs() < 0 ? "-" : String.format(java.util.Locale.ROOT, "%.3f", s.lastRttNs() / 1e6);
            if (detail) {
                t.row(s.probe(), s.type(), s.farm(), s.real(), s.target(), s.state(), s.realState(), s.lastResult(),
                        rtt, s.consecutiveFailures(), s.intervalSeconds(), s.faildetect(), s.timeoutSeconds(),
                        s.passes(), s.failures(), s.timeouts(),
                        s.lastCheckAgeMs() < 0 ? "-" : String.valueOf(s.lastCheckAgeMs() / 1000),
                        s.lastReason().isEmpty() ? "-" : s.lastReason());
            } else {
                t.row(s.probe(), s.type(), s.farm(), s.real(), s.target(), s.state(), s.lastResult(), rtt,
                        s.consecutiveFailures());
            }
        }
        return t;
    }
}
