package io.mclb.probe;

import io.mclb.net.UdpSockets;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.LinuxSocket;
import io.netty.channel.socket.DatagramPacket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The half-open checks of the tcp probe on one event loop and address family: each check sends
 * one SYN from the loop's reserved source port through a raw TCP socket and reads the target's
 * SYN-ACK (a listener has room: pass) or reset (nothing listens: refused) there. No socket owns
 * the 4-tuple, so the host's own kernel answers the SYN-ACK with a reset, in its receive path:
 * no connect, reset or socket state in mclb's threads. The port is reserved by an ordinary TCP
 * socket bound to it and never listening (so no other socket takes it and the kernel still
 * resets what arrives for it); the raw socket's kernel filter passes only SYN-ACKs and resets to
 * it. One port serves every target, since the 4-tuple tells the checks apart; the initial
 * sequence number is the check's slot (low 16 bits) and a random nonce (high 16) plus a keyed
 * hash of the target ({@link SynSequence}), and an answer counts only when it acknowledges
 * exactly that number, from the target's address and port.
 *
 * <p>Needs CAP_NET_RAW and the JNI helper; where either is missing {@link #unavailable()} says
 * why and the probe connects instead ({@link TcpConnectCheck}). The mode is logged once per
 * family. Confined to its loop; checks acquire and release it there.
 */
final class TcpRawSocket {
    private static final Logger LOG = LoggerFactory.getLogger(TcpRawSocket.class);
    private static final Map<EventLoop, TcpRawSocket[]> OPEN = new ConcurrentHashMap<>();
    /** Per family (0 IPv4, 1 IPv6): why raw sockets failed to open, so later checks do not try again. */
    private static final AtomicReferenceArray<String> REFUSED = new AtomicReferenceArray<>(2);
    private static final boolean[] LOGGED = new boolean[2];

    /** A check waiting for its SYN's answer. */
    interface Waiter {
        /** The target's address with port 0, as the raw socket sends to it (its "port" is the protocol). */
        InetSocketAddress destination();

        /** The target's port. */
        int port();

        /** The target answered: {@code listening} with a SYN-ACK, else with a reset (on the loop). */
        void answered(boolean listening);

        /** Its SYN could not be sent. */
        void unsent(String reason);
    }

    private final EventLoop loop;
    private final boolean v6;
    private final String unavailable;
    private final LinuxSocket reservation;
    private final int port;
    private final EpollDatagramChannel channel;
    private final RouteSource routes;
    private final CheckSlots<Waiter> slots = new CheckSlots<>();
    private final int[] seqBySlot = new int[CheckSlots.SIZE];
    private final SynSequence secret = new SynSequence(new SecureRandom());
    private final GridFlush flush;
    private int users;
    /** Answers read whose acknowledgment or sender matched no check waiting (late, or another's): tests. */
    private long unmatched;

    private TcpRawSocket(EventLoop loop, boolean v6) {
        this.loop = loop;
        this.v6 = v6;
        this.routes = new RouteSource(v6);
        int family = v6 ? 1 : 0;
        String why = REFUSED.get(family) != null ? REFUSED.get(family) : TcpRawNative.UNAVAILABLE;
        LinuxSocket reserved = null;
        int p = 0;
        if (why == null) {
            try {
                reserved = LinuxSocket.newSocketStream(v6);
                reserved.bind(new InetSocketAddress(v6 ? InetAddress.getByName("::") : InetAddress.getByName("0.0.0.0"), 0));
                p = reserved.localAddress().getPort();
            } catch (IOException | RuntimeException e) {
                why = "cannot reserve a source port: " + e.getMessage();
            }
        }
        EpollDatagramChannel ch = null;
        if (why == null) {
            int fd = TcpRawNative.open0(v6, p);
            if (fd < 0) {
                why = "cannot open a raw TCP" + (v6 ? "v6" : "") + " socket (errno " + (-fd)
                        + (-fd == 1 ? ": no CAP_NET_RAW" : "") + ")";
                REFUSED.set(family, why);
            } else {
                ch = new EpollDatagramChannel(fd);
                ch.config().setOption(ChannelOption.SO_RCVBUF, UdpSockets.SOCKET_BUFFER_BYTES);
                ch.pipeline().addLast(new SharedSocketReader("raw TCP socket", this::answer));
                var reg = loop.register(ch);
                if (!reg.isSuccess()) {
                    why = "cannot register the raw TCP socket: " + reg.cause();
                    ch.unsafe().closeForcibly();
                    ch = null;
                }
            }
        }
        if (why != null && reserved != null) {
            closeQuietly(reserved);
            reserved = null;
        }
        logModeOnce(family, why, p);
        this.unavailable = why;
        this.reservation = reserved;
        this.port = p;
        this.channel = ch;
        this.flush = ch == null ? null : new GridFlush(loop, ch);
    }

    private static synchronized void logModeOnce(int family, String why, int port) {
        if (LOGGED[family]) {
            return;
        }
        LOGGED[family] = true;
        String v = family == 1 ? "IPv6" : "IPv4";
        if (why == null) {
            LOG.info("tcp probes run half-open {} checks: a SYN over a raw socket (CAP_NET_RAW) from reserved port {},"
                    + " its SYN-ACK passes, a reset refuses, the host's kernel resets the SYN-ACK"
                    + " ('handshake full' on a probe completes the connection instead)", v, port);
        } else {
            LOG.info("tcp probes complete a handshake for {} targets (connect, then reset): no half-open check, {}", v, why);
        }
    }

    /** The loop's socket of this family, opened on first use; call {@link #release()} once done. On the loop. */
    static TcpRawSocket acquire(EventLoop loop, boolean v6) {
        TcpRawSocket[] pair = OPEN.computeIfAbsent(loop, l -> new TcpRawSocket[2]);
        int i = v6 ? 1 : 0;
        if (pair[i] == null) {
            pair[i] = new TcpRawSocket(loop, v6);
        }
        pair[i].users++;
        return pair[i];
    }

    /**
     * Whether half-open checks of the family can run on an epoll loop of this process: false
     * without the JNI helper or once a raw socket was refused (no CAP_NET_RAW), which is then
     * logged once.
     */
    static boolean available(boolean v6) {
        int family = v6 ? 1 : 0;
        String why = REFUSED.get(family) != null ? REFUSED.get(family) : TcpRawNative.UNAVAILABLE;
        if (why != null) {
            logModeOnce(family, why, 0);
        }
        return why == null;
    }

    void release() {
        if (--users > 0) {
            return;
        }
        TcpRawSocket[] pair = OPEN.get(loop);
        if (pair != null && pair[v6 ? 1 : 0] == this) {
            pair[v6 ? 1 : 0] = null;
            if (pair[0] == null && pair[1] == null) {
                OPEN.remove(loop);
            }
        }
        if (channel != null) {
            channel.close();
        }
        if (reservation != null) {
            closeQuietly(reservation);
        }
        routes.close();
        slots.clear();
    }

    /** Why this socket cannot send, or null. */
    String unavailable() {
        return unavailable;
    }

    /** The reserved source port of the SYNs. */
    int port() {
        return port;
    }

    /** Answers that matched no waiting check, for tests. */
    long unmatched() {
        return unmatched;
    }

    /** The source address the routing table gives {@code target} now, or null (no route). */
    InetAddress routeSource(InetSocketAddress target) {
        return routes.of(target);
    }

    /**
     * Sends a SYN for {@code w}.
     *
     * @param sourceV4 the IPv4 source the kernel sends it from ({@link #routeSource}), for the checksum
     * @param targetV4 the IPv4 target as an int ({@link TcpSegment#v4})
     * @return its slot (give it to {@link #forget}), or -1 when no slot is free
     */
    int send(Waiter w, int sourceV4, int targetV4) {
        int slot = slots.take(w);
        if (slot < 0) {
            return -1;
        }
        int seq = ThreadLocalRandom.current().nextInt() & 0xffff0000 | slot;
        seqBySlot[slot] = seq;
        int isn = seq + secret.offset(w.destination().getAddress(), w.port());
        ByteBuf syn = TcpSegment.syn(channel.alloc(), v6, sourceV4, targetV4, port, w.port(), isn);
        channel.write(new DatagramPacket(syn, w.destination())).addListener(f -> {
            if (!f.isSuccess() && slots.release(slot, w)) {
                w.unsent(f.cause().getMessage());
            }
        });
        flush.request();
        return slot;
    }

    /** The check no longer waits for {@code slot} (answered elsewhere, timed out, closed). */
    void forget(int slot, Waiter w) {
        slots.release(slot, w);
    }

    private void answer(DatagramPacket p) {
        ByteBuf d = p.content();
        int at = TcpSegment.start(d, v6);
        if (at < 0 || TcpSegment.destinationPort(d, at) != port) {
            return;
        }
        int flags = TcpSegment.flags(d, at);
        boolean synAck = TcpSegment.isSynAck(flags);
        if (!synAck && !TcpSegment.isAckedReset(flags)) {
            return;
        }
        int seq = TcpSegment.acknowledgment(d, at) - 1
                - secret.offset(p.sender().getAddress(), TcpSegment.sourcePort(d, at));
        int slot = seq & 0xffff;
        Waiter w = slots.get(slot);
        if (w == null || seqBySlot[slot] != seq || TcpSegment.sourcePort(d, at) != w.port()
                || !w.destination().getAddress().equals(p.sender().getAddress())) {
            unmatched++;
            return;
        }
        slots.release(slot, w);
        w.answered(synAck);
    }

    private static void closeQuietly(LinuxSocket s) {
        try {
            s.close();
        } catch (IOException e) {
            // nothing left to release
        }
    }
}
