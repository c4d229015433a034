package io.mclb.runtime;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Small named values a protocol module wants on the HA standby, e.g. GTP's Recovery
 * ({@code "gtp.recovery"}), without depending on the HA module: the module {@link #publish}es its
 * value and {@link #onReceived subscribes} to the active's; the replication extension, when present,
 * {@link #attach}es and {@link #deliver}s. Without replication, publishing only records the value.
 *
 * <p>One instance per runtime ({@link io.mclb.vserver.ServiceContext#replicatedValues()}). Thread-safe;
 * values are few, small and rarely changed (not a data-path channel). Arrays are copied in and out.
 */
public final class ReplicatedValues {
    private final Map<String, byte[]> published = new ConcurrentHashMap<>();
    private final Map<String, Consumer<byte[]>> receivers = new ConcurrentHashMap<>();
    /** The replication side's sink, or null while none is attached. */
    private volatile BiConsumer<String, byte[]> sink;

    /** Module side: this node's current value; forwarded to the replication sink when one is attached. */
    public void publish(String key, byte[] value) {
        byte[] copy = value.clone();
        published.put(key, copy);
        BiConsumer<String, byte[]> s = sink;
        if (s != null) {
            s.accept(key, copy.clone());
        }
    }

    /**
     * Module side: {@code receiver} gets each value the active node publishes under {@code key}
     * (on the replication thread: store it, do not block). One receiver per key; a later one replaces it.
     */
    public void onReceived(String key, Consumer<byte[]> receiver) {
        receivers.put(key, receiver);
    }

    /** Replication side: from now on published values go to {@code s}; the values published so far are replayed to it. */
    public void attach(BiConsumer<String, byte[]> s) {
        sink = s;
        published.forEach((k, v) -> s.accept(k, v.clone()));
    }

    /** Replication side: stops forwarding. */
    public void detach() {
        sink = null;
    }

    /** Replication side: a value the active node published; handed to its receiver, if any. */
    public void deliver(String key, byte[] value) {
        Consumer<byte[]> r = receivers.get(key);
        if (r != null) {
            r.accept(value.clone());
        }
    }

    /** This node's published value, or null. */
    public byte[] published(String key) {
        byte[] v = published.get(key);
        return v == null ? null : v.clone();
    }
}
