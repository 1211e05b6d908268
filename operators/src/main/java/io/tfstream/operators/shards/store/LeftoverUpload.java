package io.tfstream.operators.shards.store;

import java.time.Instant;
import org.apache.flink.annotation.Internal;

/**
 * What a shard store holds for a shard that is not committed: an incomplete S3 multipart upload or
 * a hidden in-progress file. Either a live job or a retained checkpoint or savepoint may still need
 * it, or it is what a crashed attempt left behind; only whoever knows which snapshots will be
 * restored can tell.
 *
 * @param uri the shard's URI once committed (S3), or the in-progress file's URI
 * @param shard the shard name it carries
 * @param id the upload id (S3), or null for an in-progress file
 * @param since when the upload was initiated, or the file last modified
 */
@Internal
public record LeftoverUpload(String uri, ShardName shard, String id, Instant since) {}
