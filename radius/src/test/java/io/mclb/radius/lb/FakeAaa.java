package io.mclb.radius.lb;

import io.mclb.radius.codec.Dictionaries;
import org.tinyradius.packet.AccessRequest;
import org.tinyradius.packet.RadiusPacket;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small AAA server on a loopback address: decodes every request with its own secret (TinyRadius
 * checks the accounting authenticator and decrypts User-Password) and answers Access-Accept (with
 * Framed-IP-Address when set) or Accounting-Response, correctly signed; or stays silent, or
 * answers with a corrupted authenticator; or leaves every datagram to a test's {@link Responder}.
 */
final class FakeAaa implements AutoCloseable {
    enum Mode { ANSWER, SILENT, BAD_AUTHENTICATOR }

    /** One request as the AAA decoded it. */
    record Seen(RadiusPacket packet, int id, byte[] authenticator, InetSocketAddress from, String password,
                byte[] wire) {
    }

    final String secret;
    private final DatagramSocket socket;
    private final Thread thread;
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final List<String> undecodable = new CopyOnWriteArrayList<>();
    volatile Mode mode = Mode.ANSWER;
    volatile String framedIp;
    /** Answers carry a Message-Authenticator (RFC 2869 5.14), as an AAA with the BlastRADIUS fixes sends. */
    volatile boolean signAnswers;
    /** When set, answers every datagram instead of the decoding AAA above (mode and framedIp are ignored). */
    volatile Responder responder;
    private final AtomicInteger answers = new AtomicInteger();
    private final AtomicInteger handled = new AtomicInteger();
    /** Where the datagram being handled came from (a {@link Responder} may answer it later with {@link #sendTo}). */
    private volatile InetSocketAddress sender;

    /**
     * A test's own AAA behaviour over raw datagrams, so that it can answer requests TinyRadius would
     * refuse to decode and send answers TinyRadius cannot encode. Runs on the fake's thread.
     */
    interface Responder {
        /** The datagrams to send back to the sender, in order; empty to stay silent. */
        List<byte[]> answer(byte[] request, String secret) throws Exception;
    }

    FakeAaa(String address, String secret) throws Exception {
        this.secret = secret;
        this.socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0));
        this.thread = new Thread(this::run, "fake-aaa-" + address);
        thread.setDaemon(true);
        thread.start();
    }

    String address() {
        return socket.getLocalAddress().getHostAddress();
    }

    int port() {
        return socket.getLocalPort();
    }

    List<Seen> seen() {
        return seen;
    }

    int count() {
        return seen.size();
    }

    List<String> undecodable() {
        return undecodable;
    }

    /** Datagrams sent back so far (every mode). */
    int answers() {
        return answers.get();
    }

    /** Datagrams received and completely dealt with (answers sent, or dropped). */
    int handled() {
        return handled.get();
    }

    private void run() {
        byte[] buf = new byte[65535]; // what a proxy sends beyond RADIUS's 4096 must arrive whole
        while (!socket.isClosed()) {
            try {
                DatagramPacket d = new DatagramPacket(buf, buf.length);
                socket.receive(d);
                byte[] wire = java.util.Arrays.copyOf(buf, d.getLength());
                try {
                    handle(d, wire);
                } finally {
                    handled.incrementAndGet();
                }
            } catch (Exception e) {
                if (!socket.isClosed()) {
                    undecodable.add("io: " + e);
                }
            }
        }
    }

    InetSocketAddress sender() {
        return sender;
    }

    /** Sends {@code datagram} from this AAA's socket (a held answer, sent by a test). */
    void sendTo(byte[] datagram, InetSocketAddress to) throws java.io.IOException {
        socket.send(new DatagramPacket(datagram, datagram.length, to));
        answers.incrementAndGet();
    }

    private void handle(DatagramPacket d, byte[] wire) throws Exception {
        sender = (InetSocketAddress) d.getSocketAddress();
        Responder r = responder;
        if (r != null) {
            for (byte[] answer : r.answer(wire, secret)) {
                socket.send(new DatagramPacket(answer, answer.length, d.getSocketAddress()));
                answers.incrementAndGet();
            }
            return;
        }
        RadiusPacket req;
        try {
            req = RadiusPacket.decodeRequestPacket(Dictionaries.standard(), new ByteArrayInputStream(wire), secret);
        } catch (Exception e) {
            undecodable.add(String.valueOf(e.getMessage()));
            return;
        }
        String pw = req instanceof AccessRequest a ? a.getUserPassword() : null;
        seen.add(new Seen(req, req.getPacketIdentifier(), req.getAuthenticator(),
                (InetSocketAddress) d.getSocketAddress(), pw, wire));
        if (mode == Mode.SILENT) {
            return;
        }
        int code = req.getPacketType() == RadiusPacket.ACCESS_REQUEST ? RadiusPacket.ACCESS_ACCEPT
                : RadiusPacket.ACCOUNTING_RESPONSE;
        RadiusPacket resp = new RadiusPacket(code, req.getPacketIdentifier());
        resp.setDictionary(Dictionaries.standard());
        String fip = framedIp;
        if (code == RadiusPacket.ACCESS_ACCEPT && fip != null) {
            resp.addAttribute("Framed-IP-Address", fip);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        resp.encodeResponsePacket(out, secret, req);
        byte[] answer = out.toByteArray();
        if (signAnswers) {
            answer = MessageAuthenticators.signResponse(answer, req.getAuthenticator(), secret);
        }
        if (mode == Mode.BAD_AUTHENTICATOR) {
            answer[5] ^= 0x55;
        }
        socket.send(new DatagramPacket(answer, answer.length, d.getSocketAddress()));
        answers.incrementAndGet();
    }

    @Override
    public void close() {
        socket.close();
    }
}
