package io.mclb.perf.probe;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The TCP target of {@link ProbeCostBenchmark}: one listener on the wildcard address accepts every
 * probe connection and, like a real server, keeps it until the prober ends it (with a reset, at
 * once); a connection is closed here only after 2 s, when the reset has long come (closing first
 * would reset it under the prober's feet before its loop saw the handshake complete). Runs in the
 * benchmark's JVM on loopback, or as its own process in the targets' namespace:
 * {@code TcpTarget PORT} prints {@code listening PORT} once it is.
 */
final class TcpTarget {
    private TcpTarget() {
    }

    public static void main(String[] args) throws IOException {
        ServerSocket s = listen(Integer.parseInt(args[0]));
        System.out.println("listening " + s.getLocalPort());
        System.out.flush();
        serve(s, new AtomicBoolean());
    }

    static ServerSocket listen(int port) throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress("0.0.0.0", port), 4096);
        s.setSoTimeout(200);
        return s;
    }

    static void serve(ServerSocket s, AtomicBoolean stop) {
        ArrayDeque<Socket> open = new ArrayDeque<>();
        ArrayDeque<Long> openedAt = new ArrayDeque<>();
        while (!stop.get() && !s.isClosed()) {
            try {
                open.add(s.accept());
                openedAt.add(System.nanoTime());
            } catch (SocketTimeoutException e) {
                // look at stop
            } catch (IOException e) {
                // one connection failed, not the listener
            }
            while (!openedAt.isEmpty() && System.nanoTime() - openedAt.peek() > 2_000_000_000L) {
                openedAt.poll();
                try {
                    open.poll().close();
                } catch (IOException e) {
                    // already reset by the prober
                }
            }
        }
    }
}
