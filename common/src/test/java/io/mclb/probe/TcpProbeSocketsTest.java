package io.mclb.probe;

import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The pooled sockets of the tcp probe on a real epoll loop, connecting to a listener on loopback,
 * with the checks' clock given by hand: the idle sockets of a source no check has asked for in
 * {@value TcpProbeSockets#FORGOTTEN_TTLS} x {@value TcpProbeSockets#SOURCE_TTL_S} s are closed
 * (an address the host lost would otherwise keep them for ever), those of a source in use stay.
 */
class TcpProbeSocketsTest {
    private static final long TTL_NS = TcpProbeSockets.SOURCE_TTL_S * 1_000_000_000L;
    private static final InetAddress SOURCE = InetAddress.getLoopbackAddress(); // the kernel's source for 127.0.0.0/8

    private MultiThreadIoEventLoopGroup group;
    private EventLoop loop;
    private ServerSocket listener;
    private InetSocketAddress target;
    private TcpProbeSockets sockets;

    @BeforeEach
    void start() throws Exception {
        assumeTrue(Epoll.isAvailable(), "epoll available");
        group = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        loop = group.next();
        listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.42")); // the kernel completes handshakes
        target = new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort());
        sockets = onLoop(() -> TcpProbeSockets.acquire(loop, false));
    }

    @AfterEach
    void stop() throws Exception {
        if (sockets != null) {
            onLoop(() -> {
                sockets.release();
                return null;
            });
        }
        if (listener != null) {
            listener.close();
        }
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void theIdleSocketsOfASourceNoCheckAskedForAreClosedAndThoseInUseStay() throws Exception {
        long t0 = 1_000 * TTL_NS;
        // two checks at once: two sockets, each pinned to the loopback source after its reset
        check(null, t0, 2);
        assertThat(open()).as("two pooled sockets, idle").isEqualTo(2);

        // a check of that source just within the ttl keeps the pool alive past 2 ttl from t0
        check(SOURCE, t0 + TTL_NS, 1);
        check(SOURCE, t0 + 2 * TTL_NS + 1, 1);
        assertThat(open()).as("the source is in use: its sockets stay").isEqualTo(2);

        // no check asks for it for 2 ttl and a bit: the next check (routed afresh) sweeps its sockets
        long later = t0 + 2 * TTL_NS + 1 + TcpProbeSockets.FORGOTTEN_TTLS * TTL_NS + 1;
        check(null, later, 1);
        assertThat(open()).as("the forgotten source's idle sockets closed; the check's own fresh socket open")
                .isEqualTo(1);
    }

    /** {@code n} checks from {@code source} started at {@code nowNs}, waited until each passed. */
    private void check(InetAddress source, long nowNs, int n) throws Exception {
        CompletableFuture<?>[] done = new CompletableFuture<?>[n];
        onLoop(() -> {
            for (int i = 0; i < n; i++) {
                CompletableFuture<String> f = new CompletableFuture<>();
                done[i] = f;
                TcpProbeSockets.Conn c = sockets.connect(target, source, new TcpProbeSockets.Waiter() {
                    @Override
                    public void connected() {
                        f.complete("connected");
                    }

                    @Override
                    public void failed(String reason) {
                        f.complete(reason);
                    }
                }, nowNs);
                assertThat(c).as("connect in progress").isNotNull();
            }
            return null;
        });
        for (CompletableFuture<?> f : done) {
            assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo("connected");
        }
    }

    private int open() throws Exception {
        return onLoop(sockets::openSockets);
    }

    private <T> T onLoop(Callable<T> c) throws Exception {
        return loop.submit(c).get(10, TimeUnit.SECONDS);
    }
}
