package io.mclb.ha;

import io.mclb.gtp.Apn;
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
 * The SGSN of {@link HaFailoverInteropIT}, run in the client namespace as its own JVM: sends GTPv1
 * Create PDP Context Requests for IMSIs {@code 0..count-1} in turn at a fixed rate to the virtual
 * address, until killed, and logs each answer as {@code RECV_EPOCH_MS IMSI_INDEX GGSN CAUSE}, GGSN
 * being the GSN Address IE of the response (the simulator puts its own address there, mclb leaves it).
 *
 * <p>Arguments: {@code TARGET_IP PORT SOURCE_IP IMSI_COUNT RATE_PER_S OUT_FILE}.
 */
public final class HaGtpClient {
    static final long IMSI_BASE = 262_010_000_000_000L;

    private HaGtpClient() {
    }

    public static void main(String[] args) throws Exception {
        InetSocketAddress target = new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1]));
        InetAddress source = InetAddress.getByName(args[2]);
        int count = Integer.parseInt(args[3]);
        long periodNs = 1_000_000_000L / Long.parseLong(args[4]);
        Path out = Path.of(args[5]);
        int[] imsiBySeq = new int[65536];
        DatagramChannel ch = DatagramChannel.open();
        ch.bind(new InetSocketAddress(source, 0));
        BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.US_ASCII);
        Thread rx = new Thread(() -> receive(ch, imsiBySeq, w), "rx");
        rx.setDaemon(true);
        rx.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            synchronized (w) {
                try {
                    w.flush();
                } catch (IOException e) {
                    // exiting anyway
                }
            }
        }));
        byte[] sgsn = source.getAddress();
        byte[] apn = Apn.encode("internet");
        ByteBuf buf = Unpooled.buffer(GtpRequestEncoder.MAX_LENGTH);
        long next = System.nanoTime();
        for (int n = 0; ; n++) {
            int imsi = n % count;
            int seq = n & 0xFFFF;
            imsiBySeq[seq] = imsi;
            buf.clear();
            GtpRequestEncoder.writeV1Create(buf, seq, GtpRequestEncoder.imsiRaw(IMSI_BASE + imsi, 15), 5, n + 1, n + 1,
                    sgsn, apn);
            try {
                ch.send(buf.nioBuffer(), target);
            } catch (IOException e) {
                // ICMP errors from a dead node's kernel surface here: keep sending
            }
            next += periodNs;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
        }
    }

    private static void receive(DatagramChannel ch, int[] imsiBySeq, BufferedWriter w) {
        ByteBuffer b = ByteBuffer.allocate(2048);
        long lastFlush = System.currentTimeMillis();
        while (true) {
            try {
                b.clear();
                ch.receive(b);
                b.flip();
                long now = System.currentTimeMillis();
                String line = parse(b, imsiBySeq, now);
                synchronized (w) {
                    if (line != null) {
                        w.write(line);
                    }
                    if (now - lastFlush > 100) {
                        w.flush();
                        lastFlush = now;
                    }
                }
            } catch (IOException e) {
                // port unreachable from a dead node: keep receiving
            }
        }
    }

    /** TV IE lengths of 29.060 table 37 (the types below 128 a create response may carry). */
    private static int tvLength(int type) {
        return switch (type) {
            case 1, 8, 11, 13, 14, 15, 19, 20, 21, 23, 24 -> 1;
            case 25, 26, 27 -> 2;
            case 12 -> 3;
            case 4, 5, 16, 17, 127 -> 4;
            case 18 -> 5;
            case 3 -> 6;
            case 2 -> 8;
            case 22 -> 9;
            case 9 -> 28;
            default -> -1;
        };
    }

    static String parse(ByteBuffer b, int[] imsiBySeq, long nowMs) {
        if (b.remaining() < 12 || (b.get(0) & 0xE0) != 0x20 || (b.get(1) & 0xFF) != 17) {
            return null;
        }
        int seq = b.getShort(8) & 0xFFFF;
        int p = (b.get(0) & 0x07) != 0 ? 12 : 8;
        int cause = -1;
        String ggsn = "-";
        while (p < b.limit()) {
            int type = b.get(p) & 0xFF;
            if (type < 128) {
                int len = tvLength(type);
                if (len < 0 || p + 1 + len > b.limit()) {
                    break;
                }
                if (type == 1) {
                    cause = b.get(p + 1) & 0xFF;
                }
                p += 1 + len;
            } else {
                if (p + 3 > b.limit()) {
                    break;
                }
                int len = b.getShort(p + 1) & 0xFFFF;
                if (type == 133 && len == 4 && "-".equals(ggsn)) {
                    ggsn = (b.get(p + 3) & 0xFF) + "." + (b.get(p + 4) & 0xFF) + "." + (b.get(p + 5) & 0xFF) + "."
                            + (b.get(p + 6) & 0xFF);
                }
                p += 3 + len;
            }
        }
        return nowMs + " " + imsiBySeq[seq] + " " + ggsn + " " + cause + "\n";
    }
}
