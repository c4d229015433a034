package io.mclb.sticky;

import io.mclb.testing.TestStickyKinds;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Child process for {@link StickyCrashRecoveryTest}: opens the table in {@code args[0]} with
 * capacity {@code args[1]}, puts {@code args[2]} entries (IMSI i, real i), prints
 * {@code READY n} and then rewrites entries forever, so a SIGKILL lands mid-write.
 */
public final class StickyWriterMain {
    private StickyWriterMain() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        long capacity = Long.parseLong(args[1]);
        int n = Integer.parseInt(args[2]);
        ChronicleStickyTable table = StickyTables.open(dir, capacity);
        StickyKey key = new StickyKey();
        StickyValue value = new StickyValue();
        for (int i = 0; i < n; i++) {
            table.put(key(key, i), value.set(i, 1, StickyCrashRecoveryTest.EXPIRES_S));
        }
        System.out.println("READY " + n);
        System.out.flush();
        for (long round = 0; ; round++) {
            for (int i = 0; i < n; i++) {
                table.put(key(key, i), value.set(i, round, StickyCrashRecoveryTest.EXPIRES_S));
            }
        }
    }

    static StickyKey key(StickyKey key, int i) {
        return key.set(TestStickyKinds.GTP_IMSI, 7, ("26201" + i).getBytes(StandardCharsets.US_ASCII));
    }
}
