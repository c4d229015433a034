package io.mclb.gtp.asn;

import io.mclb.binding.BindingCodec;
import io.netty.buffer.ByteBuf;

/**
 * An {@link AsnBinding} on the HA replication stream: the common binding fields (the MSID as owner,
 * the gateway as real, the idle lifetime and the time left of it) are all it holds, so it adds
 * nothing. Registered on {@link AsnBinding#KIND} by {@link AsnServiceModule}. Stateless.
 */
final class AsnBindingCodec implements BindingCodec<AsnBinding> {
    static final AsnBindingCodec INSTANCE = new AsnBindingCodec();

    private AsnBindingCodec() {
    }

    @Override
    public void writeExtra(AsnBinding b, ByteBuf out) {
        // nothing beyond the common fields
    }

    @Override
    public AsnBinding read(Fields f, ByteBuf extra) {
        return extra.isReadable() ? null : new AsnBinding(f.owner(), f.real(), f.nowNs(), f.idleNs());
    }
}
