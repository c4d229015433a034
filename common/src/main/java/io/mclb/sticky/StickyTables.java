package io.mclb.sticky;

import net.openhft.chronicle.map.ChronicleMap;
import net.openhft.chronicle.map.ChronicleMapBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Opens the persisted sticky table of a data directory.
 *
 * <p>Files under {@code dataDir}:
 * <ul>
 *   <li>{@code mclb.lock}: held with {@link DataDirLock} while open, so one process owns the directory;
 *   <li>{@code sticky.dat}: the Chronicle Map;
 *   <li>{@code sticky.dirty}: exists while the table is open and is deleted by a clean
 *       {@link ChronicleStickyTable#close()}; finding it at open means the previous run died
 *       (e.g. {@code kill -9}) possibly holding a segment lock, so the map is opened with
 *       {@code recoverPersistedTo} (a plain open would block 60 s on such a lock and then fail);
 *   <li>{@code sticky.entries}: the capacity the file was created with, for the log and
 *       {@code mclb_sticky_capacity}.
 * </ul>
 *
 * <p><b>Capacity is fixed when {@code sticky.dat} is created.</b> A different
 * {@code mclb sticky entries} later has no effect on an existing file (INFO is logged); delete
 * the file (losing the entries) to resize it.
 *
 * <p>If an existing file cannot be opened or recovered, it is moved aside to
 * {@code sticky.dat.broken-<epochMillis>} and an empty table is created (ERROR is logged):
 * balancing without stickiness beats not starting. Known cost: Chronicle waits 60 s for a file
 * whose header was never completed (e.g. zeroed, or a crash during its very first creation)
 * before giving up or recovering it as empty; such a start is slow but not stuck.
 */
public final class StickyTables {
    public static final String DATA_FILE = "sticky.dat";
    public static final String DIRTY_MARKER = "sticky.dirty";
    public static final String CAPACITY_FILE = "sticky.entries";

    private static final Logger LOG = LoggerFactory.getLogger(StickyTables.class);

    private StickyTables() {
    }

    /**
     * Opens (creating if needed) the sticky table of {@code dataDir}.
     *
     * @param capacity entries the file is sized for when it is created; ignored for an existing file
     * @throws IllegalStateException if another mclb process (or another open table in this JVM) uses {@code dataDir}
     * @throws UncheckedIOException  if the directory or files cannot be written
     */
    public static ChronicleStickyTable open(Path dataDir, long capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("sticky capacity must be positive: " + capacity);
        }
        try {
            Files.createDirectories(dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create data directory " + dataDir, e);
        }
        DataDirLock lock = DataDirLock.acquire(dataDir);
        Path marker = dataDir.resolve(DIRTY_MARKER);
        try {
            boolean dirty = Files.exists(marker);
            Files.writeString(marker, ProcessHandle.current().pid() + " " + Instant.now() + "\n");
            ChronicleMap<byte[], byte[]> map = openMap(dataDir, capacity, dirty);
            return new ChronicleStickyTable(map, createdCapacity(dataDir.resolve(CAPACITY_FILE), capacity), () -> {
                try {
                    Files.deleteIfExists(marker);
                } catch (IOException e) {
                    LOG.warn("cannot delete {}: the next start will run recovery", marker, e);
                } finally {
                    lock.close();
                }
            });
        } catch (IOException | RuntimeException e) {
            lock.close();
            if (e instanceof IOException io) {
                throw new UncheckedIOException("cannot open sticky table in " + dataDir, io);
            }
            throw (RuntimeException) e;
        }
    }

    private static ChronicleMap<byte[], byte[]> openMap(Path dataDir, long capacity, boolean dirty) throws IOException {
        Path file = dataDir.resolve(DATA_FILE);
        Path capacityFile = dataDir.resolve(CAPACITY_FILE);
        if (Files.exists(file)) {
            try {
                ChronicleMap<byte[], byte[]> map = dirty ? recover(file, capacity) : builder(capacity).createPersistedTo(file.toFile());
                logCapacity(capacityFile, capacity, file);
                return map;
            } catch (IOException | RuntimeException e) {
                Path aside = dataDir.resolve(DATA_FILE + ".broken-" + System.currentTimeMillis());
                Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
                LOG.error("cannot open sticky table {}; moved it to {} and starting with an empty table", file, aside, e);
            }
        }
        ChronicleMap<byte[], byte[]> map = builder(capacity).createPersistedTo(file.toFile());
        Files.writeString(capacityFile, capacity + "\n", StandardCharsets.US_ASCII);
        LOG.info("created sticky table {} for {} entries ({} bytes)", file, capacity, Files.size(file));
        return map;
    }

    private static ChronicleMap<byte[], byte[]> recover(Path file, long capacity) throws IOException {
        AtomicInteger corruptions = new AtomicInteger();
        // recovery keeps the file's own sizing when its header is intact and falls back to the
        // builder's when the header is destroyed, so the builder must be the real one
        ChronicleMap<byte[], byte[]> map = builder(capacity).recoverPersistedTo(file.toFile(), true, c -> {
            corruptions.incrementAndGet();
            LOG.debug("sticky recovery, segment {}: {}", c.segmentIndex(), c.message());
        });
        LOG.warn("sticky table {} was not closed cleanly (previous run died); recovered {} entries, {} corruptions repaired",
                file, map.longSize(), corruptions.get());
        return map;
    }

    private static void logCapacity(Path capacityFile, long requested, Path file) {
        long created = createdCapacity(capacityFile, -1);
        if (created < 0) {
            LOG.info("sticky table {}: capacity it was created with is unknown; the configured {} applies only to a new file",
                    file, requested);
        } else if (created != requested) {
            LOG.info("sticky table {} keeps the capacity it was created with ({} entries); the configured {} applies "
                    + "only to a new file", file, created, requested);
        }
    }

    /** The capacity {@code sticky.entries} records, or {@code otherwise} when it is missing or unreadable. */
    private static long createdCapacity(Path capacityFile, long otherwise) {
        try {
            return Long.parseLong(Files.readString(capacityFile, StandardCharsets.US_ASCII).trim());
        } catch (IOException | NumberFormatException e) {
            return otherwise;
        }
    }

    /**
     * No entry checksums: with them, recovery after a kill -9 removes an entry whose in-place
     * update was cut short (its checksum no longer matches), i.e. the subscriber being refreshed at
     * the crash lost its stickiness (seen in StickyCrashRecoveryTest: 19,999 of 20,000). Without
     * them the entry survives with its old or new value; a refresh rewrites the same real id, and a
     * value torn elsewhere names an unknown real and is simply re-pointed on the next request.
     * The setting is stored in the file header: it applies to tables created from now on.
     */
    static ChronicleMapBuilder<byte[], byte[]> builder(long capacity) {
        return ChronicleMapBuilder.of(byte[].class, byte[].class)
                .name("mclb-sticky")
                .checksumEntries(false)
                .entries(capacity)
                .constantKeySizeBySample(new byte[StickyKey.SIZE])
                .constantValueSizeBySample(new byte[StickyValue.SIZE]);
    }
}
