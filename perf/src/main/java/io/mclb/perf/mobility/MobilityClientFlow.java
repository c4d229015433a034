package io.mclb.perf.mobility;

import io.mclb.perf.load.ClientFlow;
import io.mclb.perf.load.LoadDriver;
import io.netty.buffer.ByteBuf;

/**
 * One client socket of a {@link MobilityLoadGenerator}: a request per counter, matched back by
 * the counter bits the answer echoes; the ring is far smaller than the key space, so the echoed
 * bits name exactly one outstanding request.
 */
final class MobilityClientFlow extends ClientFlow {
    private final MobilityLoadGenerator generator;
    private final MobilityProtocol protocol;
    private final int flow;
    private final long keyMask;
    private final long[] key;
    long sent;
    long accepted;
    long rejected;
    long lost;
    long unmatched;

    MobilityClientFlow(MobilityLoadGenerator generator, LoadDriver<MobilityClientFlow, ?> driver, int flow, int slots) {
        super(driver, slots, generator.protocol().name());
        this.generator = generator;
        this.protocol = generator.protocol();
        this.flow = flow;
        this.keyMask = (1L << protocol.keyBits()) - 1;
        this.key = new long[slots];
    }

    @Override
    protected int requestCapacity() {
        return protocol.requestCapacity();
    }

    @Override
    protected void encodeRequest(ByteBuf out, int slot, long nowNanos) {
        protocol.writeRequest(out, generator.nextSubscriber(), flow, next);
        key[slot] = next & keyMask;
        sent++;
    }

    @Override
    protected void onLost(int slot) {
        lost++;
    }

    @Override
    protected void onResponse(ByteBuf in, long nowNanos) {
        long k = protocol.answerKey(in);
        int slot = (int) (k & mask);
        if (k < 0 || sendNanos[slot] == SETTLED || key[slot] != k) {
            unmatched++;
            return;
        }
        if (protocol.accepted(in)) {
            accepted++;
        } else {
            rejected++;
        }
        recordLatency(nowNanos - settle(slot));
        advanceHead();
    }
}
