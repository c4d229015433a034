package io.mclb.gtp;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * A real on loopback for the mobility services' tests: one socket and thread; every datagram is
 * recorded byte for byte and counted (received, then handled once answered or not), the subclass
 * builds the answer ({@link #answer}), and {@link #answerHook} may rewrite it (fuzz). Thread-safe.
 */
public abstract class FakeUdpPeer implements AutoCloseable {
    private final DatagramSocket socket;
    private final Thread thread;
    private final List<byte[]> seen = new ArrayList<>();
    public final AtomicInteger received = new AtomicInteger();
    public final AtomicInteger sent = new AtomicInteger();
    public final AtomicInteger handled = new AtomicInteger();
    /** Rewrites an answer before it is sent; null = as built; returning null sends nothing. */
    public volatile UnaryOperator<byte[]> answerHook;
    private volatile boolean closed;

    protected FakeUdpPeer(String address, String name) throws IOException {
        socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0));
        socket.setSoTimeout(100);
        thread = new Thread(this::run, name + "-" + address);
        thread.setDaemon(true);
        thread.start();
    }

    /** The answer to {@code request} (a copy the subclass may change), or null for none. */
    protected abstract byte[] answer(byte[] request);

    public String address() {
        return socket.getLocalAddress().getHostAddress();
    }

    public int port() {
        return socket.getLocalPort();
    }

    protected byte[] ownAddress() {
        return socket.getLocalAddress().getAddress();
    }

    public synchronized List<byte[]> seen() {
        return List.copyOf(seen);
    }

    public synchronized int count() {
        return seen.size();
    }

    private void run() {
        byte[] buf = new byte[9000];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        while (!closed) {
            try {
                p.setLength(buf.length);
                socket.receive(p);
            } catch (SocketTimeoutException e) {
                continue;
            } catch (IOException e) {
                return;
            }
            received.incrementAndGet();
            byte[] d = Arrays.copyOf(p.getData(), p.getLength());
            synchronized (this) {
                seen.add(d.clone());
            }
            try {
                byte[] answer = answer(d);
                UnaryOperator<byte[]> hook = answerHook;
                if (answer != null && hook != null) {
                    answer = hook.apply(answer);
                }
                if (answer != null) {
                    socket.send(new DatagramPacket(answer, answer.length, p.getSocketAddress()));
                    sent.incrementAndGet();
                }
            } catch (IOException e) {
                if (!closed) {
                    throw new IllegalStateException(e);
                }
            } finally {
                handled.incrementAndGet();
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        socket.close();
        thread.join(2000);
    }
}
