package io.tfstream.api;

import io.tfstream.operators.shards.ShardSettings;
import io.tfstream.operators.shards.TfRecordShardSink;
import io.tfstream.operators.source.SourceRecord;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;

/**
 * Accepted records written as TFRecord shards, exactly once: bucketed by event time, finished by
 * size or age at checkpoints, with manifests and {@code _SUCCESS} markers (docs/streaming-job.md).
 * Built with {@link #builder(String)}:
 *
 * <pre>{@code
 * TfRecordShards.builder("file:///data/shards")
 *         .setCompression(Compression.GZIP)
 *         .setSchemaFingerprint(fingerprint)
 *         .build()
 *         .sinkTo(result.accepted());
 * }</pre>
 *
 * <p>The sink adds two operators of its own; their uids derive from the sink's: by default {@value
 * TfRecordShardsBuilder#DEFAULT_UID}, {@value TfRecordShardsBuilder#DEFAULT_COORDINATOR_UID} and
 * {@value TfRecordShardsBuilder#DEFAULT_ROUTER_UID}, as in {@code tfstream run}.
 */
public final class TfRecordShards {
    private final ShardSettings settings;
    private final String uid;
    private final String coordinatorUid;
    private final String routerUid;

    TfRecordShards(ShardSettings settings, String uid, String coordinatorUid, String routerUid) {
        this.settings = settings;
        this.uid = uid;
        this.coordinatorUid = coordinatorUid;
        this.routerUid = routerUid;
    }

    /** A builder of shards under {@code basePath} (a local path or any Flink file system URI). */
    public static TfRecordShardsBuilder builder(String basePath) {
        return new TfRecordShardsBuilder(basePath);
    }

    /** The checked settings the sink writes with. */
    public ShardSettings settings() {
        return settings;
    }

    /** The sink's uid. */
    public String uid() {
        return uid;
    }

    /** The Flink sink itself, for {@code stream.sinkTo(...)} with uids of your own. */
    public TfRecordShardSink sink() {
        return new TfRecordShardSink(settings, coordinatorUid, routerUid);
    }

    /**
     * {@code records} into the shards (their event time is the stream record timestamp), the sink
     * named and identified by its uid.
     */
    public DataStreamSink<SourceRecord> sinkTo(DataStream<SourceRecord> records) {
        return records.sinkTo(sink()).name(uid).uid(uid);
    }
}
