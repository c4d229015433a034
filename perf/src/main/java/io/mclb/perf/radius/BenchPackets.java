package io.mclb.perf.radius;

import io.mclb.net.DropReason;
import io.netty.buffer.ByteBuf;

/** Writing the RADIUS packets of the benchmarks: header, attributes, the Length field. */
final class BenchPackets {
    private BenchPackets() {
    }

    static void header(ByteBuf buf, int code, int id) {
        buf.writeByte(code).writeByte(id).writeShort(0).writeZero(16);
    }

    static void attr(ByteBuf buf, int type, byte[] value) {
        buf.writeByte(type).writeByte(value.length + 2).writeBytes(value);
    }

    static void finish(ByteBuf buf) {
        buf.setShort(2, buf.writerIndex());
    }

    /** A benchmark must not time drops: its packets have to verify. */
    static void check(DropReason r) {
        if (r != null) {
            throw new IllegalStateException(r.label());
        }
    }
}
