package io.mclb.transaction;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/**
 * A real on loopback speaking {@link EchoIdService}'s protocol: answers a request with a
 * response carrying the same id and the request's sticky bytes and payload, or stays silent, or
 * rejects. Records every request it sees. Thread-safe.
 */
final class FakeReal implements AutoCloseable {
    enum Mode { ANSWER, SILENT, REJECT }

    /** One request as the real saw it. */
    record Seen(int id, int sourcePort, byte[] datagram) {
    }

    private final DatagramSocket socket;
    private final Thread thread;
    private final List<Seen> seen = new ArrayList<>();
    private volatile Mode mode = Mode.ANSWER;
    private volatile boolean closed;
    private volatile InetSocketAddress lastPeer;

    FakeReal(String address) throws IOException {
        socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0));
        socket.setSoTimeout(100);
        thread = new Thread(this::run, "fake-real-" + address);
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return socket.getLocalPort();
    }

    String address() {
        return socket.getLocalAddress().getHostAddress();
    }

    void mode(Mode m) {
        mode = m;
    }

    synchronized List<Seen> seen() {
        return List.copyOf(seen);
    }

    synchronized int count() {
        return seen.size();
    }

    /** Where mclb's requests came from (its upstream socket). */
    InetSocketAddress lastPeer() {
        return lastPeer;
    }

    /** Sends a datagram of its own to {@code to} (e.g. a response nobody asked for). */
    void send(byte[] datagram, InetSocketAddress to) throws IOException {
        socket.send(new DatagramPacket(datagram, datagram.length, to));
    }

    private void run() {
        byte[] buf = new byte[9001];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        while (!closed) {
            try {
                p.setLength(buf.length);
                socket.receive(p);
            } catch (SocketTimeoutException e) {
                continue;
            } catch (IOException e) {
                return; // closed
            }
            byte[] d = java.util.Arrays.copyOf(p.getData(), p.getLength());
            if (d.length < 3 || (d[0] != EchoIdService.REQUEST && d[0] != EchoIdService.FOLLOW_UP
                    && d[0] != EchoIdService.ONE_WAY)) {
                continue;
            }
            InetSocketAddress peer = (InetSocketAddress) p.getSocketAddress();
            lastPeer = peer;
            synchronized (this) {
                seen.add(new Seen(((d[1] & 0xff) << 8) | (d[2] & 0xff), peer.getPort(), d.clone()));
            }
            Mode m = mode;
            if (m == Mode.SILENT || d[0] == EchoIdService.ONE_WAY) {
                continue;
            }
            d[0] = (byte) (m == Mode.ANSWER ? EchoIdService.RESPONSE : EchoIdService.REJECT);
            try {
                socket.send(new DatagramPacket(d, d.length, peer));
            } catch (IOException e) {
                if (!closed) {
                    throw new IllegalStateException(e);
                }
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
