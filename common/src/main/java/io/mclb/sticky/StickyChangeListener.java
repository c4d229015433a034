package io.mclb.sticky;

/**
 * Told of every change to a sticky table, on the thread that made it (an event loop or the
 * expiry sweeper): the HA replicator streams these to the standby, the runtime keeps per-real
 * client counts. Implementations must be quick and must not block; the byte arrays are only valid
 * during the call (copy what you keep).
 */
public interface StickyChangeListener {
    /** An entry was written (new or refreshed); {@code previous} is null if it is new. */
    void onPut(byte[] key, byte[] value, byte[] previous);

    /** An entry was removed; {@code reason} says why. */
    void onRemove(byte[] key, byte[] value, RemoveReason reason);

    enum RemoveReason { EXPIRED, PURGED, DELETED, REPLICATED }
}
