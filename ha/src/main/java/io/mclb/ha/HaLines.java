package io.mclb.ha;

import io.mclb.config.SourceRef;

import java.net.InetAddress;
import java.util.List;
import java.util.Objects;

/**
 * The records of the HA configuration lines ({@link HaConfigReader} reads them once when
 * {@link HaSyntax} claims them; runtime code reads only these). The grammar is in
 * {@link HaConfigReader}.
 */
final class HaLines {
    private HaLines() {
    }

    /** global {@code track N interface IFACE line-protocol}. */
    record TrackLine(int object, String iface) {
    }

    /** global {@code mclb ha port N}: the UDP port of the hellos. */
    record HaPort(int port) {
    }

    /**
     * global {@code mclb failover stop handover|no-handover}: whether an orderly stop (SIGTERM,
     * {@code mclb stop}) hands the active role over at once (default) or leaves the standby standing by.
     */
    record StopHandover(boolean handover) {
    }

    /** global {@code mclb ha vip-control linux|noop}: noop leaves the addresses alone (unprivileged tests). */
    enum VipControl { LINUX, NOOP }

    /**
     * An {@code interface NAME} stanza: the interface's own address and its groups.
     *
     * @param address {@code ip address A ...}; null only when the stanza has no groups
     * @param prefix  its prefix length
     * @param version {@code standby version 1|2}, default 1
     */
    record HaInterface(String name, InetAddress address, int prefix, int version, List<Standby> groups) {
        HaInterface {
            Objects.requireNonNull(name, "name");
            groups = List.copyOf(groups);
        }
    }

    /**
     * The {@code standby G ...} lines of one group, as {@link io.mclb.ha.group.GroupConfig} takes them
     * but with its tracked objects by number: the {@code track N} lines they name may come later
     * in the file, so they are resolved when the whole configuration is read.
     *
     * @param name the group name, already defaulted to {@code hsrp-IFACE-G} as IOS does
     * @param vip  null: learnt from the active peer
     * @param key  the clear {@code authentication md5 key-string}, or null
     */
    record Standby(int group, String name, InetAddress vip, int priority, boolean preempt, long preemptDelayMs,
                   int helloMs, int holdMs, String key, List<TrackRef> tracks, List<InetAddress> peers) {
        Standby {
            Objects.requireNonNull(name, "name");
            tracks = List.copyOf(tracks);
            peers = List.copyOf(peers);
        }

        @Override
        public String toString() {
            // the key never reaches logs
            return "Standby[group=" + group + ", name=" + name + ", key=" + (key == null ? "none" : "***") + "]";
        }
    }

    /**
     * {@code standby G track N [decrement D]}; {@code source} is its line, where an unknown object is
     * reported.
     */
    record TrackRef(int object, int decrement, SourceRef source) {
    }
}
