package io.mclb.radius.lb;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which framed-IP sticky entries each NAS created (NAS IPv4 address -> (group, framed IP)
 * pairs), so that its Accounting-On/Off can remove all of them without walking the whole sticky
 * table. Thread-safe: every event loop learns, the purge thread removes. Learning boxes one
 * {@code Long} per new session (Access-Accept/Accounting-Start), not per datagram.
 */
final class FramedIpIndex {
    private final ConcurrentHashMap<Integer, Set<Long>> byNas = new ConcurrentHashMap<>();

    static long entry(int group, int framedIp) {
        return ((long) group << 32) | (framedIp & 0xffffffffL);
    }

    void add(int nas, int group, int framedIp) {
        byNas.computeIfAbsent(nas, k -> ConcurrentHashMap.newKeySet()).add(entry(group, framedIp));
    }

    void remove(int nas, int group, int framedIp) {
        Set<Long> s = byNas.get(nas);
        if (s != null) {
            s.remove(entry(group, framedIp));
        }
    }

    /** Takes and forgets every entry of {@code nas}. */
    Set<Long> drain(int nas) {
        Set<Long> s = byNas.remove(nas);
        return s == null ? Set.of() : s;
    }

    int size(int nas) {
        Set<Long> s = byNas.get(nas);
        return s == null ? 0 : s.size();
    }
}
