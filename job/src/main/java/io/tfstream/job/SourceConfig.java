package io.tfstream.job;

import static io.tfstream.job.OptionChecks.require;

import io.tfstream.api.TfRecordFileSource;
import io.tfstream.api.TfRecordFileSourceBuilder;
import io.tfstream.api.TfstreamKafkaSource;
import io.tfstream.api.TfstreamKafkaSourceBuilder;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.options.FileSourceOptions;
import io.tfstream.api.options.KafkaSourceOptions;
import io.tfstream.operators.files.FilePaths;
import io.tfstream.text.Quoted;
import io.tfstream.tfrecord.TfRecordReadOptions;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;

/**
 * The {@code source.*} options: Kafka topics ({@code source.type: kafka}) or TFRecord files ({@code
 * source.type: files}), checked and built into Flink's {@link KafkaSource} or {@link FileSource}.
 */
final class SourceConfig {
    /** Bytes of a damaged file region its dead-letter record carries. */
    static final int CORRUPT_BYTES_KEPT = 64 << 10;

    private final JobConfig c;

    SourceConfig(JobConfig c) {
        this.c = c;
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
        boolean topics = c.contains(JobOptions.SOURCE_TOPICS);
        boolean pattern = c.contains(JobOptions.SOURCE_TOPIC_PATTERN);
        if (topics == pattern) {
            throw new JobConfigException(
                    "set exactly one of source.topics and source.topic-pattern");
        }
        if (topics && c.get(JobOptions.SOURCE_TOPICS).stream().anyMatch(String::isBlank)) {
            throw new JobConfigException("source.topics has an empty topic name");
        }
        if (pattern) {
            try {
                Pattern.compile(c.get(JobOptions.SOURCE_TOPIC_PATTERN));
            } catch (PatternSyntaxException e) {
                throw new JobConfigException(
                        "invalid value for source.topic-pattern: " + e.getDescription());
            }
        }
        StartingOffsets.parse(c.get(JobOptions.SOURCE_STARTING_OFFSETS));
    }

    private void checkFiles() {
        require(c, JobOptions.SOURCE_FILES_PATHS);
        if (!c.contains(JobOptions.SOURCE_BOOTSTRAP_SERVERS)
                && !c.contains(JobOptions.OUTPUT_BOOTSTRAP_SERVERS)) {
            throw new JobConfigException(
                    "source.type files needs output.bootstrap-servers (or"
                            + " source.bootstrap-servers) for the dead-letter topic");
        }
        for (String path : c.get(JobOptions.SOURCE_FILES_PATHS)) {
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
        TfstreamKafkaSourceBuilder b =
                TfstreamKafkaSource.builder()
                        .setBootstrapServers(c.get(JobOptions.SOURCE_BOOTSTRAP_SERVERS))
                        .setGroupId(c.get(JobOptions.SOURCE_GROUP_ID))
                        .setStartingOffsets(
                                StartingOffsets.parse(c.get(JobOptions.SOURCE_STARTING_OFFSETS)))
                        .setProperties(c.sourceProperties());
        if (c.get(JobOptions.SOURCE_STOPPING_OFFSETS)
                == KafkaSourceOptions.StoppingOffsets.LATEST) {
            b.setBounded(OffsetsInitializer.latest());
        }
        if (c.contains(JobOptions.SOURCE_TOPICS)) {
            b.setTopics(c.get(JobOptions.SOURCE_TOPICS));
        } else {
            b.setTopicPattern(Pattern.compile(c.get(JobOptions.SOURCE_TOPIC_PATTERN)));
        }
        return b.build();
    }

    FileSource<SourceRecord> fileSource() {
        TfRecordFileSourceBuilder b =
                TfRecordFileSource.builder(c.get(JobOptions.SOURCE_FILES_PATHS))
                        .setOnCorruption(c.get(JobOptions.SOURCE_FILES_ON_CORRUPTION))
                        // Longer records are the parser's to refuse (limit_exceeded), not damage.
                        .setMaxRecordLength(
                                (int)
                                        Math.max(
                                                c.get(JobOptions.MAX_RECORD_BYTES).getBytes(),
                                                TfRecordReadOptions.DEFAULT_MAX_RECORD_LENGTH))
                        .setCorruptBytesKept(CORRUPT_BYTES_KEPT);
        if (c.get(JobOptions.SOURCE_FILES_MODE) == FileSourceOptions.Mode.CONTINUOUS) {
            b.setContinuous(c.get(JobOptions.SOURCE_FILES_DISCOVERY_INTERVAL));
        }
        return b.build();
    }
}
