package io.mclb.gtp.mip;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * A home agent on loopback: answers every Registration Request with a Registration Reply carrying
 * {@link #code}, the requested lifetime (capped at {@link #maxLifetime}), its own address in the
 * Home Agent field and an Identification whose low 32 bits are the request's (RFC 5944 5.7), the
 * high 32 bits its own clock. Records every datagram it receives, byte for byte. Thread-safe.
 */
final class FakeHomeAgent implements AutoCloseable {
    private final DatagramSocket socket;
    private final Thread thread;
    private final List<byte[]> seen = new ArrayList<>();
    final AtomicInteger received = new AtomicInteger();
    final AtomicInteger sent = new AtomicInteger();
    final AtomicInteger handled = new AtomicInteger();
    volatile IntSupplier code = () -> 0;
    volatile int maxLifetime = 1800;
    /** Rewrites an answer before it is sent (fuzz); null = send as built. */
    volatile java.util.function.UnaryOperator<byte[]> answerHook;
    private volatile boolean closed;

    FakeHomeAgent(String address) throws IOException {
        socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0));
        socket.setSoTimeout(100);
        thread = new Thread(this::run, "fake-ha-" + address);
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

    static byte[] reply(byte[] request, int code, int lifetime, byte[] haAddress) {
        ByteBuffer b = ByteBuffer.allocate(20);
        b.put((byte) 3).put((byte) code).putShort((short) lifetime);
        b.put(request, 4, 4);             // Home Address
        b.put(haAddress);                 // this home agent
        b.putInt(0x5EED0000);             // high 32 bits: the home agent's time
        b.put(request, 20, 4);            // low 32 bits copied from the request
        return b.array();
    }

    private void run() {
        byte[] buf = new byte[9000];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        byte[] me = socket.getLocalAddress().getAddress();
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
                seen.add(d);
            }
            try {
                if (d.length >= 24 && d[0] == 1) {
                    int lifetime = Math.min(((d[2] & 0xFF) << 8) | (d[3] & 0xFF), maxLifetime);
                    byte[] answer = reply(d, code.getAsInt(), lifetime, me);
                    var hook = answerHook;
                    if (hook != null) {
                        answer = hook.apply(answer);
                    }
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
