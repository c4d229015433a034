package io.mclb.ha.group;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether an interface's line protocol is up: what {@code track N interface IFACE line-protocol}
 * and the connectivity score read. The privileged-free Linux source is sysfs; tests use {@link Fixed}.
 */
public interface LinkState {

    boolean up(String iface);

    /**
     * Reads {@code /sys/class/net/IFACE/operstate}: {@code up} and {@code unknown} (loopback, some
     * virtual links report it) count as up; anything else, or a missing interface, as down.
     */
    LinkState SYSFS = iface -> {
        try {
            String s = Files.readString(Path.of("/sys/class/net", iface, "operstate")).trim();
            return s.equals("up") || s.equals("unknown");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    };

    /** A twin for tests: every interface is up until set down. */
    final class Fixed implements LinkState {
        private final Map<String, Boolean> down = new ConcurrentHashMap<>();

        public void set(String iface, boolean up) {
            if (up) {
                down.remove(iface);
            } else {
                down.put(iface, Boolean.TRUE);
            }
        }

        @Override
        public boolean up(String iface) {
            return !down.containsKey(iface);
        }
    }
}
