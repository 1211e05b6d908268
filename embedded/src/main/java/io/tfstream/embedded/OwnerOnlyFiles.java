package io.tfstream.embedded;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/** Files that hold secrets: readable and writable by their owner only, from their creation on. */
public final class OwnerOnlyFiles {
    private static final Set<PosixFilePermission> OWNER_ONLY =
            PosixFilePermissions.fromString("rw-------");

    private OwnerOnlyFiles() {}

    /**
     * Writes {@code content} to {@code file} with mode 0600: a new file is created so (the umask
     * can only remove bits), an existing one is restricted before anything is written to it.
     * Returns {@code file}.
     */
    public static Path write(Path file, String content) throws IOException {
        boolean posix = file.getFileSystem().supportedFileAttributeViews().contains("posix");
        boolean exists = Files.exists(file);
        if (posix && exists) {
            Files.setPosixFilePermissions(file, OWNER_ONLY);
        }
        try (SeekableByteChannel ch =
                posix && !exists
                        ? Files.newByteChannel(
                                file,
                                EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                                PosixFilePermissions.asFileAttribute(OWNER_ONLY))
                        : Files.newByteChannel(
                                file,
                                StandardOpenOption.CREATE,
                                StandardOpenOption.WRITE,
                                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer b = ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8));
            while (b.hasRemaining()) {
                ch.write(b);
            }
        }
        return file;
    }
}
