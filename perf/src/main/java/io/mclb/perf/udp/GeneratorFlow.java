package io.mclb.perf.udp;

import io.mclb.perf.load.ClientFlow;
import io.mclb.perf.load.LoadDriver;
import io.netty.buffer.ByteBuf;

/**
 * One client socket of a {@link UdpTrafficGenerator}: requests carry the flow's request counter
 * as their first 8 bytes; an answer settles the outstanding request whose counter it starts with.
 * Each slot also keeps its counter, so a stale answer for a reused slot does not match.
 */
final class GeneratorFlow extends ClientFlow {
    private final int requestBytes;
    private final long[] seqAt;
    private long sent;
    private long answered;
    private long lost;

    GeneratorFlow(LoadDriver<GeneratorFlow, ?> driver, int requestBytes, int slots) {
        super(driver, slots, "UDP");
        this.requestBytes = requestBytes;
        this.seqAt = new long[slots];
    }

    long sent() {
        return sent;
    }

    long answered() {
        return answered;
    }

    long lost() {
        return lost;
    }

    @Override
    protected int requestCapacity() {
        return requestBytes;
    }

    @Override
    protected void encodeRequest(ByteBuf out, int slot, long nowNanos) {
        out.writeLong(next).writeZero(requestBytes - Long.BYTES);
        seqAt[slot] = next;
        sent++;
    }

    @Override
    protected void onLost(int slot) {
        lost++;
    }

    @Override
    protected void onResponse(ByteBuf content, long nowNanos) {
        if (content.readableBytes() < Long.BYTES) {
            return;
        }
        long seq = content.getLong(content.readerIndex());
        if (seq < head || seq >= next) {
            return; // late (already lost), duplicate or foreign
        }
        int slot = (int) (seq & mask);
        if (seqAt[slot] != seq || sendNanos[slot] == SETTLED) {
            return;
        }
        recordLatency(nowNanos - settle(slot));
        answered++;
        advanceHead();
    }
}
