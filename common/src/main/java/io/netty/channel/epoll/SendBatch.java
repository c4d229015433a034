package io.netty.channel.epoll;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.socket.DatagramPacket;

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
 * <p>The batch stops, as Netty's does, at the first message it cannot take (no recipient, not a
 * {@code DatagramPacket}, an empty one, slots full, or the write budget spent); the channel writes
 * that one alone. One per channel, used on its event loop only.
 */
final class SendBatch implements ChannelOutboundBuffer.MessageProcessor {
    private static final int IPV6_SLOTS = 256;

    private final InetAddress[] ipv6Keys = new InetAddress[IPV6_SLOTS];
    private final byte[][] ipv6Bytes = new byte[IPV6_SLOTS][];
    private NativeDatagramPacketArray slots;
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

    @Override
    public boolean processMessage(Object msg) {
        if (!(msg instanceof DatagramPacket p) || budget <= 0) {
            return false;
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

    private byte[] ipv6Bytes(Inet6Address a) {
        int i = System.identityHashCode(a) & (IPV6_SLOTS - 1);
        if (ipv6Keys[i] != a) {
            ipv6Bytes[i] = a.getAddress();
            ipv6Keys[i] = a;
        }
        return ipv6Bytes[i];
    }
}
