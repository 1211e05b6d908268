package io.tfstream.job;

import static io.tfstream.job.PipelineOperator.ALERTS_SINK;
import static io.tfstream.job.PipelineOperator.BATCHES_SINK;
import static io.tfstream.job.PipelineOperator.DEAD_LETTER_SINK;
import static io.tfstream.job.PipelineOperator.FEATURE_TIME;
import static io.tfstream.job.PipelineOperator.FILE_SOURCE;
import static io.tfstream.job.PipelineOperator.KAFKA_SOURCE;
import static io.tfstream.job.PipelineOperator.PARSE;
import static io.tfstream.job.PipelineOperator.RECORDS_SINK;
import static io.tfstream.job.PipelineOperator.WINDOW_PARSE;

import io.tfstream.api.ConvertResult;
import io.tfstream.api.GuardedRecords;
import io.tfstream.api.ParseResult;
import io.tfstream.api.TfRecordShards;
import io.tfstream.api.TfstreamParseBuilder;
import io.tfstream.api.TfstreamValidation;
import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.parse.LiveSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the streaming job's dataflow (docs/design.md#dataflow) on an environment: source (Kafka or
 * TFRecord files) → event time and watermarks → with {@code source.format} json or avro, the
 * conversion to Examples (chained to the source) → batch-and-parse (chained to the source, one per
 * subtask; or keyed event-time windows) → accepted records (optional exactly-once records topic,
 * optional TFRecord shards behind their guards), the batches' tensor payloads (optional
 * exactly-once batches topic) and dead letters (exactly-once dead-letter topic); with {@code
 * validation.enabled}, the rows validated inside batch-and-parse and the window evaluation of the
 * {@link ValidationStage}. Every stage runs at the job's parallelism; nothing runs at parallelism
 * 1. The stages' settings come from {@link JobConfig}'s stage configurations, the operators' ids
 * from {@link PipelineOperator}.
 */
public final class TfstreamPipeline {
    private static final Logger LOG = LoggerFactory.getLogger(TfstreamPipeline.class);

    private TfstreamPipeline() {}

    /** The accepted-records stream (event time as record timestamps) of the built job. */
    public static DataStream<SourceRecord> build(
            StreamExecutionEnvironment env, JobConfig config, JobSchema schema) {
        config.warnings().forEach(w -> LOG.warn("job configuration: {}", w));
        CheckpointSettings.apply(env, config);
        int parallelism = config.get(JobOptions.PARALLELISM);
        if (parallelism > 0) {
            env.setParallelism(parallelism);
        }
        ParseConfig parseConfig = config.parse();
        boolean kafkaTime = parseConfig.kafkaTime();
        WatermarkStrategy<SourceRecord> sourceWatermarks =
                kafkaTime ? parseConfig.watermarks() : WatermarkStrategy.noWatermarks();
        DataStream<SourceRecord> raw =
                config.source().files()
                        ? FILE_SOURCE.on(
                                env.fromSource(
                                        config.source().fileSource(),
                                        // A file record's timestamp: the file's modification time.
                                        sourceWatermarks.withTimestampAssigner(
                                                (r, previous) -> r.timestamp()),
                                        FILE_SOURCE.displayName()))
                        : KAFKA_SOURCE.on(
                                env.fromSource(
                                        config.source().kafkaSource(),
                                        sourceWatermarks,
                                        KAFKA_SOURCE.displayName()));
        List<DataStream<DeadLetter>> deadLetters = new ArrayList<>();
        // With count batches a record is decoded straight into the parse, with the schema that
        // parses it; event-time windows are keyed before the parse, so there it is converted in
        // its own step (uid convert).
        boolean convertInParse = config.convert().enabled() && !parseConfig.windows();
        if (config.convert().enabled() && !convertInParse) {
            // Chained to the source: the converted record reaches the parse without serialization.
            ConvertResult converted = config.convert().convert(schema).applyTo(raw);
            deadLetters.add(converted.deadLetters());
            raw = converted.records();
        }
        TfstreamParseBuilder parse =
                config.payloads().withPayloads(parseConfig.builder(schema), schema.fingerprint());
        if (convertInParse) {
            parse.setConversion(config.convert().convert(schema))
                    // An accepted record's Example is written only for the outputs that carry it.
                    .setAcceptedExamples(config.shards().enabled() || config.payloads().records());
        }
        TfstreamValidation validation = null;
        if (config.validation().enabled()) {
            validation = config.validation().validation(schema, env.getParallelism());
            parse.setValidation(validation);
        }
        if (parseConfig.windows()) {
            // the windows and their key: batch.* through the builder's fromConfig
            parse.setUid(WINDOW_PARSE.uid()).setName(WINDOW_PARSE.displayName());
        } else {
            // Chained to the source (the default chaining strategy, checked by a test).
            parse.setUid(PARSE.uid()).setName(PARSE.displayName());
        }
        ParseResult parsed = parseConfig.build(parse).applyTo(raw);
        SingleOutputStreamOperator<SourceRecord> accepted = parsed.accepted();
        deadLetters.add(parsed.deadLetters());
        PayloadConfig payloads = config.payloads();
        if (payloads.batches()) {
            BATCHES_SINK.on(
                    parsed.batches()
                            .sinkTo(
                                    config.sinks()
                                            .exactlyOnce(
                                                    payloads.batchRecords(),
                                                    "batches",
                                                    payloads.batchProducer())));
        }
        DataStream<SourceRecord> timed =
                kafkaTime
                        ? accepted
                        : FEATURE_TIME.on(
                                accepted.assignTimestampsAndWatermarks(parseConfig.watermarks()));
        if (validation != null) {
            ValidationStage.apply(parsed, config, validation);
        } else if (parseConfig.schemaUpdates() && config.validation().alerts()) {
            // Refused schema files: SCHEMA alerts on the alerts topic (always in the log).
            ALERTS_SINK.on(
                    accepted.getSideOutput(LiveSchema.ALERTS)
                            .sinkTo(
                                    config.sinks()
                                            .exactlyOnce(
                                                    config.validation().alertRecords(), "alerts")));
        }
        ShardConfig shards = config.shards();
        TfRecordShards shardSink = null;
        if (shards.enabled()) {
            shards.checkDurableCheckpoints(env.getConfiguration());
            shards.probeStore(env.getConfiguration());
            shardSink = shards.shards(schema, env.getConfiguration());
            // The guards (bucket skew, late buckets) sit in front of the shards and the records.
            GuardedRecords guarded = shardSink.guards().applyTo(timed);
            timed = guarded.records();
            guarded.deadLetters().ifPresent(deadLetters::add);
        }
        DataStream<DeadLetter> allDeadLetters = deadLetters.get(0);
        for (DataStream<DeadLetter> d : deadLetters.subList(1, deadLetters.size())) {
            allDeadLetters = allDeadLetters.union(d);
        }
        DEAD_LETTER_SINK.on(
                allDeadLetters.sinkTo(
                        config.sinks()
                                .exactlyOnce(
                                        config.deadLetters().records(schema.fingerprint()),
                                        "dlq")));
        if (shardSink != null) {
            shardSink.sinkTo(timed);
        }
        if (payloads.records()) {
            RECORDS_SINK.on(
                    timed.sinkTo(
                            config.sinks().exactlyOnce(payloads.acceptedRecords(), "records")));
        }
        return timed;
    }
}
