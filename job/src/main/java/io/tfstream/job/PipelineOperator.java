package io.tfstream.job;

import io.tfstream.api.TfRecordShardsBuilder;
import io.tfstream.api.TfstreamConvertBuilder;
import io.tfstream.api.TfstreamParseBuilder;
import io.tfstream.api.TfstreamValidationBuilder;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Every operator of the job's graph, with its uid and its name. Checkpoints and savepoints match
 * state to operators by uid: a uid here must never change, or a restore loses that operator's state
 * ({@code OperatorUidsBaselineTest} holds them to a committed list). The operators the library's
 * builders add take the builders' default uids, declared there once. Names are what the web UI and
 * the logs show; they equal the uids so that both read alike.
 *
 * <p>The shard sink adds two operators of its own (marker coordinator and committable router);
 * their uids are {@link #SHARD_MARKER_COORDINATOR} and {@link #SHARD_COMMITTABLE_ROUTER}, handed to
 * the sink. (Until the sink wrote shards once, they were {@code shard-compact-coordinator} and
 * {@code shard-compactor}: state of those is not restored.)
 */
public enum PipelineOperator {
    KAFKA_SOURCE("kafka-source"),
    FILE_SOURCE("file-source"),
    /** JSON or Avro records to Examples ({@code source.format}), chained to the source. */
    CONVERT(TfstreamConvertBuilder.DEFAULT_UID),
    PARSE(TfstreamParseBuilder.DEFAULT_UID),
    WINDOW_PARSE(TfstreamParseBuilder.DEFAULT_WINDOW_UID),
    /** Watermarks from the event-time feature, assigned after the parse. */
    FEATURE_TIME("feature-event-time"),
    BATCHES_SINK("batches-sink"),
    SKEW_GUARD(TfRecordShardsBuilder.DEFAULT_SKEW_GUARD_UID),
    LATE_BUCKET_GUARD(TfRecordShardsBuilder.DEFAULT_LATE_BUCKET_GUARD_UID),
    /** With {@code shards.split-feature}: records without it to the dead letters. */
    SPLIT_GUARD(TfRecordShardsBuilder.DEFAULT_SPLIT_GUARD_UID),
    DEAD_LETTER_SINK("dead-letter-sink"),
    SHARD_SINK(TfRecordShardsBuilder.DEFAULT_UID),
    SHARD_MARKER_COORDINATOR(TfRecordShardsBuilder.DEFAULT_COORDINATOR_UID),
    SHARD_COMMITTABLE_ROUTER(TfRecordShardsBuilder.DEFAULT_ROUTER_UID),
    RECORDS_SINK("records-sink"),
    /** Watermarks of validation's window deltas, with event time from a feature. */
    VALIDATION_PARTIALS_TIME(TfstreamValidationBuilder.DEFAULT_PARTIALS_TIME_UID),
    VALIDATION_WINDOWS(TfstreamValidationBuilder.DEFAULT_UID),
    /** Each window's statistics from the parts of every feature-path split. */
    VALIDATION_STATISTICS(TfstreamValidationBuilder.DEFAULT_STATISTICS_UID),
    ALERTS_SINK("alerts-sink"),
    ANOMALIES_SINK("anomalies-sink"),
    STATISTICS_SINK("statistics-sink");

    private final String uid;

    PipelineOperator(String uid) {
        this.uid = uid;
    }

    /** The stable operator id state is matched by. */
    public String uid() {
        return uid;
    }

    /** The name shown in the web UI and logs. */
    public String displayName() {
        return uid;
    }

    /** {@code s} named and identified as this operator. */
    <T> SingleOutputStreamOperator<T> on(SingleOutputStreamOperator<T> s) {
        return s.name(displayName()).uid(uid);
    }

    /** {@code s} named and identified as this operator. */
    <T> DataStreamSink<T> on(DataStreamSink<T> s) {
        return s.name(displayName()).uid(uid);
    }
}
