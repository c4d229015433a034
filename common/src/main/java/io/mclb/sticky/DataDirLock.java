package io.mclb.sticky;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive OS lock on {@code <dataDir>/mclb.lock}, held for as long as mclb uses the data
 * directory, so two mclb processes never map the same sticky file (Chronicle Map recovery after a
 * crash needs exclusive access, and two writers would each think the other died).
 *
 * <p>The lock is a {@link FileLock}: the kernel drops it when the process dies, even on
 * {@code kill -9}, so a stale lock file never blocks a restart. Within one JVM a second
 * acquisition fails too ({@link OverlappingFileLockException}). The file holds the owner's pid
 * for the operator; its content is never trusted.
 */
public final class DataDirLock implements AutoCloseable {
    public static final String FILE_NAME = "mclb.lock";

    private final Path dataDir;
    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(Path dataDir, FileChannel channel, FileLock lock) {
        this.dataDir = dataDir;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock without waiting.
     *
     * @throws IllegalStateException if another process (or another opener in this JVM) holds it
     * @throws UncheckedIOException  if the lock file cannot be opened
     */
    public static DataDirLock acquire(Path dataDir) {
        Path file = dataDir.resolve(FILE_NAME);
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open lock file " + file, e);
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot lock " + file, e);
        }
        if (lock == null) {
            closeQuietly(channel);
            throw new IllegalStateException("data directory " + dataDir + " is in use by another mclb process"
                    + holder(file) + ": stop it, or give this one its own with --data-dir DIR or 'mclb data-dir DIR'");
        }
        try {
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
        } catch (IOException e) {
            // the pid is a courtesy for operators; the lock itself is what matters
        }
        return new DataDirLock(dataDir, channel, lock);
    }

    /** " (pid N)" from the lock file, when the holder wrote one that is still alive. */
    private static String holder(Path file) {
        try {
            long pid = Long.parseLong(java.nio.file.Files.readString(file, StandardCharsets.US_ASCII).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isPresent() ? " (pid " + pid + ")" : "";
        } catch (IOException | NumberFormatException e) {
            return "";
        }
    }

    public Path dataDir() {
        return dataDir;
    }

    /** Releases the lock; the file stays (deleting it would race with a concurrent acquirer). */
    @Override
    public void close() {
        try {
            if (lock.isValid()) {
                lock.release();
            }
        } catch (IOException e) {
            // closing the channel below releases it anyway
        } finally {
            closeQuietly(channel);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing useful to do: the process is giving the file up
        }
    }
}
