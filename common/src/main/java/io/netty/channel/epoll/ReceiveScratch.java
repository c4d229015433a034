package io.netty.channel.epoll;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * What {@link MclbDatagramChannel}'s reads on one event loop share: the recvmmsg slots, the
 * receive region the datagrams land in and the sender address cache. Its own array, not the loop's {@code NativeArrays} one that sendmmsg fills
 * on flush: a handler may flush inside {@code channelRead} while the datagrams of this batch are
 * still being handed up from the slots. One channel reads at a time on a loop (epoll events are
 * handled one after the other, a handler never re-enters a read), so one scratch per loop thread
 * serves all its channels.
 */
final class ReceiveScratch {
    private static final FastThreadLocal<ReceiveScratch> PER_LOOP = new FastThreadLocal<>() {
        @Override
        protected ReceiveScratch initialValue() {
            return new ReceiveScratch();
        }

        @Override
        protected void onRemoval(ReceiveScratch s) {
            s.slots.release(); // the native iovec memory, when the loop thread ends
            if (s.region != null) {
                s.region.release();
                s.region = null;
            }
        }
    };

    /**
     * Bytes of one receive region. Every recvmmsg batch of this loop's channels is cut from the
     * current region right after the previous batch, and takes only what it received (the slots
     * before its last datagram whole, the last to its length, rounded to a cache line): a wake-up
     * that reads twenty sockets one datagram each uses a few KiB of one warm buffer, where a
     * buffer per batch ({@code (9000 + 1) * 16} bytes from the pool's arena each, alive until the
     * pass's flush) took twenty. A region is released when the next one is cut; its memory returns
     * to the pool when the last datagram sliced from it is released.
     */
    static final int REGION_BYTES = 1 << 20;

    final NativeDatagramPacketArray slots = new NativeDatagramPacketArray();
    final SocketAddressCache senders = new SocketAddressCache();
    private ByteBuf region;
    private int regionOffset;

    private ReceiveScratch() {
    }

    /** The region to receive a batch of {@code bytes} into, at {@link #regionOffset()}. */
    ByteBuf region(ByteBufAllocator alloc, int bytes) {
        if (region == null || region.capacity() - regionOffset < bytes) {
            if (region != null) {
                region.release();
            }
            int size = Math.max(REGION_BYTES, bytes);
            region = alloc.directBuffer(size, size);
            regionOffset = 0;
        }
        return region;
    }

    int regionOffset() {
        return regionOffset;
    }

    /** The batch just received ends at {@code end}: the next one starts on the following cache line. */
    void consumed(int end) {
        regionOffset = (end + 63) & ~63;
    }

    /** This loop thread's scratch, its slots cleared. */
    static ReceiveScratch ofThisLoop() {
        ReceiveScratch s = PER_LOOP.get();
        s.slots.clear();
        return s;
    }
}
