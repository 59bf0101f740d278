package io.worldflow.world.local;

import io.worldflow.WorldException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The exclusive lock on {@code <database>.lock} that makes one process (and one open world) the owner
 * of a database file. The lock file holds the owner's process id, for the error a second opener gets.
 * The operating system releases the lock when the process dies, however it dies.
 */
final class FileOwnership implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FileOwnership.class);

    private final Path lockFile;
    private final FileChannel channel;
    private final FileLock lock;

    private FileOwnership(Path lockFile, FileChannel channel, FileLock lock) {
        this.lockFile = lockFile;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * @throws WorldException when another process, or another world in this JVM, owns the database
     */
    static FileOwnership acquire(Path database, Path lockFile) {
        FileChannel channel;
        try {
            channel = FileChannel.open(
                    lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new WorldException(
                    "local world: cannot open lock file " + lockFile + " for " + database + ": " + e.getMessage(),
                    false,
                    e);
        }
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
                throw new WorldException(
                        "local world: database " + database + " is in use by another process"
                                + holder(lockFile) + " (lock file " + lockFile
                                + "); a local world's file belongs to one"
                                + " process at a time",
                        false,
                        null);
            }
            FileOwnership ownership = new FileOwnership(lockFile, channel, lock);
            ownership.writeOwner();
            return ownership;
        } catch (OverlappingFileLockException e) {
            // Do not touch the file further: closing any other channel on it may drop the JVM's lock.
            closeQuietly(channel);
            throw new WorldException(
                    "local world: database " + database + " is already open in this JVM" + " (lock file " + lockFile
                            + "); close that world first or share it",
                    false,
                    e);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new WorldException(
                    "local world: cannot lock " + lockFile + " for " + database + ": " + e.getMessage(), false, e);
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            log.warn("releasing lock file {} failed", lockFile, e);
        }
        closeQuietly(channel);
    }

    private void writeOwner() throws IOException {
        byte[] owner = ("pid " + ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8);
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(owner), 0);
    }

    /** " (pid 1234)" as written by the owner, or nothing when it cannot be read. */
    private static String holder(Path lockFile) {
        try {
            String text = Files.readString(lockFile, StandardCharsets.UTF_8).strip();
            return text.isEmpty() || text.length() > 40 ? "" : " (" + text + ")";
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            log.debug("closing a lock file channel failed", e);
        }
    }
}
