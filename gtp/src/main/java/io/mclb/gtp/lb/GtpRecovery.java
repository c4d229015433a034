package io.mclb.gtp.lb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.IntSupplier;

/**
 * mclb's GTP restart counter (the Recovery IE of the Echo Responses it sends for its virtual
 * addresses), kept in {@code DATA_DIR/gtp-recovery} as one decimal line.
 *
 * <p>An SGSN that sees a peer's Recovery change deletes every PDP context with that peer
 * (29.060 section 7.7.48), so the value must survive mclb restarts and HA failovers: it is chosen
 * once (random 0..255) when the file does not exist and never incremented. HA replicates the value
 * ({@code ReplicatedValues} key {@link #REPLICATED_KEY}; a standby calls {@link #store} with the active's value). Written atomically (temp file + move).
 */
public final class GtpRecovery {
    public static final String FILE = "gtp-recovery";
    /** The {@link io.mclb.runtime.ReplicatedValues} key: one byte, the counter. */
    public static final String REPLICATED_KEY = "gtp.recovery";

    private GtpRecovery() {
    }

    /** Reads the counter, creating the file with {@code firstValue} when it is missing or unreadable. */
    public static int loadOrCreate(Path dataDir, IntSupplier firstValue) throws IOException {
        Path f = dataDir.resolve(FILE);
        if (Files.exists(f)) {
            try {
                int v = Integer.parseInt(Files.readString(f, StandardCharsets.US_ASCII).trim());
                if (v >= 0 && v <= 255) {
                    return v;
                }
            } catch (NumberFormatException e) {
                // rewritten below: a damaged file must not stop echo answers
            }
        }
        int v = firstValue.getAsInt() & 0xFF;
        store(dataDir, v);
        return v;
    }

    /** Writes the counter (0..255) atomically. */
    public static void store(Path dataDir, int value) throws IOException {
        Files.createDirectories(dataDir);
        Path tmp = dataDir.resolve(FILE + ".tmp");
        Files.writeString(tmp, Integer.toString(value & 0xFF) + "\n", StandardCharsets.US_ASCII);
        Files.move(tmp, dataDir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
