package io.mclb.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The committed seed corpus of a fuzz target, and the buffer a target hands its decoder.
 *
 * <p>Seeds live in {@code src/test/resources/fuzz/<target>/}, one input per file (raw octets),
 * named after what they are and where they came from (a test fixture, a capture, a crash the
 * long mode found). A target method takes them with {@code @MethodSource} before its
 * {@code @FuzzTest}: Jazzer runs each as a regression case in every {@code mvn verify} and starts
 * its coverage-guided search from them in the long mode ({@code -Pfuzz}).
 */
public final class FuzzCorpus {
    /** Octets put before the datagram, so a decoder that ignores the reader index reads garbage. */
    private static final int LEAD = 3;

    private FuzzCorpus() {
    }

    /** Every seed of {@code target}, sorted by file name; fails when the directory is missing or empty. */
    public static Stream<byte[]> seeds(String target) {
        Path dir = directory(target);
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> sorted = files.filter(Files::isRegularFile).sorted().toList();
            if (sorted.isEmpty()) {
                throw new IllegalStateException("no seeds in " + dir);
            }
            return sorted.stream().map(FuzzCorpus::read);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code datagram} as a receive path sees it: readable from a reader index that is not 0, and
     * nothing readable or gettable past its last octet (the buffer's capacity ends there), so a
     * decoder reading beyond the datagram throws {@link IndexOutOfBoundsException} instead of
     * quietly reading a neighbour's bytes.
     */
    public static ByteBuf datagram(byte[] datagram) {
        byte[] framed = new byte[LEAD + datagram.length];
        for (int i = 0; i < LEAD; i++) {
            framed[i] = (byte) 0xA5;
        }
        System.arraycopy(datagram, 0, framed, LEAD, datagram.length);
        ByteBuf b = Unpooled.wrappedBuffer(framed);
        b.readerIndex(LEAD);
        return b;
    }

    private static Path directory(String target) {
        URL url = Thread.currentThread().getContextClassLoader().getResource("fuzz/" + target);
        if (url == null) {
            throw new IllegalStateException("no seed directory fuzz/" + target + " on the test class path");
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] read(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
