package io.mclb.perf.sticky;

import io.mclb.sticky.StickyKey;
import io.mclb.gtp.lb.GtpModule;
import io.mclb.sticky.StickyTable;
import io.mclb.sticky.StickyValue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** Shared by the sticky benchmark and memory report: synthetic IMSI keys and temp-dir cleanup. */
final class StickyFill {
    /** Far future, so nothing expires during a run. */
    static final long EXPIRES_S = 4_000_000_000L;

    private StickyFill() {
    }

    /** Key {@code i}: a 15-digit IMSI-like identity (as BCD-free ASCII digits, 15 bytes). */
    static StickyKey key(StickyKey key, long i, byte[] scratch) {
        long v = 262_010_000_000_000L + i;
        for (int d = 14; d >= 0; d--) {
            scratch[d] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return key.set(GtpModule.IMSI, 1, scratch, 0, 15);
    }

    static void fill(StickyTable table, long entries) {
        StickyKey key = new StickyKey();
        StickyValue value = new StickyValue();
        byte[] scratch = new byte[15];
        for (long i = 0; i < entries; i++) {
            table.put(key(key, i, scratch), value.set(i, 1, EXPIRES_S));
        }
    }

    static void deleteRecursively(Path dir) {
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.delete(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
