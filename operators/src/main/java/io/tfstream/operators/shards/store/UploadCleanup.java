package io.tfstream.operators.shards.store;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What {@code tfstream shards uploads} does, without its command line: lists the uploads shard
 * stores left uncommitted under a shard path (S3 multipart uploads, hidden in-progress files
 * elsewhere), keeps those that snapshots hold, and with {@code abort} removes the rest. One line
 * per upload, then a summary line, as the command prints them.
 */
@Internal
public final class UploadCleanup {
    private UploadCleanup() {}

    /**
     * What to clean.
     *
     * @param path the shard path ({@code shards.path}): {@code s3://} or any other file system
     * @param prefix the shard file name prefix ({@code shards.prefix})
     * @param olderThan only uploads initiated longer ago; zero: all
     * @param job only the uploads of this job id, or null for all
     * @param abort whether the uploads listed and not held are removed
     * @param held what snapshots hold (kept, each with why), or null for none
     * @param s3 the S3 store of an {@code s3://} path, null otherwise
     */
    public record Request(
            String path,
            String prefix,
            Duration olderThan,
            String job,
            boolean abort,
            SnapshotReferences held,
            S3ShardStoreFactory s3) {}

    /** The lines printed and the counts they sum up. */
    public record Result(List<String> lines, int listed, int aborted, int kept) {
        public String text() {
            return String.join("\n", lines) + "\n";
        }
    }

    /** Cleans as {@code r} says, ages measured against {@code now}. */
    public static Result run(Request r, Instant now) throws IOException {
        List<String> lines = new ArrayList<>();
        int listed = 0;
        int aborted = 0;
        int kept = 0;
        boolean s3 = r.s3() != null;
        try (S3Client client = s3 ? r.s3().newClient() : null) {
            List<LeftoverUpload> found =
                    s3
                            ? Leftovers.listS3(client, r.path(), r.prefix())
                            : Leftovers.listFiles(fileUri(r.path()), r.prefix());
            for (LeftoverUpload u : found) {
                Duration age = Duration.between(u.since(), now);
                // --older-than 0s takes all, whatever the store's clock says
                if (!r.olderThan().isZero() && age.compareTo(r.olderThan()) < 0) {
                    continue;
                }
                if (r.job() != null && !r.job().equals(u.shard().jobId())) {
                    continue;
                }
                listed++;
                String keep = r.held() == null ? null : r.held().keepReason(u);
                if (keep != null) {
                    kept++;
                }
                lines.add(
                        (keep != null ? "keeping " : r.abort() ? "aborting " : "")
                                + format(age)
                                + "  job "
                                + u.shard().jobId()
                                + "  run "
                                + u.shard().run()
                                + "  "
                                + u.uri()
                                + (u.id() == null ? "" : "  upload " + u.id())
                                + (keep == null ? "" : "  (" + keep + ")"));
                if (r.abort() && keep == null) {
                    if (s3) {
                        Leftovers.abortS3(client, u);
                    } else {
                        Leftovers.deleteFile(u);
                    }
                    aborted++;
                }
            }
        }
        lines.add(
                r.path()
                        + ": "
                        + listed
                        + (s3 ? " incomplete uploads" : " in-progress files")
                        + (r.abort() ? ", " + aborted + " aborted" : "")
                        + (r.held() == null ? "" : ", " + kept + " kept for snapshots"));
        return new Result(lines, listed, aborted, kept);
    }

    /** A plain local path as a file URI; URIs as they are. */
    private static String fileUri(String p) {
        return p.contains("://") ? p : Path.of(p).toAbsolutePath().toUri().toString();
    }

    private static String format(Duration d) {
        long s = d.getSeconds();
        if (s >= 86_400) {
            return s / 86_400 + "d" + (s % 86_400) / 3600 + "h";
        }
        if (s >= 3600) {
            return s / 3600 + "h" + (s % 3600) / 60 + "m";
        }
        return s / 60 + "m" + s % 60 + "s";
    }
}
