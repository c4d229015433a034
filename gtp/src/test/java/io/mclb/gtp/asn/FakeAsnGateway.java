package io.mclb.gtp.asn;

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

/**
 * An ASN gateway on loopback: answers every R6 Request (OP ID 1) with the Response (OP ID 2, the
 * next message type, the same MSID and transaction ID); Acks and Indications get no answer.
 * Records every datagram byte for byte. Thread-safe.
 */
final class FakeAsnGateway implements AutoCloseable {
    private final DatagramSocket socket;
    private final Thread thread;
    private final List<byte[]> seen = new ArrayList<>();
    final AtomicInteger received = new AtomicInteger();
    final AtomicInteger sent = new AtomicInteger();
    final AtomicInteger handled = new AtomicInteger();
    volatile java.util.function.UnaryOperator<byte[]> answerHook;
    volatile boolean silent;
    private volatile boolean closed;

    FakeAsnGateway(String address) throws IOException {
        socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0));
        socket.setSoTimeout(100);
        thread = new Thread(this::run, "fake-asngw-" + address);
        thread.setDaemon(true);
        thread.start();
    }

    String address() {
        return socket.getLocalAddress().getHostAddress();
    }

    int port() {
        return socket.getLocalPort();
    }

    synchronized List<byte[]> seen() {
        return List.copyOf(seen);
    }

    synchronized int count() {
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
                if (!silent && d.length >= 20 && R6.op(d) == 1) {
                    d[3] = (byte) ((2 << 5) | ((R6.type(d) + 1) & 0x1F));
                    var hook = answerHook;
                    byte[] answer = hook == null ? d : hook.apply(d);
                    if (answer != null) {
                        socket.send(new DatagramPacket(answer, answer.length, p.getSocketAddress()));
                        sent.incrementAndGet();
                    }
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
