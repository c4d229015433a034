package io.mclb.gtp.v2;

import io.netty.buffer.ByteBuf;

/**
 * Flyweight over an F-TEID value (IE 87, 29.274 section 8.22).
 * <pre>
 *  octet 0: V4 (0x80) | V6 (0x40) | interface type (6 bits)
 *  octets 1-4: TEID / GRE key
 *  then IPv4 (4) if V4, then IPv6 (16) if V6
 * </pre>
 * {@link #wrap} checks that the value holds every part its flags announce.
 */
public final class GtpV2Fteid {
    private ByteBuf buf;
    private int offset;
    private int instance;

    /** False when {@code length} is shorter than 5 plus the announced addresses. */
    public boolean wrap(ByteBuf buf, int offset, int length, int instance) {
        this.buf = buf;
        this.offset = offset;
        this.instance = instance;
        if (length < 5) {
            return false;
        }
        int flags = buf.getByte(offset) & 0xFF;
        int need = 5 + ((flags & 0x80) != 0 ? 4 : 0) + ((flags & 0x40) != 0 ? 16 : 0);
        return length >= need;
    }

    /** Instance of the IE this F-TEID came from (0 sender's, 1 e.g. PGW S5/S8 control plane). */
    public int instance() {
        return instance;
    }

    public int interfaceType() {
        return buf.getByte(offset) & 0x3F;
    }

    public int teid() {
        return buf.getInt(offset + 1);
    }

    public void setTeid(int teid) {
        buf.setInt(offset + 1, teid);
    }

    public boolean hasIpv4() {
        return (buf.getByte(offset) & 0x80) != 0;
    }

    public boolean hasIpv6() {
        return (buf.getByte(offset) & 0x40) != 0;
    }

    /** IPv4 address as an int, 0 when V4 is clear. */
    public int ipv4() {
        return hasIpv4() ? buf.getInt(offset + 5) : 0;
    }

    /** Absolute offset of the IPv4 address (for rewriting), -1 when V4 is clear. */
    public int ipv4Offset() {
        return hasIpv4() ? offset + 5 : -1;
    }

    /** Absolute offset of the IPv6 address, -1 when V6 is clear. */
    public int ipv6Offset() {
        return hasIpv6() ? offset + 5 + (hasIpv4() ? 4 : 0) : -1;
    }

    /** Copies the IPv6 address into {@code dst[0..16)}; false when V6 is clear. */
    public boolean ipv6(byte[] dst) {
        int p = ipv6Offset();
        if (p < 0) {
            return false;
        }
        buf.getBytes(p, dst, 0, 16);
        return true;
    }
}
