package io.mclb.gtp.lb;

import io.mclb.binding.BindingCodec;
import io.netty.buffer.ByteBuf;

/**
 * A {@link GtpSession} on the HA replication stream: beyond the common binding fields (IMSI as
 * owner, NSAPI/EBI as sub-key, the GGSN's control TEID as alias, the GGSN as real) it carries the
 * GGSN's signalling address and, for a session anchored on the VIP ({@code gtp signalling vip}),
 * the GGSN's own control TEID: there the alias is mclb's TEID, and a standby that took over
 * without the GGSN's would forward follow-ups with a TEID the GGSN never gave out.
 *
 * <pre>
 * +-------------+------------------------------+-----------------------------------------+
 * | length (1)  | GGSN address (0, 4 or 16)    | anchored only: GGSN TEID (4), flags (1) |
 * +-------------+------------------------------+-----------------------------------------+
 * </pre>
 * flags bit 0: anchored. A stream from a node without the VIP mode has no trailer.
 * Registered on {@link GtpSession#KIND} by {@link GtpServiceModule}. Stateless.
 */
final class GtpSessionCodec implements BindingCodec<GtpSession> {
    static final GtpSessionCodec INSTANCE = new GtpSessionCodec();
    private static final int ANCHORED = 1;
    private static final int ANCHOR_BYTES = 5;

    private GtpSessionCodec() {
    }

    @Override
    public void writeExtra(GtpSession s, ByteBuf out) {
        byte[] a = s.ggsnAddress();
        out.writeByte(a == null ? 0 : a.length);
        if (a != null) {
            out.writeBytes(a);
        }
        if (s.anchored()) {
            out.writeInt(s.ggsnTeid());
            out.writeByte(ANCHORED);
        }
    }

    @Override
    public GtpSession read(Fields f, ByteBuf extra) {
        if (!extra.isReadable()) {
            return null;
        }
        int len = extra.readUnsignedByte();
        int trailer = extra.readableBytes() - len;
        if ((len != 0 && len != 4 && len != 16) || (trailer != 0 && trailer != ANCHOR_BYTES)) {
            return null;
        }
        byte[] ggsn = null;
        if (len > 0) {
            ggsn = new byte[len];
            extra.readBytes(ggsn);
        }
        if (trailer == 0) {
            // the alias keeps its version bit (GtpSession.alias): a v2 session stays a v2 one on the standby
            return new GtpSession(f.owner(), f.sub(), f.real(), f.alias(), (int) f.alias(), false, ggsn, f.nowNs(),
                    f.idleNs());
        }
        int ggsnTeid = extra.readInt();
        if (extra.readUnsignedByte() != ANCHORED) {
            return null;
        }
        return new GtpSession(f.owner(), f.sub(), f.real(), f.alias(), ggsnTeid, true, ggsn, f.nowNs(), f.idleNs());
    }
}
