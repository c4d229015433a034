package io.mclb.binding;

import io.mclb.farm.RealServer;
import io.netty.buffer.ByteBuf;

/**
 * How the module that owns a {@link BindingKind} carries its bindings to the HA standby. The
 * replication writes the fields every binding has (owner, sub-key, alias, real by farm and
 * address, idle lifetime and the time left of it); the codec adds what its binding holds beyond
 * them (a GTP session's GGSN signalling address) and rebuilds the binding on the standby. Declared
 * once with {@link BindingKind#codec(BindingCodec)}, so the engine and the HA code stay protocol
 * agnostic. Implementations are stateless: the active's replication thread, its snapshot walker
 * and the standby's apply thread call them concurrently.
 *
 * @param <B> the module's binding type
 */
public interface BindingCodec<B extends Binding> {
    /** Most bytes {@link #writeExtra} may write. */
    int MAX_EXTRA = 1024;

    /** The common fields of a binding received from the active node, its real resolved here. */
    record Fields(long owner, int sub, RealServer real, long alias, long nowNs, long idleNs) {
    }

    /** Appends what the binding holds beyond {@link Fields} (nothing is fine), at most {@link #MAX_EXTRA} bytes. */
    void writeExtra(B binding, ByteBuf out);

    /**
     * Rebuilds a binding from its common fields and exactly the bytes {@link #writeExtra} wrote
     * (readable from {@code extra}'s reader index); null if they do not decode (counted, skipped).
     */
    B read(Fields fields, ByteBuf extra);
}
