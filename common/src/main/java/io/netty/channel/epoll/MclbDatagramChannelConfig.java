package io.netty.channel.epoll;

import io.netty.channel.ChannelException;
import io.netty.channel.ChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;

import java.io.IOException;
import java.util.Map;

/**
 * The options of {@link MclbDatagramChannel}: those mclb's UDP sockets set ({@code io.mclb.net.UdpSockets}),
 * with {@code EpollDatagramChannelConfig}'s meaning: socket buffers, SO_REUSEADDR, SO_REUSEPORT
 * (one listener per loop), IP_FREEBIND (a standby binds its HA address before owning it),
 * IP_TRANSPARENT, and the slot size of a recvmmsg batch ({@code MAX_DATAGRAM_PAYLOAD_SIZE}, 0: one
 * datagram per read). Anything else is the generic channel options' (allocator, receive allocator,
 * auto read); an option not listed is refused as unknown, as Netty does.
 */
public final class MclbDatagramChannelConfig extends EpollChannelConfig {
    private volatile int maxDatagramSize;

    MclbDatagramChannelConfig(MclbDatagramChannel channel) {
        super(channel, new FixedRecvByteBufAllocator(2048));
    }

    @Override
    public Map<ChannelOption<?>, Object> getOptions() {
        return getOptions(super.getOptions(), ChannelOption.SO_RCVBUF, ChannelOption.SO_SNDBUF,
                ChannelOption.SO_REUSEADDR, EpollChannelOption.SO_REUSEPORT, EpollChannelOption.IP_FREEBIND,
                EpollChannelOption.IP_TRANSPARENT, EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getOption(ChannelOption<T> option) {
        try {
            if (option == ChannelOption.SO_RCVBUF) {
                return (T) Integer.valueOf(socket().getReceiveBufferSize());
            }
            if (option == ChannelOption.SO_SNDBUF) {
                return (T) Integer.valueOf(socket().getSendBufferSize());
            }
            if (option == ChannelOption.SO_REUSEADDR) {
                return (T) Boolean.valueOf(socket().isReuseAddress());
            }
            if (option == EpollChannelOption.SO_REUSEPORT) {
                return (T) Boolean.valueOf(socket().isReusePort());
            }
            if (option == EpollChannelOption.IP_FREEBIND) {
                return (T) Boolean.valueOf(socket().isIpFreeBind());
            }
            if (option == EpollChannelOption.IP_TRANSPARENT) {
                return (T) Boolean.valueOf(socket().isIpTransparent());
            }
        } catch (IOException e) {
            throw new ChannelException(e);
        }
        if (option == EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE) {
            return (T) Integer.valueOf(maxDatagramSize);
        }
        return super.getOption(option);
    }

    @Override
    public <T> boolean setOption(ChannelOption<T> option, T value) {
        validate(option, value);
        try {
            if (option == ChannelOption.SO_RCVBUF) {
                socket().setReceiveBufferSize((Integer) value);
            } else if (option == ChannelOption.SO_SNDBUF) {
                socket().setSendBufferSize((Integer) value);
            } else if (option == ChannelOption.SO_REUSEADDR) {
                socket().setReuseAddress((Boolean) value);
            } else if (option == EpollChannelOption.SO_REUSEPORT) {
                socket().setReusePort((Boolean) value);
            } else if (option == EpollChannelOption.IP_FREEBIND) {
                socket().setIpFreeBind((Boolean) value);
            } else if (option == EpollChannelOption.IP_TRANSPARENT) {
                socket().setIpTransparent((Boolean) value);
            } else if (option == EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE) {
                int size = (Integer) value;
                if (size < 0) {
                    throw new IllegalArgumentException("MAX_DATAGRAM_PAYLOAD_SIZE " + size + ", allowed 0 or more");
                }
                maxDatagramSize = size;
            } else {
                return super.setOption(option, value);
            }
        } catch (IOException e) {
            throw new ChannelException(e);
        }
        return true;
    }

    /** The size of one recvmmsg slot; 0 makes the whole receive buffer one slot. */
    public int getMaxDatagramPayloadSize() {
        return maxDatagramSize;
    }
}
