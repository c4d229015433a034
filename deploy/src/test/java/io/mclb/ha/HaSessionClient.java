package io.mclb.ha;

import io.mclb.gtp.Apn;
import io.mclb.gtp.GtpMessageType;
import io.mclb.gtp.v1.GtpV1Message;
import io.mclb.gtp.v2.GtpV2Fteid;
import io.mclb.gtp.v2.GtpV2Message;
import io.mclb.perf.gtp.load.GtpRequestEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.BufferedWriter;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * The SGSN/SGW of {@link HaBindingTakeoverInteropIT}, run in the client namespace as its own JVM,
 * driven by files in {@code DIR}:
 * <ol>
 *   <li>creates {@code N} sessions through the virtual address (even index GTPv1 Create PDP
 *       Context, odd GTPv2 Create Session; each once), learning each GGSN's control TEID, then
 *       writes {@code DIR/created} with how many were answered;</li>
 *   <li>until {@code DIR/delete} exists: follow-ups to those TEIDs in turn (v1 Update PDP Context,
 *       v2 Modify Bearer) at {@code RATE}/s, and creates for fresh IMSIs at a quarter of it (load);</li>
 *   <li>then a Delete (v1 Delete PDP Context, v2 Delete Session) for every session, sent again
 *       while unanswered after a second (at most 4 times), and {@code DIR/done}.</li>
 * </ol>
 * Every answer is a line of {@code DIR/answers.txt}: {@code KIND RECV_EPOCH_MS INDEX CAUSE SENT_EPOCH_MS
 * [TEID]}, KIND being {@code C} (create of phase 1), {@code L} (load create), {@code F} (follow-up),
 * {@code D} (delete); every follow-up sent is a line {@code f SENT_EPOCH_MS INDEX}, so that one
 * never answered can be told from one answered.
 *
 * <p>Arguments: {@code TARGET_IP PORT SOURCE_IP N RATE_PER_S DIR [IMSI_OFFSET]} (two clients of one
 * test keep their subscribers apart with the offset).
 */
public final class HaSessionClient {
    private static final long IMSI_BASE = 262_020_000_000_000L;
    private static final int NSAPI = 5;
    /** At most this much sending is made up at once after a stall (a few ms at the rates used). */
    private static final long MAX_DEBT_NS = 5_000_000L;

    private final DatagramChannel ch;
    private final InetSocketAddress target;
    private final byte[] source;
    private final byte[] apn = Apn.encode("internet");
    private final ByteBuf buf = Unpooled.buffer(GtpRequestEncoder.MAX_LENGTH);
    /** By sequence (16 bits): the kind and index of the request sent with it. */
    private final char[] kindBySeq = new char[65536];
    private final int[] indexBySeq = new int[65536];
    private final long[] sentMsBySeq = new long[65536];
    private final int[] teid;
    /** The sequence of each session's create and delete: a retransmission is the same request again. */
    private final int[] createSeq;
    private final int[] deleteSeq;
    private final boolean[] deleted;
    private volatile int created;
    /** Answers the receiver could not read (counted, never fatal: a dead receiver would lose every later answer). */
    private volatile int unreadable;
    private int seq;

    private final long imsiBase;
    private BufferedWriter out;

    private HaSessionClient(DatagramChannel ch, InetSocketAddress target, byte[] source, int n, long imsiBase) {
        this.imsiBase = imsiBase;
        this.ch = ch;
        this.target = target;
        this.source = source;
        this.teid = new int[n];
        this.createSeq = new int[n];
        this.deleteSeq = new int[n];
        this.deleted = new boolean[n];
    }

    public static void main(String[] args) throws Exception {
        InetSocketAddress target = new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1]));
        InetAddress src = InetAddress.getByName(args[2]);
        int n = Integer.parseInt(args[3]);
        long periodNs = 1_000_000_000L / Long.parseLong(args[4]);
        Path dir = Path.of(args[5]);
        DatagramChannel ch = DatagramChannel.open();
        ch.setOption(java.net.StandardSocketOptions.SO_RCVBUF, 4 << 20);
        ch.bind(new InetSocketAddress(src, 0));
        long imsiBase = IMSI_BASE + (args.length > 6 ? Long.parseLong(args[6]) : 0);
        HaSessionClient c = new HaSessionClient(ch, target, src.getAddress(), n, imsiBase);
        BufferedWriter w = Files.newBufferedWriter(dir.resolve("answers.txt"), StandardCharsets.US_ASCII);
        c.out = w;
        Thread rx = new Thread(() -> c.receive(w), "rx");
        rx.setDaemon(true);
        rx.start();

        long next = System.nanoTime();
        // as an SGSN does (T3-RESPONSE 2 s, N3-REQUESTS 4): an unanswered create is sent again,
        // same sequence and bytes, so mclb takes it for the retransmission it is
        for (int round = 0; round < 4 && c.created < n; round++) {
            for (int i = 0; i < n; i++) {
                if (c.teid[i] == 0) {
                    c.create('C', i, round == 0 ? c.nextSeq('C', i) : c.createSeq[i]);
                    next = pace(next, periodNs);
                }
            }
            long end = System.nanoTime() + 2_000_000_000L;
            while (c.created < n && System.nanoTime() < end) {
                LockSupport.parkNanos(1_000_000);
            }
        }
        Files.writeString(dir.resolve("created"), Integer.toString(c.created));

        int load = n;
        for (long k = 0; !Files.exists(dir.resolve("delete")); k++) {
            int i = (int) (k % n);
            if (c.teid[i] != 0) {
                c.followUp(i);
            }
            if (k % 4 == 0) {
                c.create('L', load, c.nextSeq('L', load));
                load++;
            }
            next = pace(next, periodNs);
        }
        for (int round = 0; round < 4; round++) { // a Delete unanswered after 2 s is sent again, same sequence
            for (int i = 0; i < n; i++) {
                if (c.teid[i] != 0 && !c.deleted[i]) {
                    c.delete(i, round == 0 ? c.nextSeq('D', i) : c.deleteSeq[i]);
                    next = pace(next, periodNs);
                }
            }
            long end = System.nanoTime() + 2_000_000_000L;
            while (!c.allDeleted() && System.nanoTime() < end) {
                LockSupport.parkNanos(1_000_000);
            }
        }
        synchronized (w) {
            w.flush();
        }
        Files.writeString(dir.resolve("done"), "unreadable " + c.unreadable);
    }

    /** The next send time; a client that fell behind (a starved JVM) does not catch up in one burst. */
    private static long pace(long next, long periodNs) {
        long now = System.nanoTime();
        next = Math.max(next + periodNs, now - MAX_DEBT_NS);
        long wait = next - now;
        if (wait > 0) {
            LockSupport.parkNanos(wait);
        }
        return next;
    }

    private boolean allDeleted() {
        for (int i = 0; i < teid.length; i++) {
            if (teid[i] != 0 && !deleted[i]) {
                return false;
            }
        }
        return true;
    }

    private int nextSeq(char kind, int index) {
        int s = ++seq & 0xFFFF;
        kindBySeq[s] = kind;
        indexBySeq[s] = index;
        sentMsBySeq[s] = System.currentTimeMillis();
        return s;
    }

    private void create(char kind, int i, int s) {
        if (kind == 'C') {
            createSeq[i] = s;
        }
        long imsi = GtpRequestEncoder.imsiRaw(imsiBase + i, 15);
        buf.clear();
        if (i % 2 == 0) {
            GtpRequestEncoder.writeV1Create(buf, s, imsi, NSAPI, i + 1, i + 1, source, apn);
        } else {
            GtpRequestEncoder.writeV2Create(buf, s, imsi, NSAPI, i + 1, source, apn);
        }
        send();
    }

    private void followUp(int i) throws IOException {
        int s = nextSeq('F', i);
        synchronized (out) {
            out.write("f " + sentMsBySeq[s] + " " + i + "\n");
        }
        buf.clear();
        if (i % 2 == 0) {
            GtpRequestEncoder.writeV1Update(buf, s, teid[i], NSAPI);
        } else {
            GtpRequestEncoder.writeV2Modify(buf, s, teid[i], NSAPI);
        }
        send();
    }

    private void delete(int i, int s) {
        deleteSeq[i] = s;
        buf.clear();
        if (i % 2 == 0) {
            GtpRequestEncoder.writeV1Delete(buf, s, teid[i], NSAPI);
        } else {
            GtpRequestEncoder.writeV2Delete(buf, s, teid[i], NSAPI);
        }
        send();
    }

    private void send() {
        try {
            ch.send(buf.nioBuffer(), target);
        } catch (IOException e) {
            // ICMP errors while the address moves surface here: keep sending
        }
    }

    private void receive(BufferedWriter w) {
        ByteBuffer b = ByteBuffer.allocate(2048);
        GtpV1Message v1 = new GtpV1Message();
        GtpV2Message v2 = new GtpV2Message();
        GtpV2Fteid fteid = new GtpV2Fteid();
        long lastFlush = System.currentTimeMillis();
        while (true) {
            try {
                b.clear();
                ch.receive(b);
                b.flip();
                long now = System.currentTimeMillis();
                ByteBuf in = Unpooled.wrappedBuffer(b);
                int s;
                int cause;
                int learnt = 0;
                if (v1.wrap(in)) {
                    s = v1.sequence() & 0xFFFF;
                    cause = v1.ies().cause();
                    if (v1.messageType() == GtpMessageType.V1_CREATE_PDP_CONTEXT_RESPONSE && cause == 128) {
                        learnt = v1.ies().teidControl(false);
                    }
                } else if (v2.wrap(in)) {
                    s = v2.sequence() & 0xFFFF;
                    cause = v2.cause();
                    if (v2.messageType() == GtpMessageType.V2_CREATE_SESSION_RESPONSE && cause == 16
                            && v2.fteid(1, fteid)) {
                        learnt = fteid.teid();
                    }
                } else {
                    continue;
                }
                char kind = kindBySeq[s];
                int i = indexBySeq[s];
                if (kind == 'C' && learnt != 0 && teid[i] == 0) {
                    teid[i] = learnt;
                    created++;
                } else if (kind == 'D') {
                    deleted[i] = true;
                }
                synchronized (w) {
                    w.write(kind + " " + now + " " + i + " " + cause + " " + sentMsBySeq[s]
                            + (learnt != 0 ? " " + Integer.toHexString(learnt) : "") + "\n");
                    if (now - lastFlush > 100) {
                        w.flush();
                        lastFlush = now;
                    }
                }
            } catch (IOException e) {
                // port unreachable from a dead node: keep receiving
            } catch (RuntimeException e) {
                unreadable++;
            }
        }
    }
}
