package io.mclb.probe;

import io.netty.channel.EventLoop;
import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoEvent;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.channel.epoll.LinuxSocket;
import io.netty.channel.unix.Errors;
import io.netty.channel.unix.FileDescriptor;
import io.netty.util.concurrent.Future;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sockets of the tcp probe on one epoll event loop and address family. A check is a
 * non-blocking connect on a plain socket registered with the loop's epoll set, not a Netty
 * channel: no Bootstrap, pipeline, promises or connect timer per check (the probe's own timeout
 * ends a silent target). When the handshake completes, {@code connect(AF_UNSPEC)} aborts the
 * connection with a reset, as SO_LINGER 0 and close would (no FIN exchange, no TIME_WAIT), and
 * leaves the socket unconnected: the next check connects it again, so a check costs no
 * socket(), close() or epoll_ctl, only the connect and the reset. The sockets are edge-triggered
 * for writability: a connect in progress reports nothing until it is established (writable) or
 * fails (error); an idle socket's edges are ignored.
 *
 * <p>Each socket keeps its local address and port: after its first connect it is bound to the
 * source address and port the kernel chose for it ({@link Conn#pin}), and the pool is kept per
 * source address. What an application binds stays bound across {@code connect(AF_UNSPEC)} (the
 * kernel's SOCK_BINDADDR_LOCK and SOCK_BINDPORT_LOCK), so a later connect does one route lookup
 * instead of three (source, then the route again for the source, then again for the port), no
 * search for a free ephemeral port and no rehash of the socket by its source, at connect and at
 * reset. A check takes a socket of the source address the routing table gives its target
 * ({@link RouteSource}: a UDP connect, which sends nothing), asked again after any failure and
 * every {@value #SOURCE_TTL_S} s, so a routing change moves the checks to the new source. Two
 * checks in flight are two sockets, hence two ports: they never share a 4-tuple. A reset leaves
 * no TIME_WAIT on either side, so the same 4-tuple is free again for the next check. The idle
 * sockets of a source that no check has asked for in {@value #FORGOTTEN_TTLS} such periods (the
 * host lost the address, or the routes moved every target elsewhere) are closed. Confined to its
 * loop.
 */
final class TcpProbeSockets {
    /** Idle sockets kept per loop and family; more are closed (a burst of dead reals held many). */
    static final int MAX_IDLE = 256;
    /** How long a check trusts the source address it was given before asking the routing table again. */
    static final int SOURCE_TTL_S = 60;
    /**
     * A source's idle sockets are closed once no check has asked for it for this many
     * {@link #SOURCE_TTL_S} periods: every check of a source still in use asks for it at each run.
     */
    static final int FORGOTTEN_TTLS = 2;
    private static final long SOURCE_TTL_NS = SOURCE_TTL_S * 1_000_000_000L;
    private static final EpollIoOps CONNECT_OPS = EpollIoOps.EPOLLOUT.with(EpollIoOps.EPOLLET);
    private static final Map<EventLoop, TcpProbeSockets[]> OPEN = new ConcurrentHashMap<>();
    /** The pool key of sockets not bound to a source address. */
    private static final InetAddress UNBOUND = wildcard(new byte[4]);

    /** The check a connect reports to (on the loop). */
    interface Waiter {
        void connected();

        void failed(String reason);
    }

    private final IoEventLoop loop;
    private final boolean v6;
    /** Idle sockets by the source address they are bound to; {@link #UNBOUND} for those that could not be. */
    private final Map<InetAddress, SourcePool> idle = new HashMap<>();
    private int idleCount;
    /** When the pools were last looked over for forgotten sources; {@link Long#MIN_VALUE} before the first check. */
    private long lastSweepNs = Long.MIN_VALUE;
    private final RouteSource routes;
    private int users;
    private int open;

    private TcpProbeSockets(IoEventLoop loop, boolean v6) {
        this.loop = loop;
        this.v6 = v6;
        this.routes = new RouteSource(v6);
    }

    /** Whether {@code loop} runs epoll, where these sockets register; other transports use {@link TcpCheck}. */
    static boolean supports(EventLoop loop) {
        return loop instanceof IoEventLoop l && l.isCompatible(EpollIoHandle.class);
    }

    /** The sockets of {@code loop} (see {@link #supports}) for the family; {@link #release()} once done. On the loop. */
    static TcpProbeSockets acquire(EventLoop loop, boolean v6) {
        TcpProbeSockets[] pair = OPEN.computeIfAbsent(loop, l -> new TcpProbeSockets[2]);
        int i = v6 ? 1 : 0;
        if (pair[i] == null) {
            pair[i] = new TcpProbeSockets((IoEventLoop) loop, v6);
        }
        pair[i].users++;
        return pair[i];
    }

    /** A check is done with the sockets; the last one closes them. On the loop. */
    void release() {
        if (--users > 0) {
            return;
        }
        TcpProbeSockets[] pair = OPEN.get(loop);
        if (pair != null && pair[v6 ? 1 : 0] == this) {
            pair[v6 ? 1 : 0] = null;
            if (pair[0] == null && pair[1] == null) {
                OPEN.remove(loop);
            }
        }
        for (SourcePool pool : idle.values()) {
            pool.closeAll();
        }
        idle.clear();
        idleCount = 0;
        routes.close();
    }

    /**
     * The source address the routing table picks for {@code target}, or null when it has none
     * (unreachable) or cannot say: connecting a UDP socket routes it and sends nothing.
     */
    InetAddress routeSource(InetSocketAddress target) {
        return routes.of(target);
    }

    /** Sockets of this loop and family open (idle or connecting), for tests. On the loop. */
    int openSockets() {
        return open;
    }

    /** Sockets open (idle or connecting) on every loop, for tests of one loop: call it on that loop. */
    static int openOnAllLoops() {
        int n = 0;
        for (TcpProbeSockets[] pair : OPEN.values()) {
            for (TcpProbeSockets s : pair) {
                n += s == null ? 0 : s.open;
            }
        }
        return n;
    }

    /**
     * Starts a connect of {@code w} to {@code target} from a socket bound to {@code source} (a
     * fresh socket, which the kernel routes, when there is none idle or {@code source} is null).
     *
     * @param nowNs the check's start ({@link System#nanoTime}): {@code source} is in use then
     * @return the connection under way ({@link Conn#abandon} it on a timeout), or null when it
     *         ended at once and {@code w} has been told
     */
    Conn connect(InetSocketAddress target, InetAddress source, Waiter w, long nowNs) {
        if (lastSweepNs == Long.MIN_VALUE) {
            lastSweepNs = nowNs;
        } else if (nowNs - lastSweepNs > SOURCE_TTL_NS) {
            lastSweepNs = nowNs;
            closeForgottenSources(nowNs);
        }
        Conn c = source == null ? null : take(source, nowNs);
        if (c == null) {
            c = take(UNBOUND, nowNs); // routed by the kernel: to the same source, which it then keeps
        }
        if (c != null) {
            idleCount--;
        } else {
            try {
                c = new Conn(LinuxSocket.newSocketStream(v6));
            } catch (IOException | RuntimeException e) {
                w.failed("cannot open a socket: " + e.getMessage());
                return null;
            }
            open++;
            if (!c.register()) {
                w.failed("cannot register a socket with the event loop");
                return null;
            }
        }
        try {
            if (c.socket.connect(target)) { // not seen on Linux, where a non-blocking TCP connect is in progress
                c.reset(false);
                w.connected();
                return null;
            }
        } catch (IOException | RuntimeException e) {
            c.discard(); // its state after a refused connect() is not worth trusting with the next check
            w.failed(TcpCheck.connectFailure(e.getMessage(), target));
            return null;
        }
        c.waiter = w;
        c.target = target;
        c.askedNs = nowNs;
        return c;
    }

    private Conn take(InetAddress source, long nowNs) {
        SourcePool pool = idle.get(source);
        if (pool == null) {
            return null;
        }
        pool.lastAskedNs = nowNs;
        return pool.sockets.poll();
    }

    /**
     * Closes the idle sockets of every source no check has asked for in {@value #FORGOTTEN_TTLS}
     * x {@value #SOURCE_TTL_S} s: bound to an address the host may no longer have, they would
     * otherwise wait in the pool for ever (up to {@value #MAX_IDLE}).
     */
    private void closeForgottenSources(long nowNs) {
        Iterator<Map.Entry<InetAddress, SourcePool>> it = idle.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<InetAddress, SourcePool> e = it.next();
            if (e.getKey() != UNBOUND && nowNs - e.getValue().lastAskedNs > FORGOTTEN_TTLS * SOURCE_TTL_NS) {
                e.getValue().closeAll();
                it.remove();
            }
        }
    }

    /** Idle sockets bound to one source address, and when a check last asked for that source. */
    private final class SourcePool {
        final ArrayDeque<Conn> sockets = new ArrayDeque<>();
        long lastAskedNs;

        SourcePool(long lastAskedNs) {
            this.lastAskedNs = lastAskedNs;
        }

        void closeAll() {
            for (Conn c; (c = sockets.poll()) != null; ) {
                idleCount--;
                c.discard();
            }
        }
    }

    /** One pooled socket: connecting for {@link #waiter}, or idle in the pool when that is null. */
    final class Conn implements EpollIoHandle {
        private final LinuxSocket socket;
        private IoRegistration registration;
        private Waiter waiter;
        private InetSocketAddress target;
        /** When its check started: the source's last use, if this socket creates the source's pool. */
        private long askedNs;
        /** The source address this socket keeps, null until its first connect has chosen one. */
        private InetAddress source;
        /** Binding failed once (someone took the port between reset and bind): stop trying. */
        private boolean unpinnable;

        private Conn(LinuxSocket socket) throws IOException {
            this.socket = socket;
            socket.setSoLinger(0); // a socket closed (discarded) while connected resets too
        }

        private boolean register() {
            try {
                Future<IoRegistration> f = loop.register(this);
                if (f.isSuccess()) {
                    registration = f.getNow();
                    registration.submit(CONNECT_OPS);
                    return true;
                }
            } catch (Exception e) {
                // told by the caller
            }
            discard();
            return false;
        }

        @Override
        public FileDescriptor fd() {
            return socket;
        }

        @Override
        public void handle(IoRegistration r, IoEvent event) {
            Waiter w = waiter;
            if (w == null) {
                return; // an idle socket's edge (its own reset)
            }
            EpollIoOps ops = ((EpollIoEvent) event).ops();
            if (ops.contains(EpollIoOps.EPOLLERR)) {
                int err;
                try {
                    err = socket.getSoError();
                } catch (IOException e) {
                    err = -1;
                }
                if (err != 0) {
                    InetSocketAddress t = target;
                    waiter = null;
                    reset(false);
                    w.failed(err < 0 ? "connect failed: cannot read the socket's error" : reason(err, t));
                    return;
                }
            }
            if (ops.contains(EpollIoOps.EPOLLOUT)) {
                waiter = null;
                reset(false);
                w.connected();
            }
        }

        /** The check gave up (timeout, stop): the connect is aborted and the socket goes back. */
        void abandon() {
            if (waiter != null) {
                waiter = null;
                reset(true);
            }
        }

        /**
         * Aborts the connection (a reset if it was up) and returns the socket to the pool of its
         * source address: on top (its memory is warm), or at the bottom after a timeout, so the
         * next check of the same target does not reuse the 4-tuple whose late SYN-ACK the target
         * may still be sending.
         */
        private void reset(boolean timedOut) {
            target = null;
            // read before the reset: an unbound socket's address and port are released by it
            InetSocketAddress chosen = source == null && !unpinnable ? socket.localAddress() : null;
            try {
                socket.disconnect();
            } catch (IOException e) {
                discard();
                return;
            }
            if (chosen != null && chosen.getPort() != 0 && !chosen.getAddress().isAnyLocalAddress()) {
                pin(chosen);
            }
            if (idleCount < MAX_IDLE && users > 0) {
                InetAddress key = source == null ? UNBOUND : source;
                SourcePool pool = idle.get(key);
                if (pool == null) {
                    pool = new SourcePool(askedNs);
                    idle.put(key, pool);
                }
                if (timedOut) {
                    pool.sockets.addLast(this);
                } else {
                    pool.sockets.push(this);
                }
                idleCount++;
            } else {
                discard();
            }
        }

        /**
         * Binds the reset, now unbound socket to {@code chosen}, the address and port its connect
         * was given: from then on both are the application's and outlive every reset. Refused
         * (another socket took the port in between), the socket stays unbound and routed by the
         * kernel at each connect.
         */
        private void pin(InetSocketAddress chosen) {
            try {
                socket.bind(chosen);
                source = chosen.getAddress();
            } catch (IOException | RuntimeException e) {
                unpinnable = true;
            }
        }

        private void discard() {
            waiter = null;
            if (socket.isOpen()) {
                open--;
                try {
                    socket.close(); // closed first: the kernel drops it from epoll, no epoll_ctl needed
                } catch (IOException e) {
                    // nothing left to release
                }
            }
            if (registration != null) {
                registration.cancel();
            }
        }

        @Override
        public void close() {
            discard(); // the loop shuts down
        }
    }

    private static InetAddress wildcard(byte[] any) {
        try {
            return InetAddress.getByAddress(any);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // not for a literal of the right length
        }
    }

    private static String reason(int errno, InetSocketAddress target) {
        if (-errno == Errors.ERROR_ECONNREFUSED_NEGATIVE) {
            return "connection refused";
        }
        return TcpCheck.connectFailure(Errors.newIOException("connect", -errno).getMessage(), target);
    }
}
