package io.mclb.probe;

import io.mclb.net.UdpSockets;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DatagramPacket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One UDP socket per event loop, probe and address family, shared by every check of that probe
 * on the loop, as {@link IcmpSocket} is for ping: 2,000 reals cost a descriptor per loop instead
 * of 2,000, and the requests of one {@link CheckGrid} slot leave in one flush (sendmmsg) and their
 * answers come back on one socket. An answer goes to the checks of its sender's address and port;
 * a probe is one request type, so two checks of the same probe on the same target (one real in
 * two farms) each take the first answer their own type accepts. Confined to its loop.
 */
final class UdpProbeSocket {
    private static final Logger LOG = LoggerFactory.getLogger(UdpProbeSocket.class);
    private static final Map<EventLoop, Map<String, UdpProbeSocket>> OPEN = new ConcurrentHashMap<>();

    /** The side of a check the socket talks to (on the loop). */
    interface Member {
        InetSocketAddress target();

        /** The request to send now, or null if it could not be built (the member reported it). */
        ByteBuf request(ByteBufAllocator alloc);

        /** A datagram from the target; true if the member took it as its answer. */
        boolean answer(ByteBuf content);

        /** The request could not leave. */
        void unsent(String reason);
    }

    private final EventLoop loop;
    private final String key;
    private final Channel channel;
    private final Map<InetSocketAddress, List<Member>> bySender = new HashMap<>();
    private final List<Member> waitingForBind = new ArrayList<>();
    private int users;
    private boolean bound;
    private boolean failed;
    private boolean flushQueued;
    private final Runnable flush = this::flushWrites;

    private UdpProbeSocket(EventLoop loop, String key, InetSocketAddress family) {
        this.loop = loop;
        this.key = key;
        ChannelFuture f = UdpSockets.probe(family.getAddress()).group(loop).handler(new SharedSocketReader("probe socket " + key, this::read))
                .bind(UdpSockets.ephemeral(family.getAddress()));
        this.channel = f.channel();
        f.addListener(done -> bindDone(done.isSuccess() ? null : done.cause()));
    }

    /** The socket of {@code probe} on {@code loop} for {@code m}'s family, with {@code m} joined. On the loop. */
    static UdpProbeSocket join(EventLoop loop, String probe, Member m) {
        String key = probe + (m.target().getAddress() instanceof Inet6Address ? "/6" : "/4");
        Map<String, UdpProbeSocket> mine = OPEN.computeIfAbsent(loop, l -> new HashMap<>());
        UdpProbeSocket s = mine.get(key);
        if (s == null || s.failed) {
            s = new UdpProbeSocket(loop, key, m.target());
            mine.put(key, s);
        }
        s.users++;
        s.bySender.computeIfAbsent(m.target(), t -> new ArrayList<>(1)).add(m);
        return s;
    }

    /** {@code m} leaves; the last member closes the socket. On the loop. */
    void leave(Member m) {
        List<Member> same = bySender.get(m.target());
        if (same != null && same.remove(m) && same.isEmpty()) {
            bySender.remove(m.target());
        }
        waitingForBind.remove(m);
        if (--users > 0) {
            return;
        }
        Map<String, UdpProbeSocket> mine = OPEN.get(loop);
        if (mine != null && mine.get(key) == this) {
            mine.remove(key);
            if (mine.isEmpty()) {
                OPEN.remove(loop);
            }
        }
        channel.close();
    }

    /** Whether the socket could not be opened; the member should {@link #leave} and join again. */
    boolean failed() {
        return failed;
    }

    /** Sends {@code m}'s request, once the socket is bound. On the loop. */
    void send(Member m) {
        if (!bound) {
            if (!waitingForBind.contains(m)) {
                waitingForBind.add(m);
            }
            return;
        }
        ByteBuf b = m.request(channel.alloc());
        if (b == null) {
            return;
        }
        channel.write(new DatagramPacket(b, m.target())).addListener(w -> {
            if (!w.isSuccess()) {
                m.unsent("send failed: " + w.cause().getMessage());
            }
        });
        if (!flushQueued) {
            flushQueued = true;
            loop.execute(flush);
        }
    }

    private void flushWrites() {
        flushQueued = false;
        if (channel.isOpen()) {
            channel.flush();
        }
    }

    private void bindDone(Throwable cause) {
        List<Member> waiting = new ArrayList<>(waitingForBind);
        waitingForBind.clear();
        if (cause != null) {
            failed = true;
            LOG.warn("probe socket {}: cannot open: {}", key, cause.getMessage());
            for (Member m : waiting) {
                m.unsent("cannot open a socket: " + cause.getMessage());
            }
            return;
        }
        bound = true;
        if (users == 0) {
            channel.close();
            return;
        }
        for (Member m : waiting) {
            send(m);
        }
    }

    private void read(DatagramPacket p) {
        List<Member> same = bySender.get(p.sender());
        if (same == null) {
            return; // a stray, or an answer to a check that has left
        }
        ByteBuf content = p.content();
        int at = content.readerIndex();
        for (int i = 0; i < same.size(); i++) {
            content.readerIndex(at);
            if (same.get(i).answer(content)) {
                return;
            }
        }
    }
}
