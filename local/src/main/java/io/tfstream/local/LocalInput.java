package io.tfstream.local;

import io.tfstream.api.model.OnCorruption;
import io.tfstream.convert.InputFormat;
import io.tfstream.job.JobConfig;
import io.tfstream.job.JobSchema;
import io.tfstream.operators.files.FilePaths;
import io.tfstream.operators.files.TfRecordFileFormat;
import io.tfstream.parse.LenientBatchParser;
import io.tfstream.sample.SeedDataset;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The run's input: the seed-001 sample or the records of {@code --input} (a TFRecord file, or with
 * {@code --input-format} JSON Lines or an Avro container file), with broken records mixed in,
 * produced to the input topic; or, with {@code --files}, the files the job reads itself. Everything
 * is read before the run writes to {@code --out}, so an unreadable input is a usage error that
 * leaves nothing behind.
 */
final class LocalInput {
    private final List<byte[]> records;
    private final int broken;
    private final long items;
    private final Path files;

    private LocalInput(List<byte[]> records, int broken, long items, Path files) {
        this.records = records;
        this.broken = broken;
        this.items = items;
        this.files = files;
    }

    /** Reads the input of {@code o}; the broken records are ones the job's parser rejects. */
    static LocalInput read(LocalOptions o, JobSchema schema, JobConfig config) throws IOException {
        if (o.files() != null) {
            return new LocalInput(List.of(), 0, countFileItems(o.files()), o.files());
        }
        CorruptRecords.Result mixed;
        if (o.inputFormat() != InputFormat.EXAMPLE) {
            int limit = o.records() != null ? o.records() : Integer.MAX_VALUE;
            List<byte[]> records = ConvertedInput.read(o.inputFormat(), o.input(), limit);
            mixed =
                    ConvertedInput.mix(
                            records,
                            o.corruptFraction(),
                            o.seed(),
                            o.inputFormat(),
                            schema,
                            config);
        } else {
            List<byte[]> records = records(o);
            LenientBatchParser parser =
                    LenientBatchParser.create(schema.spec(), config.parseLimits());
            mixed = CorruptRecords.mix(records, o.corruptFraction(), o.seed(), parser);
        }
        return new LocalInput(
                mixed.records(), mixed.positions().length, mixed.records().size(), null);
    }

    /** What the job will count as records in: records, and with --files damaged regions too. */
    long items() {
        return items;
    }

    /** The input, as the run's first line describes it. */
    String describe(LocalBroker broker, String topic) {
        if (files != null) {
            return items + " records in the files under " + files.toAbsolutePath();
        }
        return records.size()
                + " records ("
                + broken
                + " broken) in topic '"
                + topic
                + "' on "
                + broker;
    }

    /**
     * Produces every record, in order, round-robin over the partitions, keyed by its position;
     * returns once all are acknowledged. Nothing to produce with --files.
     */
    void produce(LocalBroker broker, String topic, int partitions) throws Exception {
        produce(broker, topic, partitions, 0, records.size());
    }

    /** Produces the records {@code from} (inclusive) to {@code to} (exclusive), as above. */
    void produce(LocalBroker broker, String topic, int partitions, int from, int to)
            throws Exception {
        if (files != null) {
            return;
        }
        Properties p = broker.properties();
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        p.setProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.setProperty(ProducerConfig.LINGER_MS_CONFIG, "5");
        long largest = records.stream().mapToLong(r -> r.length).max().orElse(0);
        p.setProperty(
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                Long.toString(Math.max(1 << 20, largest + 1024)));
        List<Future<RecordMetadata>> acks = new ArrayList<>(to - from);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            long now = System.currentTimeMillis();
            for (int i = from; i < to; i++) {
                acks.add(
                        producer.send(
                                new ProducerRecord<>(
                                        topic,
                                        i % partitions,
                                        now,
                                        Integer.toString(i).getBytes(StandardCharsets.UTF_8),
                                        records.get(i))));
            }
            producer.flush();
            for (Future<RecordMetadata> f : acks) {
                f.get(60, TimeUnit.SECONDS);
            }
        }
    }

    private static List<byte[]> records(LocalOptions o) {
        if (o.input() == null) {
            return SeedDataset.records(o.records() != null ? o.records() : 10_000, o.seed());
        }
        int limit = o.records() != null ? o.records() : Integer.MAX_VALUE;
        List<byte[]> records = new ArrayList<>();
        try (TfRecordReader r =
                TfRecordFiles.openReader(o.input(), TfRecordReadOptions.defaults())) {
            while (records.size() < limit && r.next()) {
                records.add(r.copy());
            }
        } catch (NoSuchFileException e) {
            throw new LocalRun.UsageException("--input: no such file: " + o.input(), e);
        } catch (IOException | RuntimeException e) {
            throw new LocalRun.UsageException("--input " + o.input() + ": " + e.getMessage(), e);
        }
        return records;
    }

    /**
     * Records and damaged regions in the TFRecord files under {@code path}, as the job reads them.
     */
    private static long countFileItems(Path path) throws IOException {
        FilePaths paths = FilePaths.of(List.of(path.toAbsolutePath().toUri().toString()));
        TfRecordFileFormat format =
                new TfRecordFileFormat(
                        OnCorruption.DEAD_LETTER, TfRecordReadOptions.DEFAULT_MAX_RECORD_LENGTH, 0);
        long n = 0;
        for (var split : paths.enumerator().create().enumerateSplits(paths.bases(), 1)) {
            try (var reader = format.createReader(new Configuration(), split)) {
                for (var batch = reader.readBatch(); batch != null; batch = reader.readBatch()) {
                    while (batch.next() != null) {
                        n++;
                    }
                    batch.releaseBatch();
                }
            }
        }
        return n;
    }
}
