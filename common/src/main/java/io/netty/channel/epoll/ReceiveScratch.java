package io.netty.channel.epoll;

import io.netty.util.concurrent.FastThreadLocal;

/**
 * What {@link MclbDatagramChannel}'s reads on one event loop share: the recvmmsg slots and the
 * sender address cache. Its own array, not the loop's {@code NativeArrays} one that sendmmsg fills
 * on flush: a handler may flush inside {@code channelRead} while the datagrams of this batch are
 * still being handed up from the slots. One channel reads at a time on a loop (epoll events are
 * handled one after the other, a handler never re-enters a read), so one scratch per loop thread
 * serves all its channels.
 */
final class ReceiveScratch {
    /** Datagrams per recvmmsg at most (the data path asks for 16, io.mclb.net.UdpSockets.READ_BATCH). */
    static final int VECTOR_SLOTS = 64;
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
        }
    };

    final NativeDatagramPacketArray slots = new NativeDatagramPacketArray();
    /** The same slots for mclb's own recvmmsg, where it loads (null where not). */
    final MmsgVector vector = MmsgVector.AVAILABLE ? new MmsgVector(VECTOR_SLOTS) : null;
    final SocketAddressCache senders = new SocketAddressCache();

    private ReceiveScratch() {
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
