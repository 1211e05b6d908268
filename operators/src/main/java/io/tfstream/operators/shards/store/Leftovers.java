package io.tfstream.operators.shards.store;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/**
 * Finds and removes what shard stores leave uncommitted under a shard path ({@code tfstream shards
 * uploads}): on S3 the incomplete multipart uploads whose keys are shard names, on other file
 * systems the hidden in-progress files ({@code .<shard>.inprogress.<uuid>}) of Flink's recoverable
 * writers. Uploads are listed over the whole bucket and filtered here: MinIO lists a prefix that is
 * not a whole key as empty.
 */
@Internal
public final class Leftovers {
    private static final String IN_PROGRESS = ".inprogress.";

    private Leftovers() {}

    /** The incomplete uploads of shards named with {@code namePrefix} below {@code basePath}. */
    public static List<LeftoverUpload> listS3(S3Client s3, String basePath, String namePrefix)
            throws IOException {
        S3Location base = S3Location.of(basePath);
        String prefix = base.directoryPrefix();
        List<LeftoverUpload> found = new ArrayList<>();
        for (MultipartUpload u : S3ShardStore.listUploads(s3, base.bucket(), null)) {
            if (!u.key().startsWith(prefix)) {
                continue;
            }
            Optional<ShardName> name =
                    ShardName.parse(u.key().substring(u.key().lastIndexOf('/') + 1), namePrefix);
            if (name.isPresent()) {
                found.add(
                        new LeftoverUpload(
                                "s3://" + base.bucket() + "/" + u.key(),
                                name.get(),
                                u.uploadId(),
                                u.initiated()));
            }
        }
        return found;
    }

    /** Aborts one upload {@link #listS3} found; one gone meanwhile counts as aborted. */
    public static void abortS3(S3Client s3, LeftoverUpload upload) throws IOException {
        S3Location at = S3Location.of(upload.uri());
        try {
            s3.abortMultipartUpload(b -> b.bucket(at.bucket()).key(at.key()).uploadId(upload.id()));
        } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
            if (!S3ShardStore.isNoSuchUpload(e)) {
                throw new IOException(
                        "AbortMultipartUpload " + upload.id() + " of " + upload.uri() + ": " + e,
                        e);
            }
        } catch (software.amazon.awssdk.core.exception.SdkException e) {
            throw new IOException(
                    "AbortMultipartUpload " + upload.id() + " of " + upload.uri() + ": " + e, e);
        }
    }

    /**
     * The in-progress files of shards named with {@code namePrefix} anywhere below {@code base}.
     */
    public static List<LeftoverUpload> listFiles(String base, String namePrefix)
            throws IOException {
        Path root = new Path(base);
        FileSystem fs = root.getFileSystem();
        List<LeftoverUpload> found = new ArrayList<>();
        if (fs.exists(root)) {
            walk(fs, root, namePrefix, found);
        }
        return found;
    }

    private static void walk(FileSystem fs, Path dir, String namePrefix, List<LeftoverUpload> found)
            throws IOException {
        FileStatus[] entries = fs.listStatus(dir);
        if (entries == null) {
            return;
        }
        for (FileStatus s : entries) {
            if (s.isDir()) {
                walk(fs, s.getPath(), namePrefix, found);
                continue;
            }
            inProgressShard(s.getPath().getName(), namePrefix)
                    .ifPresent(
                            n ->
                                    found.add(
                                            new LeftoverUpload(
                                                    s.getPath().toUri().toString(),
                                                    n,
                                                    null,
                                                    Instant.ofEpochMilli(
                                                            s.getModificationTime()))));
        }
    }

    /** The shard of {@code .<shard>.inprogress.<uuid>}, or empty for any other file name. */
    static Optional<ShardName> inProgressShard(String fileName, String namePrefix) {
        int at = fileName.lastIndexOf(IN_PROGRESS);
        if (!fileName.startsWith(".") || at < 1) {
            return Optional.empty();
        }
        return ShardName.parse(fileName.substring(1, at), namePrefix);
    }

    /** Deletes one in-progress file {@link #listFiles} found. */
    public static void deleteFile(LeftoverUpload file) throws IOException {
        Path p = new Path(file.uri());
        if (!p.getFileSystem().delete(p, false) && p.getFileSystem().exists(p)) {
            throw new IOException("cannot delete " + file.uri());
        }
    }
}
