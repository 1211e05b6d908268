package io.tfstream.operators.shards.store;

import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * What {@link S3ShardStore} hands out as state ({@link S3ShardStateSerializer}): an open shard at a
 * checkpoint ({@link Persisted}) or a shard closed for commit ({@link Closed}). Both name the
 * multipart upload ({@code uploadId}, null while no part has been uploaded) and its parts; the
 * {@code token} is a random id set as user metadata on the upload, so a commit retried after it
 * went through can recognise its own object.
 */
@Internal
public sealed interface S3ShardState {

    String target();

    String token();

    /**
     * One uploaded part: S3 numbers them from 1; the ETag is what CompleteMultipartUpload needs.
     */
    record Part(int number, String etag, long size) {
        public Part {
            Objects.requireNonNull(etag, "etag");
        }
    }

    /**
     * An open shard at a checkpoint: the parts uploaded so far and the tail (below S3's minimum
     * part size) that exists nowhere but here.
     */
    record Persisted(
            String target,
            String token,
            String uploadId,
            List<Part> parts,
            long bytesInParts,
            byte[] tail)
            implements S3ShardState {
        public Persisted {
            parts = List.copyOf(parts);
        }
    }

    /** A shard closed for commit: every byte is in a part (none when {@code size} is 0). */
    record Closed(String target, String token, String uploadId, List<Part> parts, long size)
            implements S3ShardState {
        public Closed {
            parts = List.copyOf(parts);
        }
    }
}
