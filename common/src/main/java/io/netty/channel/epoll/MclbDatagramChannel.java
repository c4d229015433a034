package io.netty.channel.epoll;

import io.mclb.net.ReusableDatagramPacket;
import io.netty.buffer.ByteBuf;
import io.netty.channel.AddressedEnvelope;
import io.netty.channel.ChannelMetadata;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.DefaultAddressedEnvelope;
import io.netty.channel.IoEvent;
import io.netty.channel.IoRegistration;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.unix.UnixChannelUtil;
import io.netty.util.UncheckedBooleanSupplier;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.UnresolvedAddressException;

/**
 * mclb's UDP socket on the epoll transport: Netty's {@link EpollDatagramChannel} with a read path
 * that allocates nothing per datagram. recvmmsg fills up to a batch of slots of one pooled buffer
 * (as Netty's does), and each datagram goes up the pipeline as one {@link DatagramPacket} object
 * reused for every datagram of this channel: its content a recycled slice of the batch buffer, its
 * sender an address from the loop's {@link SocketAddressCache} (built once per peer), its
 * recipient the bound address. Netty's channel (final, so not extended) builds a new
 * {@code DatagramPacket}, {@code InetSocketAddress} and {@code InetAddress} per datagram: about 140
 * bytes, half the relay's steady allocation (perf/README.md, "Issue 15").
 *
 * <p>A handler may take the datagrams without the pipeline ({@link #readDirectly}: the plain
 * relay does), one interface call per datagram instead of {@code fireChannelRead}.
 *
 * <p>The contract this asks of a handler: the packet object is valid only inside
 * {@code channelRead}. It may release it, or take its content (as mclb's relays do when they
 * forward it) and its sender (immutable, kept as long as wanted), but never keep the packet
 * itself. Writes go out with one sendmmsg per flush, as Netty's do, the recipients written
 * without copying their address bytes ({@link SendBatch}). The relays' datagrams skip the
 * pipeline and Netty's outbound buffer altogether: {@link #send} queues (content, recipient) on
 * the channel ({@link SendQueue}) and {@link #flushSends} hands them to one sendmmsg, with
 * EPOLLOUT armed while the socket buffer is full, as Netty's flush does. Binds and options are Netty's:
 * SO_REUSEPORT, IP_FREEBIND, IP_TRANSPARENT, buffer sizes ({@link MclbDatagramChannelConfig}). No
 * multicast and no connected mode: the data path binds and addresses every datagram.
 *
 * <p>Everything but construction and option setting runs on the channel's event loop.
 */
public final class MclbDatagramChannel extends AbstractEpollChannel {
    private static final ChannelMetadata METADATA = new ChannelMetadata(true, 16);

    private final MclbDatagramChannelConfig config;
    /** The one inbound packet of this channel, reset per datagram (loop-confined). */
    private final Received received = new Received();
    private final SendBatch sendBatch = new SendBatch();
    /** Datagrams {@link #send} took, waiting for {@link #flushSends} or writability (loop-confined). */
    private final SendQueue sendQueue = new SendQueue();
    private final PipelineWrites pipelineWrites;
    /** A datagram went through the pipeline since the last {@link #flushSends}: it flushes the channel too. */
    private boolean pipelineWritten;
    /** recvmmsg and sendmmsg through mclb's helper ({@link MmsgVector}), else through Netty's natives. */
    private final boolean ownSyscalls;
    /** Takes the datagrams instead of the pipeline while it is the pipeline's first handler ({@link #readDirectly}); loop-confined. */
    private DirectReader directReader;

    public MclbDatagramChannel(SocketProtocolFamily family) {
        this(family, MmsgVector.AVAILABLE);
    }

    /** {@code ownSyscalls} false: Netty's recvmmsg/sendmmsg, as where mclb's helper does not load (tests). */
    MclbDatagramChannel(SocketProtocolFamily family, boolean ownSyscalls) {
        super(null, LinuxSocket.newSocketDgram(family), false, EpollIoOps.valueOf(0));
        if (ownSyscalls && !MmsgVector.AVAILABLE) {
            throw new IllegalStateException(MmsgVector.UNAVAILABLE_CAUSE);
        }
        this.ownSyscalls = ownSyscalls;
        config = new MclbDatagramChannelConfig(this);
        pipelineWrites = new PipelineWrites(this, sendBatch, ownSyscalls);
    }

    /** Which recvmmsg/sendmmsg the data path's channels use here, for the start log. */
    public static String syscallPath() {
        return MmsgVector.AVAILABLE ? "mclb recvmmsg/sendmmsg" : "netty recvmmsg/sendmmsg (" + MmsgVector.UNAVAILABLE_CAUSE + ")";
    }

    /** True when this channel works here: epoll loads, recvmmsg exists, Netty's packet fields resolve. */
    public static boolean isAvailable() {
        return Epoll.isAvailable() && Native.IS_SUPPORTING_RECVMMSG && NativePacketFields.AVAILABLE;
    }

    /** Why {@link #isAvailable()} is false, or null. */
    public static String unavailabilityCause() {
        if (!Epoll.isAvailable()) {
            return "epoll unavailable";
        }
        if (!Native.IS_SUPPORTING_RECVMMSG) {
            return "recvmmsg unsupported";
        }
        return NativePacketFields.UNAVAILABLE_CAUSE;
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) super.localAddress();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) super.remoteAddress();
    }

    @Override
    public ChannelMetadata metadata() {
        return METADATA;
    }

    @Override
    public boolean isActive() {
        return socket.isOpen() && active;
    }

    @Override
    public MclbDatagramChannelConfig config() {
        return config;
    }

    @Override
    protected AbstractEpollUnsafe newUnsafe() {
        return new ReadUnsafe();
    }

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        if (localAddress instanceof InetSocketAddress a && a.getAddress().isAnyLocalAddress()
                && a.getAddress() instanceof Inet4Address && socket.family() == SocketProtocolFamily.INET6) {
            localAddress = new InetSocketAddress(Native.INET6_ANY, a.getPort());
        }
        super.doBind(localAddress);
        active = true;
    }

    @Override
    protected void doDisconnect() throws Exception {
        socket.disconnect();
        active = false;
        resetCachedAddresses();
    }

    /**
     * A handler that takes this channel's datagrams from the read loop itself: one interface call
     * per datagram instead of {@code fireChannelRead} through the pipeline's head context (the
     * inbound mask search, the executor check and the leak detector's touch, per datagram). The
     * packet's contract is {@code channelRead}'s here (valid only during the call; the reader owns
     * it: forward its content or release it). The reader must not throw: a throw ends the read
     * batch and goes to {@code exceptionCaught}, the batch's later datagrams unread until the next
     * one. The batch's end still goes up the pipeline ({@code channelReadComplete}).
     */
    public interface DirectReader extends io.netty.channel.ChannelHandler {
        void datagramRead(MclbDatagramChannel channel, DatagramPacket packet);
    }

    /**
     * From the next read batch, hands each datagram to {@code reader} (null: the pipeline again).
     * Used only while {@code reader} is the pipeline's first handler, checked once per batch: a
     * handler added in front of it gets the datagrams through the pipeline again, as it expects.
     * Call on the event loop.
     */
    public void readDirectly(DirectReader reader) {
        assert eventLoop().inEventLoop();
        directReader = reader;
    }

    /** What {@link #send} did with a datagram. */
    public enum Send {
        /** Taken: it goes at the next {@link #flushSends} (or when the socket is writable again). */
        QUEUED,
        /** Not taken: write it through the pipeline (Netty's natives here, an empty or heap buffer, no recipient, a family this socket cannot reach, the channel not active). */
        USE_PIPELINE,
        /** Not taken: {@link SendQueue#MAX} datagrams already wait for the socket; the caller drops and counts it. */
        QUEUE_FULL
    }

    /**
     * Queues {@code content} (owned from here when taken) for {@code recipient} without the
     * pipeline, Netty's outbound buffer or a packet object: the next {@link #flushSends} writes its
     * memory and the recipient's sockaddr into the loop's sendmmsg vector. Call on the event loop.
     */
    public Send send(ByteBuf content, InetSocketAddress recipient) {
        assert eventLoop().inEventLoop();
        if (!ownSyscalls || !isActive() || recipient == null || recipient.isUnresolved()
                || content.readableBytes() == 0 || !content.hasMemoryAddress()
                || (!(recipient.getAddress() instanceof Inet4Address) && socket.family() != SocketProtocolFamily.INET6)) {
            return Send.USE_PIPELINE;
        }
        return sendQueue.add(content, recipient) ? Send.QUEUED : Send.QUEUE_FULL;
    }

    /**
     * Sends what {@link #send} queued (one sendmmsg per 1,024) and flushes what went through the
     * pipeline. While the socket buffer is full (EPOLLOUT armed) the queue waits for writability,
     * as Netty's flush does. Call on the event loop.
     */
    public void flushSends() {
        if (!sendQueue.isEmpty() && !isFlagSet(Native.EPOLLOUT)) {
            drainSendQueue();
        }
        if (pipelineWritten) {
            pipelineWritten = false;
            flush();
        }
    }

    private void drainSendQueue() {
        boolean empty = sendQueue.drain(socket.intValue(), sendBatch, socket.family() == SocketProtocolFamily.INET6,
                pipeline());
        try {
            if (!empty) {
                setFlag(Native.EPOLLOUT);
            } else if (unsafe().outboundBuffer() == null || unsafe().outboundBuffer().isEmpty()) {
                clearFlag(Native.EPOLLOUT);
            }
        } catch (IOException e) {
            pipeline().fireExceptionCaught(e);
        }
    }

    @Override
    protected void doClose() throws Exception {
        try {
            super.doClose();
        } finally {
            sendQueue.releaseAll();
        }
    }

    // ---- pipeline writes: Netty's EpollDatagramChannel.doWrite (4.2) in PipelineWrites

    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        pipelineWrites.write(in, maxMessagesPerWrite());
        if (in.isEmpty() && sendQueue.isEmpty()) {
            clearFlag(Native.EPOLLOUT);
        } else {
            setFlag(Native.EPOLLOUT);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Object filterOutboundMessage(Object msg) {
        pipelineWritten = true;
        if (msg instanceof DatagramPacket p) {
            // the recipient read first: the copy releases p, and a reused envelope forgets its recipient then
            InetSocketAddress recipient = p.recipient();
            requireResolved(recipient);
            ByteBuf content = p.content();
            return UnixChannelUtil.isBufferCopyNeededForWrite(content)
                    ? new DatagramPacket(newDirectBuffer(p, content), recipient) : msg;
        }
        if (msg instanceof ByteBuf buf) {
            return UnixChannelUtil.isBufferCopyNeededForWrite(buf) ? newDirectBuffer(buf) : buf;
        }
        if (msg instanceof AddressedEnvelope<?, ?> e && e.content() instanceof ByteBuf content
                && (e.recipient() == null || e.recipient() instanceof InetSocketAddress)) {
            InetSocketAddress recipient = (InetSocketAddress) e.recipient();
            requireResolved(recipient);
            return UnixChannelUtil.isBufferCopyNeededForWrite(content)
                    ? new DefaultAddressedEnvelope<>(newDirectBuffer(e, content), recipient) : e;
        }
        throw new UnsupportedOperationException("unsupported message type: " + msg.getClass().getSimpleName()
                + " (expected: DatagramPacket, AddressedEnvelope<ByteBuf, InetSocketAddress>, ByteBuf)");
    }

    private static void requireResolved(InetSocketAddress a) {
        if (a != null && a.isUnresolved()) {
            throw new UnresolvedAddressException();
        }
    }

    // ---- reads: recvmmsg into one buffer, each datagram up the pipeline in the reused packet

    /**
     * One recvmmsg batch: false when nothing was waiting. Each datagram is handed up as soon as it
     * is sliced: the slots are this loop's own ({@link ReceiveScratch}), so a flush inside
     * {@code channelRead} cannot overwrite them.
     */
    private boolean readBatch(EpollRecvByteAllocatorHandle handle, ChannelPipeline pipeline) throws IOException {
        ReceiveScratch scratch = ReceiveScratch.ofThisLoop();
        ByteBuf buf = scratch.batchBuffer(config.getAllocator(), handle.guess());
        try {
            int writable = buf.writableBytes();
            int size = slotSize(writable);
            // mclb's recvmmsg over the loop's vector, else Netty's over its packet array (same slots)
            MmsgVector vector = ownSyscalls && buf.hasMemoryAddress() ? scratch.vector : null;
            NativeDatagramPacketArray slots = scratch.slots;
            int start = buf.writerIndex();
            int offset = start;
            for (int n = writable / size; n > 0; n--) {
                if (vector != null ? !vector.addReceive(buf.memoryAddress() + offset, size) : !slots.addWritable(buf, offset, size)) {
                    break;
                }
                offset += size;
            }
            handle.attemptedBytesRead(offset - start);
            NativeDatagramPacketArray.NativeDatagramPacket[] packets = slots.packets();
            int count = vector != null ? vector.receive(socket.intValue()) : socket.recvmmsg(packets, 0, slots.count());
            if (count == 0) {
                handle.lastBytesRead(-1);
                return false;
            }
            // as Netty's: the bytes "read" are whole slots, so a full batch asks for another
            handle.lastBytesRead(count * size);
            handle.incMessagesRead(count);
            buf.writerIndex(start + count * size);
            InetSocketAddress local = localAddress();
            DirectReader reader = directReader != null && pipeline.first() == directReader ? directReader : null;
            for (int i = 0; i < count; i++) {
                if (vector != null) {
                    // no control messages on this path (no GRO segments, no original destination:
                    // the data path's sockets enable neither), so the recipient is the bound address
                    received.reset(buf.retainedSlice(start + i * size, vector.length(i)), local, vector.sender(i, scratch.senders));
                    deliver(reader, pipeline);
                } else {
                    fireDatagrams(reader, pipeline, scratch.senders, packets[i], buf, start + i * size, local);
                }
            }
            return true;
        } finally {
            buf.release(); // the slices handed up hold their own references
        }
    }

    /** {@link #received} to the direct reader when there is one, else up the pipeline. */
    private void deliver(DirectReader reader, ChannelPipeline pipeline) {
        if (reader != null) {
            reader.datagramRead(this, received);
        } else {
            pipeline.fireChannelRead(received);
        }
    }

    /** One recvmmsg slot of a batch buffer with {@code writable} bytes: the configured datagram size, or all of it. */
    private int slotSize(int writable) {
        int size = config.getMaxDatagramPayloadSize();
        return size <= 0 || size > writable ? writable : size;
    }

    /** The datagram in one slot, or each of its segments when the kernel coalesced them (UDP_GRO). */
    private void fireDatagrams(DirectReader reader, ChannelPipeline pipeline, SocketAddressCache senders,
                               NativeDatagramPacketArray.NativeDatagramPacket p, ByteBuf buf, int offset,
                               InetSocketAddress local) {
        int length = NativePacketFields.length(p);
        InetSocketAddress sender = senders.of(NativePacketFields.senderAddr(p), NativePacketFields.senderAddrLen(p),
                NativePacketFields.senderPort(p), NativePacketFields.senderScopeId(p));
        InetSocketAddress recipient = NativePacketFields.recipientAddrLen(p) == 0 ? local
                : senders.of(NativePacketFields.recipientAddr(p), NativePacketFields.recipientAddrLen(p),
                NativePacketFields.recipientPort(p), NativePacketFields.recipientScopeId(p));
        int segment = NativePacketFields.segmentSize(p);
        if (segment <= 0 || segment >= length) {
            segment = length;
        }
        int end = offset + length;
        do {
            int n = Math.min(segment, end - offset);
            received.reset(buf.retainedSlice(offset, n), recipient, sender);
            deliver(reader, pipeline);
            offset += n;
        } while (offset < end);
    }

    /** The reused inbound packet: owns nothing after its handler returns. */
    private static final class Received extends ReusableDatagramPacket {
        void reset(ByteBuf content, InetSocketAddress recipient, InetSocketAddress sender) {
            set(content, recipient, sender);
        }

        @Override
        protected void onReleased() {
            // nothing to return: the next datagram of this channel resets it
        }
    }

    private final class ReadUnsafe extends AbstractEpollUnsafe {
        /** Writability first sends what {@link #send} queued, then (Netty's) what the outbound buffer holds. */
        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            if ((((EpollIoEvent) event).ops().value & EpollIoOps.EPOLL_ERR_OUT_MASK) != 0 && !sendQueue.isEmpty()) {
                drainSendQueue();
            }
            super.handle(registration, event);
        }

        /** Netty's EpollDatagramChannelUnsafe.epollInReady (4.2), reading with {@link #readBatch}. */
        @Override
        void epollInReady() {
            assert eventLoop().inEventLoop();
            if (shouldBreakEpollInReady(config)) {
                clearEpollIn0();
                return;
            }
            EpollRecvByteAllocatorHandle handle = recvBufAllocHandle();
            ChannelPipeline pipeline = pipeline();
            handle.reset(config);
            Throwable failure = null;
            try {
                try {
                    do {
                        if (!readBatch(handle, pipeline)) {
                            break;
                        }
                        readPending = false;
                    } while (handle.continueReading(UncheckedBooleanSupplier.TRUE_SUPPLIER));
                } catch (Throwable t) {
                    failure = t;
                }
                handle.readComplete();
                pipeline.fireChannelReadComplete();
                if (failure != null) {
                    pipeline.fireExceptionCaught(failure);
                }
            } finally {
                if (shouldStopReading(config)) {
                    clearEpollIn();
                }
            }
        }
    }
}
