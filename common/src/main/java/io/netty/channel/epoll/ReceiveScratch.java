package io.netty.channel.epoll;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * What {@link MclbDatagramChannel}'s reads on one event loop share: the recvmmsg slots and the
 * sender address cache. Its own array, not the loop's {@code NativeArrays} one that sendmmsg fills
 * on flush: a handler may flush inside {@code channelRead} while the datagrams of this batch are
 * still being handed up from the slots. One channel reads at a time on a loop (epoll events are
 * handled one after the other, a handler never re-enters a read), so one scratch per loop thread
 * serves all its channels.
 *
 * <p>It also keeps a few batch buffers ({@link #batchBuffer}): a 144 KB receive buffer is above
 * what the pool's thread cache holds, so each recvmmsg batch took one from the arena
 * ({@code PoolChunk} allocate, split, free, collapse: about a tenth of the plain relay's Java on
 * its loop, perf/README.md "Issue 15"). A kept buffer is handed out again once every datagram
 * sliced from it has been released (its count back to the scratch's one reference).
 */
final class ReceiveScratch {
    /** Datagrams per recvmmsg at most (the data path asks for 16, io.mclb.net.UdpSockets.READ_BATCH). */
    static final int VECTOR_SLOTS = 64;
    /** Batch buffers kept per loop: a listener's read pass holds its batches' slices until its flush. */
    static final int KEPT_BUFFERS = 8;
    private static final FastThreadLocal<ReceiveScratch> PER_LOOP = new FastThreadLocal<>() {
        @Override
        protected ReceiveScratch initialValue() {
            return new ReceiveScratch();
        }

        @Override
        protected void onRemoval(ReceiveScratch s) {
            s.slots.release(); // the native iovec memory, when the loop thread ends
            if (s.vector != null) {
                s.vector.release();
            }
            for (ByteBuf b : s.kept) {
                if (b != null) {
                    b.release();
                }
            }
        }
    };

    final NativeDatagramPacketArray slots = new NativeDatagramPacketArray();
    /** The same slots for mclb's own recvmmsg, where it loads (null where not). */
    final MmsgVector vector = MmsgVector.AVAILABLE ? new MmsgVector(VECTOR_SLOTS) : null;
    final SocketAddressCache senders = new SocketAddressCache();
    /** Each holds one reference of the scratch's own; more while slices of a batch are alive. */
    private final ByteBuf[] kept = new ByteBuf[KEPT_BUFFERS];

    private ReceiveScratch() {
    }

    /**
     * An empty buffer of {@code capacity} bytes for one batch, which the caller releases after it
     * as one from {@code alloc} (the slices it hands up hold their own references): a kept one
     * that nothing else references any more, else a new one, kept while a place is free.
     */
    ByteBuf batchBuffer(ByteBufAllocator alloc, int capacity) {
        for (int i = 0; i < kept.length; i++) {
            ByteBuf b = kept[i];
            if (b == null) {
                b = alloc.directBuffer(capacity);
                if (!b.isDirect() || b.capacity() != capacity) {
                    return b; // not one to keep (an allocator that gives other sizes): used once, as before
                }
                kept[i] = b;
                return b.retain();
            }
            if (b.refCnt() == 1 && b.capacity() == capacity) {
                return b.retain().clear();
            }
        }
        return alloc.directBuffer(capacity);
    }

    /** This loop thread's scratch, its slots cleared. */
    static ReceiveScratch ofThisLoop() {
        ReceiveScratch s = PER_LOOP.get();
        s.slots.clear();
        if (s.vector != null) {
            s.vector.clear();
        }
        return s;
    }
}
