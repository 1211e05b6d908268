package io.tfstream.examples;

import io.tfstream.api.ParseResult;
import io.tfstream.api.TfRecordFileSource;
import io.tfstream.api.TfRecordShards;
import io.tfstream.api.TfstreamParse;
import io.tfstream.api.model.OnCorruption;
import io.tfstream.api.model.SourceRecord;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A job of its own on the tfstream API: TFRecord files in, parsed with a TFMD schema, accepted
 * records written as TFRecord shards, and the mean of one feature per parsed batch printed.
 *
 * <p>Run: {@code FeatureMeanJob <input dir> <schema.pbtxt> <shards dir> <feature>}.
 */
public final class FeatureMeanJob {
    private FeatureMeanJob() {}

    /** The job's graph on {@code env}; returns the per-batch means ("rows mean" lines). */
    public static DataStream<BatchMean.Result> build(
            StreamExecutionEnvironment env,
            String input,
            Path schema,
            String shards,
            String feature) {
        // 1. A source: TFRecord files, one SourceRecord per record (file, offset, mtime).
        FileSource<SourceRecord> files =
                TfRecordFileSource.builder(List.of(input))
                        .setOnCorruption(OnCorruption.FAIL)
                        .build();
        DataStream<SourceRecord> records =
                env.fromSource(
                        files,
                        WatermarkStrategy.<SourceRecord>forMonotonousTimestamps()
                                .withTimestampAssigner((r, previous) -> r.timestamp()),
                        "tfrecord-files");

        // 2. The parse with a schema: batches of at most 100 records, as tensor batches too.
        ParseResult parsed =
                TfstreamParse.builder()
                        .setSchemaFile(schema)
                        .setMaxRecords(100)
                        .setTensorBatches("custom-job", 1 << 20)
                        .build()
                        .applyTo(records);

        // 3. Shards: the accepted records as TFRecord files bucketed by day.
        TfRecordShards.builder(shards)
                .setBucketPattern("'dt='yyyy-MM-dd")
                .setSuccessMarkers(false)
                .build()
                .sinkTo(parsed.accepted());

        // 4. A step of its own on the parsed batches: the mean of one feature per batch.
        return parsed.batches()
                .map(new BatchMean(feature))
                .name("feature-mean")
                .uid("feature-mean");
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println(
                    "usage: FeatureMeanJob <input dir> <schema.pbtxt> <shards dir> <feature>");
            System.exit(2);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.enableCheckpointing(10_000);
        build(env, args[0], Path.of(args[1]), args[2], args[3]).print();
        env.execute("feature-mean");
    }
}
