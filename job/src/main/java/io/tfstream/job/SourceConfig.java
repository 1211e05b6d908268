package io.tfstream.job;

import static io.tfstream.job.OptionChecks.require;

import io.tfstream.api.TfRecordFileSource;
import io.tfstream.api.TfstreamKafkaSource;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.options.FileSourceOptions;
import io.tfstream.api.options.KafkaSinkOptions;
import io.tfstream.api.options.KafkaSourceOptions;
import io.tfstream.operators.files.FilePaths;
import io.tfstream.text.Quoted;
import io.tfstream.tfrecord.TfRecordReadOptions;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.kafka.source.KafkaSource;

/**
 * The {@code source.*} options: Kafka topics ({@code source.type: kafka}) or TFRecord files ({@code
 * source.type: files}), checked and built into Flink's {@link KafkaSource} or {@link FileSource}.
 */
final class SourceConfig {
    /** Bytes of a damaged file region its dead-letter record carries. */
    static final int CORRUPT_BYTES_KEPT = 64 << 10;

    private final JobConfig c;
    private final StageView kafka;
    private final StageView files;

    SourceConfig(JobConfig c) {
        this.c = c;
        this.kafka = c.view(JobOptionStage.SOURCE);
        this.files = c.view(JobOptionStage.FILE_SOURCE);
        if (files()) {
            checkFiles();
        } else {
            checkKafka();
        }
    }

    boolean files() {
        return c.get(JobOptions.SOURCE_TYPE) == JobOptions.SourceType.FILES;
    }

    private void checkKafka() {
        require(c, JobOptions.SOURCE_BOOTSTRAP_SERVERS);
        boolean topics = kafka.has(KafkaSourceOptions.TOPICS);
        boolean pattern = kafka.has(KafkaSourceOptions.TOPIC_PATTERN);
        if (topics == pattern) {
            throw new JobConfigException(
                    "set exactly one of source.topics and source.topic-pattern");
        }
        if (topics && kafka.get(KafkaSourceOptions.TOPICS).stream().anyMatch(String::isBlank)) {
            throw new JobConfigException("source.topics has an empty topic name");
        }
        if (pattern) {
            try {
                Pattern.compile(kafka.get(KafkaSourceOptions.TOPIC_PATTERN));
            } catch (PatternSyntaxException e) {
                throw new JobConfigException(
                        "invalid value for source.topic-pattern: " + e.getDescription());
            }
        }
    }

    private void checkFiles() {
        require(c, JobOptions.SOURCE_FILES_PATHS);
        if (!kafka.has(KafkaSourceOptions.BOOTSTRAP_SERVERS)
                && !c.view(JobOptionStage.KAFKA_SINKS).has(KafkaSinkOptions.BOOTSTRAP_SERVERS)) {
            throw new JobConfigException(
                    "source.type files needs output.bootstrap-servers (or"
                            + " source.bootstrap-servers) for the dead-letter topic");
        }
        for (String path : files.get(FileSourceOptions.PATHS)) {
            try {
                FilePaths.parse(path);
            } catch (IllegalArgumentException e) {
                throw new JobConfigException(
                        "invalid value '"
                                + Quoted.cut(path)
                                + "' in source.files.paths: "
                                + Quoted.cut(e.getMessage(), Quoted.MAX_MESSAGE_CHARS));
            }
        }
    }

    /** The Kafka source, built with the library's builder. */
    KafkaSource<SourceRecord> kafkaSource() {
        return TfstreamKafkaSource.builder()
                .fromConfig(kafka)
                .setProperties(c.sourceProperties())
                .build();
    }

    FileSource<SourceRecord> fileSource() {
        return TfRecordFileSource.builder(files.get(FileSourceOptions.PATHS))
                .fromConfig(files)
                // Longer records are the parser's to refuse (limit_exceeded), not damage.
                .setMaxRecordLength(
                        Math.max(
                                c.parseLimits().maxRecordBytes(),
                                TfRecordReadOptions.DEFAULT_MAX_RECORD_LENGTH))
                .setCorruptBytesKept(CORRUPT_BYTES_KEPT)
                .build();
    }
}
