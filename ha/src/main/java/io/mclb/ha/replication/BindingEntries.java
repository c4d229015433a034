package io.mclb.ha.replication;

import io.mclb.binding.Binding;
import io.mclb.binding.BindingCodec;
import io.mclb.binding.BindingKind;
import io.mclb.farm.RealServer;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * Binding entries on the replication stream (frames {@link FrameType#BINDING_OPEN},
 * {@link FrameType#BINDING_CLOSE}, {@link FrameType#BINDING_SNAPSHOT}). The kind is named by its
 * label and the real by farm name, address and port, so the standby resolves both against its own
 * configuration (ids may differ between processes; a real it lacks is counted, not fatal). The
 * idle expiry travels as the time left, so clocks of the two nodes need not agree.
 *
 * <pre>
 * open:  | kind len (1) | kind (UTF-8) | owner (8) | sub (4) | alias (8) | idle ns (8) | remaining ns (8) |
 *        | farm len (1) | farm (UTF-8) | addr len (1: 4|16) | address | port (2) | extra len (2) | extra |
 * close: | kind len (1) | kind (UTF-8) | owner (8) | sub (4) |
 * </pre>
 * All integers big-endian; {@code extra} is what the kind's {@link BindingCodec} writes. Stateless.
 */
final class BindingEntries {
    /** owner, sub, alias, idle, remaining. */
    private static final int FIXED = 8 + 4 + 8 + 8 + 8;
    /** Largest open entry: two 255-byte names, a v6 address and the largest extra. */
    static final int MAX_OPEN = 1 + 255 + FIXED + 1 + 255 + 1 + 16 + 2 + 2 + BindingCodec.MAX_EXTRA;

    private BindingEntries() {
    }

    static void writeOpen(ByteBuf out, BindingKind<?> kind, Binding b, long nowNs) {
        writeName(out, kind.label());
        out.writeLong(b.owner()).writeInt(b.sub()).writeLong(b.alias()).writeLong(b.idleNs())
                .writeLong(Math.max(0, b.remainingNs(nowNs)));
        RealServer r = b.real();
        writeName(out, r.farmName());
        byte[] a = r.address().getAddress();
        out.writeByte(a.length).writeBytes(a).writeShort(r.port());
        int lengthAt = out.writerIndex();
        out.writeShort(0);
        extra(kind).writeExtra(b, out);
        int extra = out.writerIndex() - lengthAt - 2;
        if (extra > BindingCodec.MAX_EXTRA) {
            throw new IllegalStateException(kind + " codec wrote " + extra + " bytes, at most "
                    + BindingCodec.MAX_EXTRA + " are allowed");
        }
        out.setShort(lengthAt, extra);
    }

    static void writeClose(ByteBuf out, BindingKind<?> kind, Binding b) {
        writeName(out, kind.label());
        out.writeLong(b.owner()).writeInt(b.sub());
    }

    /** Length of the well-formed open entry at {@code p} (before {@code end}), or -1. */
    static int openLength(ByteBuf f, int p, int end) {
        int q = name(f, p, end);
        if (q < 0 || q + FIXED > end) {
            return -1;
        }
        q = name(f, q + FIXED, end);
        if (q < 0 || q >= end) {
            return -1;
        }
        int addr = f.getUnsignedByte(q);
        if (addr != 4 && addr != 16) {
            return -1;
        }
        q += 1 + addr + 2;
        if (q + 2 > end) {
            return -1;
        }
        int extra = f.getUnsignedShort(q);
        q += 2 + extra;
        return extra <= BindingCodec.MAX_EXTRA && q <= end ? q - p : -1;
    }

    /** Length of the well-formed close entry at {@code p}, or -1. */
    static int closeLength(ByteBuf f, int p, int end) {
        int q = name(f, p, end);
        return q < 0 || q + 12 > end ? -1 : q + 12 - p;
    }

    /** Whether {@code [p, p + len)} is a whole number of well-formed open entries, at least one. */
    static boolean openEntries(ByteBuf f, int p, int len) {
        int end = p + len;
        if (len <= 0) {
            return false;
        }
        while (p < end) {
            int n = openLength(f, p, end);
            if (n < 0) {
                return false;
            }
            p += n;
        }
        return true;
    }

    /** The key of a binding for the standby's snapshot marks: kind, owner and sub-key mixed to 64 bits. */
    static long keyHash(String kind, long owner, int sub) {
        long h = (owner ^ ((long) sub << 40) ^ ((long) sub >>> 24)) * 0x9E3779B97F4A7C15L;
        h ^= kind.hashCode() * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        return h ^ (h >>> 29);
    }

    /** After the name at {@code p}: the index just past it, or -1. */
    private static int name(ByteBuf f, int p, int end) {
        if (p >= end) {
            return -1;
        }
        int q = p + 1 + f.getUnsignedByte(p);
        return q <= end ? q : -1;
    }

    private static void writeName(ByteBuf out, String name) {
        byte[] b = name.getBytes(StandardCharsets.UTF_8);
        if (b.length > 255) {
            throw new IllegalStateException("name longer than 255 bytes: " + name);
        }
        out.writeByte(b.length).writeBytes(b);
    }

    @SuppressWarnings("unchecked")
    private static BindingCodec<Binding> extra(BindingKind<?> kind) {
        return (BindingCodec<Binding>) kind.codec();
    }
}
