package io.netty.channel.epoll;

import io.netty.buffer.ByteBuf;
import io.netty.channel.AddressedEnvelope;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.socket.SocketProtocolFamily;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The pipeline's way out of a {@link MclbDatagramChannel}: Netty's {@code EpollDatagramChannel.doWrite}
 * (4.2) over the channel's outbound buffer, the sendmmsg batch filled by {@link SendBatch}, for what
 * {@link MclbDatagramChannel#send} does not take (Netty's natives, heap buffers, an empty datagram,
 * writers other than the relays). One per channel, on its event loop.
 */
final class PipelineWrites {
    private final MclbDatagramChannel channel;
    private final SendBatch batch;
    private final boolean ownSyscalls;

    PipelineWrites(MclbDatagramChannel channel, SendBatch batch, boolean ownSyscalls) {
        this.channel = channel;
        this.batch = batch;
        this.ownSyscalls = ownSyscalls;
    }

    /** Writes the flushed datagrams of {@code in}, at most {@code maxMessagesPerWrite}; the caller arms or clears EPOLLOUT. */
    void write(ChannelOutboundBuffer in, int maxMessagesPerWrite) throws Exception {
        while (maxMessagesPerWrite > 0) {
            Object msg = in.current();
            if (msg == null) {
                break;
            }
            try {
                // sendmmsg even for one datagram: Netty's sendto path copies the address per datagram too
                int sent = sendmmsg(in, maxMessagesPerWrite);
                if (sent == 0) {
                    break;
                }
                if (sent > 0) {
                    for (int i = 0; i < sent; i++) {
                        in.remove();
                    }
                    maxMessagesPerWrite -= sent;
                    continue;
                }
                boolean done = false;
                for (int i = channel.config().getWriteSpinCount(); i > 0; --i) {
                    if (writeOne(msg)) {
                        done = true;
                        break;
                    }
                }
                if (!done) {
                    break;
                }
                in.remove();
                maxMessagesPerWrite--;
            } catch (IOException e) {
                // one peer's error (e.g. unreachable) must not stop the datagrams to the others
                maxMessagesPerWrite--;
                in.remove(e);
            }
        }
    }

    /**
     * One sendmmsg of the flushed datagrams from the current one on, at most {@code max}: how many
     * left (0: the socket buffer is full), or -1 when the current one cannot go in a batch.
     */
    private int sendmmsg(ChannelOutboundBuffer in, int max) throws Exception {
        if (ownSyscalls) {
            MmsgVector vector = SendBatch.loopVector();
            batch.fill(in, vector, channel.socket.family() == SocketProtocolFamily.INET6, max);
            return vector.count() == 0 ? -1 : vector.send(channel.socket.intValue());
        }
        if (!Native.IS_SUPPORTING_SENDMMSG) {
            return -1;
        }
        NativeDatagramPacketArray array = ((NativeArrays) channel.registration().attachment()).cleanDatagramPacketArray();
        batch.fill(in, array, max);
        int cnt = array.count();
        return cnt == 0 ? -1 : channel.socket.sendmmsg(array.packets(), 0, cnt);
    }

    @SuppressWarnings("unchecked")
    private boolean writeOne(Object msg) throws IOException {
        ByteBuf data;
        InetSocketAddress to;
        if (msg instanceof AddressedEnvelope) {
            AddressedEnvelope<ByteBuf, InetSocketAddress> e = (AddressedEnvelope<ByteBuf, InetSocketAddress>) msg;
            data = e.content();
            to = e.recipient();
        } else {
            data = (ByteBuf) msg;
            to = null;
        }
        return data.readableBytes() == 0 || channel.doWriteOrSendBytes(data, to, false) > 0;
    }
}
