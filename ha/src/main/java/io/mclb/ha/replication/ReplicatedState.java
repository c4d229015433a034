package io.mclb.ha.replication;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

/**
 * Small named state items that modules replicate besides sticky entries, e.g. the GTP Recovery
 * (restart counter) value: {@code state.put("gtp.recovery", new byte[] {n})}. On the active node a
 * put is stored and sent to the standby at once (and again to every standby that joins); on the
 * standby, received items are stored here and {@link Listener}s are told, so a module that takes
 * over reads the latest value with {@link #get}.
 *
 * <p>Thread-safe. Items are meant to be few and small (key up to 255 UTF-8 bytes, value up to
 * 64 KiB) and rarely changed: this is not a data-path channel.
 */
public final class ReplicatedState {
    public static final int MAX_KEY_BYTES = 255;
    public static final int MAX_VALUE_BYTES = 64 * 1024;

    /** Told of an item received from the active node; called on the replication thread: do not block. */
    public interface Listener {
        void onState(String key, byte[] value);
    }

    private final Map<String, byte[]> items = new ConcurrentHashMap<>();
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    /** Set while this node is active with a standby attached; null otherwise. */
    private volatile BiConsumer<String, byte[]> sink;

    /** Stores an item (a copy) and, on the active node, sends it to the standby. */
    public void put(String key, byte[] value) {
        if (key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES || value.length > MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("state item too large: key " + key + ", " + value.length + " bytes");
        }
        byte[] copy = value.clone();
        items.put(key, copy);
        BiConsumer<String, byte[]> s = sink;
        if (s != null) {
            s.accept(key, copy);
        }
    }

    /** A copy of the item, or null. */
    public byte[] get(String key) {
        byte[] v = items.get(key);
        return v == null ? null : v.clone();
    }

    public void addListener(Listener l) {
        listeners.add(l);
    }

    public void removeListener(Listener l) {
        listeners.remove(l);
    }

    /** The items now (copies), for a joining standby. */
    Map<String, byte[]> all() {
        Map<String, byte[]> out = new LinkedHashMap<>();
        items.forEach((k, v) -> out.put(k, v.clone()));
        return out;
    }

    void sink(BiConsumer<String, byte[]> s) {
        sink = s;
    }

    /** An item received from the peer: stored, listeners told, never sent back. */
    void applyRemote(String key, byte[] value) {
        items.put(key, value);
        for (Listener l : listeners) {
            l.onState(key, value.clone());
        }
    }
}
