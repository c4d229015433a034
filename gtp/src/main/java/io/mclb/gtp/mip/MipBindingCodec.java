package io.mclb.gtp.mip;

import io.mclb.binding.BindingCodec;
import io.netty.buffer.ByteBuf;

/**
 * A {@link MipBinding} on the HA replication stream: beyond the common binding fields (NAI hash or
 * Home Address as owner, which of the two as sub-key, the home agent as real, the time left of the
 * lifetime) it carries the lifetime the home agent granted.
 *
 * <pre>
 * +----------------------------+
 * | granted lifetime s (BE, 2) |
 * +----------------------------+
 * </pre>
 * Registered on {@link MipBinding#KIND} by {@link MipServiceModule}. Stateless.
 */
final class MipBindingCodec implements BindingCodec<MipBinding> {
    static final MipBindingCodec INSTANCE = new MipBindingCodec();

    private MipBindingCodec() {
    }

    @Override
    public void writeExtra(MipBinding b, ByteBuf out) {
        out.writeShort(b.grantedSeconds());
    }

    @Override
    public MipBinding read(Fields f, ByteBuf extra) {
        if (extra.readableBytes() != 2) {
            return null;
        }
        return new MipBinding(f.owner(), f.sub(), f.real(), extra.readUnsignedShort(), f.nowNs());
    }
}
