package io.mclb.ha.replication;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The standby against a scripted fake active (a plain socket): every bad frame is refused and
 * counted, the table is left as it was, and the standby comes back with a new HELLO (a resync).
 */
class StandbyRefusalTest {
    private static final String SECRET = "casa-secret";
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path dir;
    private Node standby;
    private ServerSocket fakeActive;
    private Map<String, String> before;

    @BeforeEach
    void start() throws Exception {
        standby = new Node(dir.resolve("b"));
        standby.put(1, 1);
        before = standby.contents();
        fakeActive = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
        fakeActive.setSoTimeout(20_000);
        // the fake active sends no heartbeats: a 2 s interval (6 s of silence tolerated) keeps a slow
        // test thread from losing its connection to the standby's idle timer before it sends a frame
        standby.replicator.startStandby(Node.config(SECRET).withPort(fakeActive.getLocalPort())
                .withTuning(Duration.ofSeconds(2), Duration.ofMillis(50), 1 << 14), null);
    }

    @AfterEach
    void stop() throws Exception {
        standby.close();
        fakeActive.close();
    }

    /** One accepted standby connection, past its HELLO, with a codec keyed like the real active's. */
    private final class Conn implements AutoCloseable {
        final Socket socket;
        final OutputStream out;
        final FrameCodec codec = new FrameCodec(SECRET);

        Conn() throws Exception {
            socket = fakeActive.accept();
            socket.setSoTimeout(20_000);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] hello = new byte[in.readInt()];
            in.readFully(hello);
            ByteBuf h = Unpooled.wrappedBuffer(hello);
            assertThat(codec.verify(h)).isTrue();
            assertThat(hello[0]).isEqualTo((byte) FrameType.HELLO.code);
            byte[] nonce = new byte[FrameCodec.NONCE];
            h.getBytes(FrameCodec.HEADER, nonce);
            codec.useSessionKey(nonce);
            out = socket.getOutputStream();
        }

        void send(byte[] bytes) throws Exception {
            out.write(bytes);
            out.flush();
        }

        @Override
        public void close() throws Exception {
            socket.close();
        }
    }

    static byte[] put(FrameCodec codec, long seq, int key, long real) {
        ByteBuf b = Unpooled.buffer();
        int start = FrameCodec.begin(b, FrameType.PUT, seq, EpochClock.nowMicros(), 36);
        b.writeBytes(Node.key(key).bytes()).writeBytes(Node.value(real).bytes());
        codec.end(b, start);
        byte[] out = new byte[b.readableBytes()];
        b.readBytes(out);
        return out;
    }

    private void assertRefusedAndResyncRequested(String reason) throws Exception {
        await().atMost(WAIT).until(() -> standby.counter(ReplicationMetrics.REFUSED, "reason", reason) >= 1);
        assertThat(standby.contents()).isEqualTo(before);
        // the standby reconnects and its HELLO asks for a full snapshot
        try (Conn again = new Conn()) {
            assertThat(again.socket.isConnected()).isTrue();
        }
    }

    @Test
    void validFrameIsApplied() throws Exception {
        try (Conn c = new Conn()) {
            c.send(put(c.codec, 1, 2, 2));
            await().atMost(WAIT).until(() -> standby.table.size() == 2);
        }
    }

    @Test
    void badHmacIsRefused() throws Exception {
        try (Conn c = new Conn()) {
            FrameCodec wrong = new FrameCodec("other-secret");
            wrong.useSessionKey(new byte[FrameCodec.NONCE]);
            c.send(put(wrong, 1, 2, 2));
            assertRefusedAndResyncRequested("bad_hmac");
        }
    }

    @Test
    void garbageIsRefused() throws Exception {
        try (Conn c = new Conn()) {
            byte[] junk = new byte[200];
            new java.util.Random(7).nextBytes(junk);
            junk[0] = 0;
            junk[1] = 0;
            junk[2] = 0;
            junk[3] = (byte) 196; // a plausible length, random contents
            c.send(junk);
            assertRefusedAndResyncRequested("bad_hmac");
        }
    }

    @Test
    void oversizedLengthIsRefusedAsMalformed() throws Exception {
        try (Conn c = new Conn()) {
            c.send(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2, 3});
            assertRefusedAndResyncRequested("malformed");
        }
    }

    @Test
    void wellSignedButMalformedPayloadIsRefused() throws Exception {
        try (Conn c = new Conn()) {
            ByteBuf b = Unpooled.buffer();
            int start = FrameCodec.begin(b, FrameType.PUT, 1, EpochClock.nowMicros(), 10);
            b.writeZero(10);
            c.codec.end(b, start);
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            c.send(bytes);
            assertRefusedAndResyncRequested("malformed");
        }
    }

    @Test
    void sequenceGapIsRefused() throws Exception {
        try (Conn c = new Conn()) {
            c.send(put(c.codec, 1, 2, 2));
            await().atMost(WAIT).until(() -> standby.table.size() == 2);
            before = standby.contents();
            c.send(put(c.codec, 3, 3, 3));
            assertRefusedAndResyncRequested("sequence_gap");
        }
    }

    @Test
    void streamCutMidFrameAppliesNothingAndReconnects() throws Exception {
        try (Conn c = new Conn()) {
            byte[] frame = put(c.codec, 1, 2, 2);
            c.send(java.util.Arrays.copyOf(frame, frame.length / 2));
            c.socket.close();
            try (Conn again = new Conn()) {
                assertThat(again.socket.isConnected()).isTrue();
            }
            assertThat(standby.contents()).isEqualTo(before);
        }
    }
}
