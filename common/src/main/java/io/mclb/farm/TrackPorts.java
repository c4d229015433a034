package io.mclb.farm;

import io.mclb.config.MclbConfig;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Track-port groups at run time: when a real that is a group's master changes state, every real
 * of the group's other ports (at the same address, in any farm) is MASTER_DOWN while the master
 * is down, and back when it is up. The master is down when any of its reals (the same address and
 * port in several farms) is FAILED, PROBE_FAILED, TESTING, SUSPECT or OUTOFSERVICE.
 *
 * <p>{@link #apply} (start, reload) swaps an immutable index; {@link #onTransition} runs on the
 * thread of the master's transition, under the master's monitor, and takes only followers'
 * monitors (a follower is never a master: one group per port), so monitors are taken in one order.
 */
public final class TrackPorts {
    private static final Set<RealState> DOWN = EnumSet.of(RealState.FAILED, RealState.PROBE_FAILED,
            RealState.TESTING, RealState.SUSPECT, RealState.OUTOFSERVICE);

    private record Endpoint(InetAddress address, int port) {
    }

    private record Group(Endpoint master, List<RealServer> masters, List<RealServer> followers) {
    }

    private volatile Map<Endpoint, Group> byMaster = Map.of();
    private volatile List<RealServer> following = List.of();

    /** Rebuilds the groups over the running farms and sets every follower's verdict. */
    public synchronized void apply(MclbConfig config, Iterable<ServerFarm> farms) {
        Map<Endpoint, List<RealServer>> reals = new HashMap<>();
        for (ServerFarm f : farms) {
            for (RealServer r : f.reals()) {
                reals.computeIfAbsent(new Endpoint(r.address(), r.port()), k -> new ArrayList<>()).add(r);
            }
        }
        Map<Endpoint, Group> groups = new HashMap<>();
        List<RealServer> followers = new ArrayList<>();
        for (Map.Entry<InetAddress, TrackPort> e : TrackPortSyntax.groups(config)) {
            Endpoint m = new Endpoint(e.getKey(), e.getValue().master());
            if (groups.containsKey(m)) {
                continue; // the same group written under another of its reals
            }
            List<RealServer> fs = new ArrayList<>();
            for (int p : e.getValue().tracked()) {
                fs.addAll(reals.getOrDefault(new Endpoint(e.getKey(), p), List.of()));
            }
            groups.put(m, new Group(m, List.copyOf(reals.getOrDefault(m, List.of())), List.copyOf(fs)));
            followers.addAll(fs);
        }
        for (RealServer r : following) {
            if (!followers.contains(r)) {
                r.health().masterDown(false, "no longer in a track-port group");
            }
        }
        byMaster = Map.copyOf(groups);
        following = List.copyOf(followers);
        for (Group g : groups.values()) {
            update(g);
        }
    }

    /** A real changed state: if it is a master, its followers follow. */
    public void onTransition(RealServer real) {
        Map<Endpoint, Group> groups = byMaster;
        if (groups.isEmpty()) {
            return;
        }
        Group g = groups.get(new Endpoint(real.address(), real.port()));
        if (g != null) {
            update(g);
        }
    }

    private static void update(Group g) {
        RealServer down = null;
        for (RealServer m : g.masters()) {
            if (DOWN.contains(m.state())) {
                down = m;
                break;
            }
        }
        String why = down == null ? "track-port master " + g.master().port() + " is up"
                : "track-port master " + down.label() + " farm " + down.farmName() + " is " + down.state();
        for (RealServer f : g.followers()) {
            f.health().masterDown(down != null, why);
        }
    }
}
