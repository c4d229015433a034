package io.mclb.gtp.lb;

import io.mclb.binding.BindingCodec;
import io.netty.buffer.ByteBuf;

/**
 * A {@link GtpSession} on the HA replication stream: beyond the common binding fields (IMSI as
 * owner, NSAPI/EBI as sub-key, the GGSN's control TEID as alias, the GGSN as real) it carries the
 * GGSN's signalling address.
 *
 * <pre>
 * +-------------+------------------------------+
 * | length (1)  | GGSN address (0, 4 or 16)    |
 * +-------------+------------------------------+
 * </pre>
 * Registered on {@link GtpSession#KIND} by {@link GtpServiceModule}. Stateless.
 */
final class GtpSessionCodec implements BindingCodec<GtpSession> {
    static final GtpSessionCodec INSTANCE = new GtpSessionCodec();

    private GtpSessionCodec() {
    }

    @Override
    public void writeExtra(GtpSession s, ByteBuf out) {
        byte[] a = s.ggsnAddress();
        out.writeByte(a == null ? 0 : a.length);
        if (a != null) {
            out.writeBytes(a);
        }
    }

    @Override
    public GtpSession read(Fields f, ByteBuf extra) {
        if (!extra.isReadable()) {
            return null;
        }
        int len = extra.readUnsignedByte();
        if ((len != 0 && len != 4 && len != 16) || extra.readableBytes() != len) {
            return null;
        }
        byte[] ggsn = null;
        if (len > 0) {
            ggsn = new byte[len];
            extra.readBytes(ggsn);
        }
        return new GtpSession(f.owner(), f.sub(), f.real(), (int) f.alias(), ggsn, f.nowNs(), f.idleNs());
    }
}
