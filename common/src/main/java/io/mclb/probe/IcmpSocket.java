package io.mclb.probe;

import io.mclb.net.Transports;
import io.mclb.net.UdpSockets;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One ICMP socket per event loop and address family, shared by every ping check on that loop
 * (as fping does): thousands of reals cost two descriptors per loop, and a raw socket, which sees
 * every echo reply the host receives, is read once rather than once per check. Echo requests carry
 * a sequence number per outstanding check; a reply is matched by sequence number, sender address
 * and our data (and on a raw socket our identifier).
 *
 * <p>The socket is a ping datagram socket where {@code net.ipv4.ping_group_range} admits mclb's
 * group (unprivileged; the kernel picks the identifier and delivers only our replies), a raw one
 * otherwise (CAP_NET_RAW); the choice is logged once per family. Confined to its loop; checks
 * acquire and release it there.
 */
final class IcmpSocket {
    private static final Logger LOG = LoggerFactory.getLogger(IcmpSocket.class);
    private static final Map<EventLoop, IcmpSocket[]> OPEN = new ConcurrentHashMap<>();
    /** Per family (0 IPv4, 1 IPv6): the mode chosen and logged, null before the first open. */
    private static final Boolean[] RAW = new Boolean[2];

    /** A check waiting for its echo reply. */
    interface Waiter {
        InetSocketAddress destination();

        /** Its echo reply arrived (on the loop). */
        void answered();

        /** Its request could not be sent. */
        void unsent(String reason);
    }

    private final EventLoop loop;
    private final boolean v6;
    private final String unavailable;
    private final EpollDatagramChannel channel;
    private final boolean raw;
    private final int ident;
    private final CheckSlots<Waiter> bySeq = new CheckSlots<>();
    /** Echo replies read here with another identifier: the raw socket's kernel filter lets none in (tests). */
    private long foreignReplies;
    private int users;
    private final GridFlush flush;

    private IcmpSocket(EventLoop loop, boolean v6) {
        this.loop = loop;
        this.v6 = v6;
        this.ident = (int) ((ProcessHandle.current().pid() * 31 + System.identityHashCode(loop)) & 0xffff);
        String why = IcmpNative.UNAVAILABLE;
        if (why == null && !Transports.nativeEpoll()) {
            why = "ICMP needs the epoll transport, this process runs " + Transports.active().keyword()
                    + " (mclb transport epoll)";
        }
        int fd = -1;
        boolean rawMode = false;
        if (why == null) {
            int family = v6 ? 1 : 0;
            fd = IcmpNative.open0(v6, false, ident);
            if (fd < 0) {
                int dgramErr = -fd;
                fd = IcmpNative.open0(v6, true, ident);
                rawMode = true;
                if (fd < 0) {
                    why = "cannot open an ICMP" + (v6 ? "v6" : "") + " socket: ping datagram sockets refused (errno "
                            + dgramErr + ": net.ipv4.ping_group_range excludes this group) and raw sockets refused"
                            + " (errno " + (-fd) + ": no CAP_NET_RAW)";
                }
            }
            if (why == null) {
                logModeOnce(family, rawMode);
            }
        }
        EpollDatagramChannel ch = null;
        if (why == null) {
            ch = new EpollDatagramChannel(fd);
            ch.config().setOption(ChannelOption.SO_RCVBUF, UdpSockets.SOCKET_BUFFER_BYTES);
            ch.pipeline().addLast(new SharedSocketReader("ICMP socket", this::reply));
            var reg = loop.register(ch);
            if (!reg.isSuccess()) {
                why = "cannot register the ICMP socket: " + reg.cause();
                ch.unsafe().closeForcibly();
                ch = null;
            }
        }
        this.unavailable = why;
        this.channel = ch;
        this.flush = ch == null ? null : new GridFlush(loop, ch);
        this.raw = rawMode;
    }

    private static synchronized void logModeOnce(int family, boolean raw) {
        if (RAW[family] == null || RAW[family] != raw) {
            RAW[family] = raw;
            String v = family == 1 ? "ICMPv6" : "ICMP";
            if (raw) {
                LOG.info("ping probes use raw {} sockets (CAP_NET_RAW): net.ipv4.ping_group_range does not admit this"
                        + " process's group for unprivileged ping sockets", v);
            } else {
                LOG.info("ping probes use unprivileged {} datagram sockets (net.ipv4.ping_group_range)", v);
            }
        }
    }

    /** The loop's socket of this family, opened on first use; call {@link #release()} once done. On the loop. */
    static IcmpSocket acquire(EventLoop loop, boolean v6) {
        IcmpSocket[] pair = OPEN.computeIfAbsent(loop, l -> new IcmpSocket[2]);
        int i = v6 ? 1 : 0;
        if (pair[i] == null) {
            pair[i] = new IcmpSocket(loop, v6);
            if (pair[i].unavailable != null) {
                LOG.warn("ping probes cannot run: {}", pair[i].unavailable);
            }
        }
        pair[i].users++;
        return pair[i];
    }

    void release() {
        if (--users > 0) {
            return;
        }
        IcmpSocket[] pair = OPEN.get(loop);
        if (pair != null) {
            pair[v6 ? 1 : 0] = null;
            if (pair[0] == null && pair[1] == null) {
                OPEN.remove(loop);
            }
        }
        if (channel != null) {
            channel.close();
        }
        bySeq.clear();
    }

    /** Replies with a foreign identifier read on {@code loop}'s IPv4 socket (tests): call it on that loop. */
    static long foreignReplies(EventLoop loop) {
        IcmpSocket[] pair = OPEN.get(loop);
        return pair == null || pair[0] == null ? 0 : pair[0].foreignReplies;
    }

    /** Why this socket cannot send, or null. */
    String unavailable() {
        return unavailable;
    }

    /** "raw" or "datagram", for show probe. */
    String mode() {
        return unavailable != null ? "unavailable" : raw ? "raw" : "datagram";
    }

    /**
     * Sends an echo request for {@code w}.
     *
     * @return its sequence number (give it to {@link #forget}), or -1 when no number is free
     */
    int send(Waiter w) {
        int seq = bySeq.take(w);
        if (seq < 0) {
            return -1;
        }
        ByteBuf req = IcmpEcho.request(channel.alloc(), v6, ident, seq);
        channel.write(new DatagramPacket(req, w.destination())).addListener(f -> {
            if (!f.isSuccess() && bySeq.release(seq, w)) {
                w.unsent(f.cause().getMessage());
            }
        });
        flush.request();
        return seq;
    }

    /** The check no longer waits for {@code seq} (answered elsewhere, timed out, closed). */
    void forget(int seq, Waiter w) {
        bySeq.release(seq, w);
    }

    private void reply(DatagramPacket p) {
        ByteBuf d = p.content();
        int at = IcmpEcho.start(d, v6, raw);
        if (!IcmpEcho.isOurReply(d, at, v6)) {
            return; // not an echo reply of ours: not ours to judge
        }
        if (raw && IcmpEcho.ident(d, at) != ident) {
            foreignReplies++; // another loop's or program's, had the filter let it through
            return;
        }
        int seq = IcmpEcho.sequence(d, at);
        Waiter w = bySeq.get(seq);
        if (w != null && w.destination().getAddress().equals(p.sender().getAddress())) {
            bySeq.release(seq, w);
            w.answered();
        }
    }
}
