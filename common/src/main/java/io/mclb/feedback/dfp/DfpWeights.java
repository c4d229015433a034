package io.mclb.feedback.dfp;

import io.mclb.farm.RealServer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The weights DFP agents reported and their effect on reals (reference/dfp-kalap.md sections 4.4, 5).
 * A weight for (real IP, port, protocol, bind ID) overrides the static weight of that real in every
 * farm with that bind ID (a farm without {@code bindid} is bind ID 0); port 0 and protocol 0 mean
 * any; mclb balances UDP, so protocol 17 or 0 matches. When two agents report one real, the latest
 * report wins; when an agent goes away its entries go, and each real it set falls back to the
 * other agents' latest entry or to its static weight. An entry that matches no real is ignored
 * and counted.
 *
 * <p>Confined to the DFP event loop; views read {@link #rows()}, an immutable list published
 * after every change.
 */
public final class DfpWeights {
    /** A reported entry, for {@code show dfp weights}. */
    public record Row(HostWeight host, String agent, long atEpochMillis, int reals) {
    }

    /** A real DFP can reach: its IPv4 address, the ports it serves, its farm's bind ID. */
    public record Target(RealServer real, int address, int[] ports, int bindId) {
        boolean matches(HostWeight h) {
            if (h.address() != address || h.bindId() != bindId) {
                return false;
            }
            if (h.protocol() != DfpWire.PROTOCOL_ANY && h.protocol() != DfpWire.PROTOCOL_UDP) {
                return false;
            }
            if (h.port() == 0) {
                return true;
            }
            for (int p : ports) {
                if (p == h.port()) {
                    return true;
                }
            }
            return false;
        }
    }

    private record Entry(HostWeight host, long seq, long atEpochMillis) {
    }

    private record Key(int address, int port, int protocol, int bindId) {
        static Key of(HostWeight h) {
            return new Key(h.address(), h.port(), h.protocol(), h.bindId());
        }
    }

    private final Map<String, Map<Key, Entry>> byAgent = new LinkedHashMap<>();
    private Map<Integer, List<Target>> targets = Map.of();
    private long seq;
    private volatile List<Row> rows = List.of();

    /** The reals DFP can reach changed (start, reload): re-derives every real's weight. */
    public void retarget(List<Target> all) {
        Map<Integer, List<Target>> next = new HashMap<>();
        for (Target t : all) {
            next.computeIfAbsent(t.address(), a -> new ArrayList<>()).add(t);
        }
        Map<Integer, List<Target>> old = targets;
        targets = next;
        for (List<Target> ts : old.values()) {
            for (Target t : ts) {
                if (!stillTargeted(t.real())) {
                    t.real().setDfpWeight(-1);
                }
            }
        }
        for (List<Target> ts : next.values()) {
            ts.forEach(this::recompute);
        }
        publish();
    }

    private boolean stillTargeted(RealServer r) {
        if (!(r.address() instanceof java.net.Inet4Address)) {
            return false;
        }
        List<Target> ts = targets.get(HostWeight.ipv4(r.address()));
        if (ts != null) {
            for (Target t : ts) {
                if (t.real() == r) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Applies one Preference Information of {@code agent} (already validated as a whole).
     *
     * @return how many of its entries matched no real
     */
    public int apply(String agent, List<HostWeight> hosts, long nowEpochMillis) {
        Map<Key, Entry> mine = byAgent.computeIfAbsent(agent, a -> new LinkedHashMap<>());
        int unknown = 0;
        for (HostWeight h : hosts) {
            mine.put(Key.of(h), new Entry(h, ++seq, nowEpochMillis));
            boolean matched = false;
            for (Target t : targets.getOrDefault(h.address(), List.of())) {
                if (t.matches(h)) {
                    matched = true;
                    recompute(t);
                }
            }
            if (!matched) {
                unknown++;
            }
        }
        publish();
        return unknown;
    }

    /** The agent's connection ended: its entries go, the reals it set get their next-best weight. */
    public void forget(String agent) {
        Map<Key, Entry> gone = byAgent.remove(agent);
        if (gone == null || gone.isEmpty()) {
            return;
        }
        for (Entry e : gone.values()) {
            for (Target t : targets.getOrDefault(e.host().address(), List.of())) {
                if (t.matches(e.host())) {
                    recompute(t);
                }
            }
        }
        publish();
    }

    /** The weight of the latest entry of any agent that matches {@code t}, or static. */
    private void recompute(Target t) {
        Entry best = null;
        for (Map<Key, Entry> entries : byAgent.values()) {
            for (Entry e : entries.values()) {
                if (t.matches(e.host()) && (best == null || e.seq() > best.seq())) {
                    best = e;
                }
            }
        }
        t.real().setDfpWeight(best == null ? -1 : best.host().weight());
    }

    private void publish() {
        List<Row> out = new ArrayList<>();
        for (Map.Entry<String, Map<Key, Entry>> a : byAgent.entrySet()) {
            for (Entry e : a.getValue().values()) {
                int n = 0;
                for (Target t : targets.getOrDefault(e.host().address(), List.of())) {
                    n += t.matches(e.host()) ? 1 : 0;
                }
                out.add(new Row(e.host(), a.getKey(), e.atEpochMillis(), n));
            }
        }
        rows = List.copyOf(out);
    }

    /** Every entry now, agent by agent in the order they first reported. */
    public List<Row> rows() {
        return rows;
    }
}
