package io.mclb.testing;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fake real for engine tests: a UDP socket on a loopback address and a port the kernel picks,
 * echoing every datagram to its sender unless told to be silent. Counts what it sees. Stops
 * itself when closed (bounded receive timeout, daemon thread).
 */
public final class FakeUdpReal implements AutoCloseable {
    private final DatagramSocket socket;
    private final Thread thread;
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();
    private volatile boolean silent;
    private volatile InetSocketAddress ignored;
    private volatile boolean closed;
    private volatile InetSocketAddress lastSender;
    private final java.util.Set<Integer> senderPorts = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public FakeUdpReal(String address) throws IOException {
        socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0));
        socket.setSoTimeout(200);
        thread = new Thread(this::run, "fake-real-" + address);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        byte[] buf = new byte[65535];
        while (!closed) {
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            try {
                socket.receive(p);
            } catch (SocketTimeoutException e) {
                continue;
            } catch (IOException e) {
                return;
            }
            received.incrementAndGet();
            lastSender = (InetSocketAddress) p.getSocketAddress();
            senderPorts.add(p.getPort());
            if (!silent && !p.getSocketAddress().equals(ignored)) {
                try {
                    socket.send(new DatagramPacket(p.getData(), p.getOffset(), p.getLength(), p.getSocketAddress()));
                    answered.incrementAndGet();
                } catch (IOException e) {
                    if (closed) {
                        return;
                    }
                }
            }
        }
    }

    /** Distinct source ports seen since the last {@link #clearSenderPorts()} (mclb's upstream sockets). */
    public java.util.Set<Integer> senderPorts() {
        return java.util.Set.copyOf(senderPorts);
    }

    public void clearSenderPorts() {
        senderPorts.clear();
    }

    public int port() {
        return socket.getLocalPort();
    }

    public String address() {
        return socket.getLocalAddress().getHostAddress();
    }

    public long received() {
        return received.get();
    }

    public long answered() {
        return answered.get();
    }

    public InetSocketAddress lastSender() {
        return lastSender;
    }

    public void setSilent(boolean silent) {
        this.silent = silent;
    }

    /**
     * Answers everybody but {@code sender} (one broken peer's requests go unanswered: through mclb,
     * the upstream socket of that client's flow), or everybody with null.
     */
    public void ignore(InetSocketAddress sender) {
        this.ignored = sender;
    }

    @Override
    public void close() {
        closed = true;
        socket.close();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Sends and waits for one answer; null on timeout. */
    public static DatagramPacket exchange(DatagramSocket client, byte[] payload, InetSocketAddress target,
                                          int timeoutMs) throws IOException {
        client.setSoTimeout(timeoutMs);
        client.send(new DatagramPacket(payload, payload.length, target));
        byte[] b = new byte[65535];
        DatagramPacket in = new DatagramPacket(b, b.length);
        try {
            client.receive(in);
            return in;
        } catch (SocketTimeoutException e) {
            return null;
        } catch (SocketException e) {
            return null;
        }
    }
}
