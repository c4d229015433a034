package io.mclb.gtp.lb;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * A GGSN/PGW stand-in on a loopback address, port 0: answers creates (v0/v1/v2) with a
 * configurable cause and, when accepted, a control TEID of its own; deletes with accepted; echo
 * with a configurable Recovery (or not at all when silent). Never answers a response (type 2).
 */
final class FakeGgsn implements AutoCloseable {
    final DatagramSocket socket;
    final int teidBase;
    volatile int v1Cause = 128;
    volatile int v2Cause = 16;
    volatile int recovery = 1;
    volatile boolean silent;
    final AtomicInteger creates = new AtomicInteger();
    final AtomicInteger deletes = new AtomicInteger();
    final AtomicInteger echoes = new AtomicInteger();
    final AtomicInteger others = new AtomicInteger();
    private final AtomicInteger nextTeid = new AtomicInteger();
    volatile InetSocketAddress lastPeer;
    /** Recovery of the last v1 Echo Response received (an answer from mclb to this GGSN's echo), -1 before. */
    volatile int echoAnswerRecovery = -1;
    /** Echo Responses of any version received: mclb's answers to echoes this GGSN sent to it. */
    final AtomicInteger echoAnswers = new AtomicInteger();
    /**
     * Datagrams received, those fully handled (answered or not), and every datagram sent (answers,
     * hook output, {@link #send}): a test accounts with these; received == handled when idle.
     */
    final AtomicInteger received = new AtomicInteger();
    final AtomicInteger handled = new AtomicInteger();
    final AtomicInteger sent = new AtomicInteger();
    /** Control TEIDs handed out in accepted v1/v2 create answers, so a test can address known sessions. */
    final List<Integer> createTeids = Collections.synchronizedList(new ArrayList<>());
    /**
     * (request, answer) to the datagrams actually sent instead of the answer (none, one, several),
     * e.g. mutated answers; null sends the answer as built. Runs on this GGSN's thread.
     */
    volatile BiFunction<byte[], byte[], List<byte[]>> answerHook;
    /** Every datagram received, a copy, before it is answered; null records nothing. Runs on this GGSN's thread. */
    volatile java.util.function.Consumer<byte[]> onReceive;
    private final Thread thread;

    FakeGgsn(String address, int teidBase) throws IOException {
        this(address, 0, teidBase);
    }

    /** On a fixed port (2123, 3386: a real without a port behind an all-ports virtual server). */
    FakeGgsn(String address, int port, int teidBase) throws IOException {
        socket = new DatagramSocket(port, InetAddress.getByName(address));
        this.teidBase = teidBase;
        thread = new Thread(this::run, "fake-ggsn-" + address);
        thread.setDaemon(true);
        thread.start();
    }

    String address() {
        return socket.getLocalAddress().getHostAddress();
    }

    int port() {
        return socket.getLocalPort();
    }

    private void run() {
        byte[] buf = new byte[9000];
        while (!socket.isClosed()) {
            try {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                socket.receive(p);
                received.incrementAndGet();
                try {
                    java.util.function.Consumer<byte[]> log = onReceive;
                    if (log != null) {
                        log.accept(Arrays.copyOf(buf, p.getLength()));
                    }
                    lastPeer = (InetSocketAddress) p.getSocketAddress();
                    byte[] answer = answer(ByteBuffer.wrap(buf, 0, p.getLength()).slice());
                    if (answer != null && !silent) {
                        BiFunction<byte[], byte[], List<byte[]>> hook = answerHook;
                        List<byte[]> out = hook == null ? List.of(answer)
                                : hook.apply(Arrays.copyOf(buf, p.getLength()), answer);
                        for (byte[] b : out) {
                            socket.send(new DatagramPacket(b, b.length, p.getSocketAddress()));
                            sent.incrementAndGet();
                        }
                    }
                } finally {
                    handled.incrementAndGet();
                }
            } catch (SocketException e) {
                return;
            } catch (IOException | RuntimeException e) {
                // a test GGSN ignores what it cannot read
            }
        }
    }

    /** Sends a raw datagram from this GGSN's socket (e.g. an Echo Request to mclb). */
    void send(byte[] b, InetSocketAddress to) throws IOException {
        socket.send(new DatagramPacket(b, b.length, to));
        sent.incrementAndGet();
    }

    /** One of the last 32 control TEIDs this GGSN handed out in accepted creates (chosen by {@code pick}), or 0 before any. */
    int createdTeid(java.util.Random pick) {
        synchronized (createTeids) {
            int n = createTeids.size();
            return n == 0 ? 0 : createTeids.get(n - 1 - pick.nextInt(Math.min(n, 32)));
        }
    }

    private byte[] answer(ByteBuffer m) {
        int version = (m.get(0) & 0xFF) >>> 5;
        int type = m.get(1) & 0xFF;
        if (type == 2) {
            echoAnswers.incrementAndGet();
            if (version == 1) {
                echoAnswerRecovery = m.get(13) & 0xFF;
            }
            return null;
        }
        if (type == 1) {
            echoes.incrementAndGet();
        } else if (type == 16 || type == 32) {
            creates.incrementAndGet();
        } else if (type == 20 || type == 36) {
            deletes.incrementAndGet();
        } else {
            others.incrementAndGet();
        }
        if (silent) {
            return null;
        }
        int teid = teidBase + nextTeid.incrementAndGet();
        byte[] gsn = socket.getLocalAddress().getAddress();
        switch (version) {
            case 0 -> {
                int seq = m.getShort(4) & 0xFFFF;
                long tid = m.getLong(12);
                B ies = new B();
                if (type == 1) {
                    ies.u8(14).u8(recovery);
                } else {
                    ies.u8(1).u8(type == 16 ? v1Cause : 128);
                }
                byte[] b = ies.bytes();
                return new B().u8(0x1E).u8(type + 1).u16(b.length).u16(seq).u16(0).u8(0xFF).u8(0xFF).u16(0xFFFF)
                        .u64(tid).raw(b).bytes();
            }
            case 1 -> {
                int seq = m.getShort(8) & 0xFFFF;
                B ies = new B();
                if (type == 1) {
                    ies.u8(14).u8(recovery);
                } else if (type == 16) {
                    ies.u8(1).u8(v1Cause);
                    if (v1Cause == 128) {
                        createTeids.add(teid);
                        // 29.060 7.3.2: Recovery when the GGSN first talks to this peer (IEs in type order)
                        ies.u8(14).u8(recovery).u8(17).u32(teid).u8(133).u16(gsn.length).raw(gsn);
                    }
                } else {
                    ies.u8(1).u8(128);
                }
                byte[] b = ies.bytes();
                return new B().u8(0x32).u8(type + 1).u16(4 + b.length).u32(0).u16(seq).u16(0).raw(b).bytes();
            }
            case 2 -> {
                int seq = m.getInt((m.get(0) & 0x08) != 0 ? 8 : 4) >>> 8;
                B ies = new B();
                if (type == 1) {
                    ies.u8(3).u16(1).u8(0).u8(recovery);
                    byte[] b = ies.bytes();
                    return new B().u8(0x40).u8(2).u16(4 + b.length).u24(seq).u8(0).raw(b).bytes();
                }
                int cause = type == 32 ? v2Cause : 16;
                ies.u8(2).u16(2).u8(0).u8(cause).u8(0);
                if (type == 32 && cause == 16) {
                    createTeids.add(teid);
                    ies.u8(87).u16(5 + gsn.length).u8(1).u8(gsn.length == 16 ? 0x47 : 0x87).u32(teid).raw(gsn);
                }
                byte[] b = ies.bytes();
                return new B().u8(0x48).u8(type + 1).u16(8 + b.length).u32(0).u24(seq).u8(0).raw(b).bytes();
            }
            default -> {
                return null;
            }
        }
    }

    @Override
    public void close() {
        socket.close();
    }

    /** Tiny byte builder. */
    static final class B {
        private final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();

        B u8(int v) {
            out.write(v);
            return this;
        }

        B u16(int v) {
            return u8(v >>> 8).u8(v);
        }

        B u24(int v) {
            return u8(v >>> 16).u16(v);
        }

        B u32(int v) {
            return u16(v >>> 16).u16(v);
        }

        B u64(long v) {
            return u32((int) (v >>> 32)).u32((int) v);
        }

        B raw(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
