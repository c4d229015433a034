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
 * flags bit 1 (SGSN side anchored) only:
 * +----------------+-----------------+------------------------------+
 * | SGSN TEID (4)  | length (1)      | SGSN address (4 or 16)       |
 * +----------------+-----------------+------------------------------+
 * </pre>
 * flags bit 0: anchored; bit 1: the SGSN side too (GGSN-initiated requests are relayed to that
 * address, port 2123, with that TEID); bit 2 with bit 1: a GTPv0 session, whose SGSN is on port
 * 3386 (its TEID is 0: the TID names the context). A stream from a node without the VIP mode has no trailer,
 * one from a node before the SGSN side was anchored only the first 5 octets: both still read.
 * Registered on {@link GtpSession#KIND} by {@link GtpServiceModule}. Stateless.
 */
final class GtpSessionCodec implements BindingCodec<GtpSession> {
    static final GtpSessionCodec INSTANCE = new GtpSessionCodec();
    private static final int ANCHORED = 1;
    private static final int SGSN_ANCHORED = 2;
    /** The SGSN side is GTPv0's: its requests go to port 3386, not 2123. */
    private static final int SGSN_V0 = 4;
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
            GtpSession.SgsnSide side = s.sgsnSide(); // read once: an SGSN change on a loop must not tear it
            int flags = side == null ? 0
                    : side.signalling().getPort() == SgsnAnchor.GTP_V0_PORT ? SGSN_ANCHORED | SGSN_V0 : SGSN_ANCHORED;
            out.writeByte(ANCHORED | flags);
            if (side != null) {
                out.writeInt(side.teid());
                out.writeByte(side.address().length);
                out.writeBytes(side.address());
            }
        }
    }

    @Override
    public GtpSession read(Fields f, ByteBuf extra) {
        if (!extra.isReadable()) {
            return null;
        }
        int len = extra.readUnsignedByte();
        int trailer = extra.readableBytes() - len;
        if ((len != 0 && len != 4 && len != 16) || (trailer != 0 && trailer < ANCHOR_BYTES)) {
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
        int flags = extra.readUnsignedByte();
        if (flags == ANCHORED && !extra.isReadable()) {
            return new GtpSession(f.owner(), f.sub(), f.real(), f.alias(), ggsnTeid, true, ggsn, f.nowNs(),
                    f.idleNs());
        }
        if ((flags & ~SGSN_V0) != (ANCHORED | SGSN_ANCHORED) || extra.readableBytes() < 5) {
            return null;
        }
        int sgsnTeid = extra.readInt();
        int sgsnLength = extra.readUnsignedByte();
        if ((sgsnLength != 4 && sgsnLength != 16) || extra.readableBytes() != sgsnLength) {
            return null;
        }
        byte[] sgsn = new byte[sgsnLength];
        extra.readBytes(sgsn);
        return new GtpSession(f.owner(), f.sub(), f.real(), f.alias(), ggsnTeid, true, ggsn, sgsnTeid,
                SgsnAnchor.signalling(sgsn, (flags & SGSN_V0) != 0 ? 0 : 1), f.nowNs(), f.idleNs());
    }
}
