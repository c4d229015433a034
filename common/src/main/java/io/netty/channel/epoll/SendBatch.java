package io.netty.channel.epoll;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.FastThreadLocal;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Fills the loop's sendmmsg slots from the flushed datagrams of one {@link MclbDatagramChannel},
 * as Netty's {@code NativeDatagramPacketArray.add} does, but without copying the recipient's
 * address out of its {@code InetAddress} per datagram ({@code getAddress()} clones the bytes, twice
 * per relayed request): an IPv4 address is its {@code hashCode()} (the address as an int, by the
 * JDK's contract of {@link Inet4Address#hashCode}), an IPv6 address's bytes come from a small
 * identity-keyed table (the relays send to the same few address objects: clients' from
 * {@link SocketAddressCache}, reals' from the configuration).
 *
 * <p>With mclb's own sendmmsg ({@link MmsgVector}) it fills the loop's vector instead: the
 * datagram's memory and the recipient's sockaddr written straight into native memory, no Java
 * packet object in between.
 *
 * <p>The batch stops, as Netty's does, at the first message it cannot take (no recipient, not a
 * {@code DatagramPacket}, an empty one, a buffer without a memory address, slots full, or the
 * write budget spent); the channel writes that one alone. One per channel, used on its event loop
 * only.
 */
final class SendBatch implements ChannelOutboundBuffer.MessageProcessor {
    private static final int IPV6_SLOTS = 256;
    /** Datagrams per sendmmsg at most: Netty's own batch limit (UIO_MAXIOV). */
    static final int VECTOR_SLOTS = 1024;
    /**
     * The loop's send vector, shared by its channels: a write completes inside {@code doWrite} (the
     * kernel has copied the datagrams when sendmmsg returns), so no two channels of a loop use it at once.
     */
    private static final FastThreadLocal<MmsgVector> LOOP_VECTOR = new FastThreadLocal<>() {
        @Override
        protected MmsgVector initialValue() {
            return new MmsgVector(VECTOR_SLOTS);
        }

        @Override
        protected void onRemoval(MmsgVector v) {
            v.release();
        }
    };

    private final InetAddress[] ipv6Keys = new InetAddress[IPV6_SLOTS];
    private final byte[][] ipv6Bytes = new byte[IPV6_SLOTS][];
    private final long[] ipv6High = new long[IPV6_SLOTS];
    private final long[] ipv6Low = new long[IPV6_SLOTS];
    private NativeDatagramPacketArray slots;
    private MmsgVector vector;
    private boolean ipv6Socket;
    private int budget;

    /** Adds the flushed datagrams of {@code in} to {@code slots} (cleared), at most {@code max}. */
    void fill(ChannelOutboundBuffer in, NativeDatagramPacketArray slots, int max) throws Exception {
        this.slots = slots;
        this.budget = max;
        try {
            in.forEachFlushedMessage(this);
        } finally {
            this.slots = null;
        }
    }

    /** This loop's send vector, cleared. */
    static MmsgVector loopVector() {
        MmsgVector v = LOOP_VECTOR.get();
        v.clear();
        return v;
    }

    /** Adds the flushed datagrams of {@code in} to {@code vector}, at most {@code max}. */
    void fill(ChannelOutboundBuffer in, MmsgVector vector, boolean ipv6Socket, int max) throws Exception {
        this.vector = vector;
        this.ipv6Socket = ipv6Socket;
        this.budget = max;
        try {
            in.forEachFlushedMessage(this);
        } finally {
            this.vector = null;
        }
    }

    @Override
    public boolean processMessage(Object msg) {
        if (!(msg instanceof DatagramPacket p) || budget <= 0) {
            return false;
        }
        if (vector != null) {
            return addToVector(p);
        }
        InetSocketAddress to = p.recipient();
        ByteBuf buf = p.content();
        int length = buf.readableBytes();
        // Netty's add skips an empty buffer without a slot, which would shift the count of sent
        // messages against the queue: an empty datagram goes alone (and, as Netty's, not at all)
        if (to == null || length == 0 || !slots.addWritable(buf, buf.readerIndex(), length)) {
            return false;
        }
        NativeDatagramPacketArray.NativeDatagramPacket slot = slots.packets()[slots.count() - 1];
        InetAddress a = to.getAddress();
        if (a instanceof Inet4Address) {
            NativePacketFields.recipientIpv4(slot, a.hashCode(), to.getPort());
        } else {
            NativePacketFields.recipient(slot, ipv6Bytes((Inet6Address) a), ((Inet6Address) a).getScopeId(), to.getPort());
        }
        return --budget > 0;
    }

    private boolean addToVector(DatagramPacket p) {
        return add(vector, p.content(), p.recipient(), ipv6Socket) && --budget > 0;
    }

    /**
     * Adds {@code buf}'s readable bytes to {@code to} to {@code vector}; false (nothing added) when
     * it has no recipient, is empty, has no memory address, cannot go from this socket's family
     * ({@link MmsgVector#addSend}) or the vector is full.
     */
    boolean add(MmsgVector vector, ByteBuf buf, InetSocketAddress to, boolean ipv6Socket) {
        int length = buf.readableBytes();
        if (to == null || length == 0 || !buf.hasMemoryAddress()) {
            return false;
        }
        InetAddress a = to.getAddress();
        long hi = 0;
        long lo = 0;
        int scope = 0;
        if (a instanceof Inet6Address six) {
            int i = ipv6Slot(six);
            hi = ipv6High[i];
            lo = ipv6Low[i];
            scope = six.getScopeId();
        }
        return vector.addSend(buf.memoryAddress() + buf.readerIndex(), length, a, hi, lo, scope, to.getPort(), ipv6Socket);
    }

    private byte[] ipv6Bytes(Inet6Address a) {
        return ipv6Bytes[ipv6Slot(a)];
    }

    /** The slot of {@code a} in the identity-keyed table, filled from its bytes on a miss. */
    private int ipv6Slot(Inet6Address a) {
        int i = System.identityHashCode(a) & (IPV6_SLOTS - 1);
        if (ipv6Keys[i] != a) {
            byte[] b = a.getAddress();
            ipv6Bytes[i] = b;
            ipv6High[i] = java.nio.ByteBuffer.wrap(b).getLong(0);
            ipv6Low[i] = java.nio.ByteBuffer.wrap(b).getLong(8);
            ipv6Keys[i] = a;
        }
        return i;
    }
}
