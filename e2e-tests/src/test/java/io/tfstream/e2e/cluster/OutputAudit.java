package io.tfstream.e2e.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.e2e.tfrecord.TensorFlowRecordIo;
import io.tfstream.job.InputCorpus;
import io.tfstream.operators.deadletter.DeadLetterHeaders;
import io.tfstream.proto.v1.SourceRange;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.shards.ShardLayout;
import io.tfstream.testkit.TestFiles;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;

/**
 * Counts what the job made of the records produced to its input topic: every good record must be a
 * row of exactly one committed payload and in exactly one finished shard, every broken one in the
 * dead-letter topic exactly once, byte for byte, with its reason and source offset. Each check
 * returns what is lost and what is duplicated rather than failing at the first difference, so a
 * failure test can report both; anything that cannot be (a good record dead-lettered, a record in a
 * shard that was never produced, a payload whose rows do not match its source ranges) fails at
 * once.
 */
public final class OutputAudit {
    /** One output's tally: {@code found} distinct records of the {@code expected} ones. */
    public record Counts(String output, long expected, long found, long lost, long duplicated) {
        public boolean exact() {
            return lost == 0 && duplicated == 0 && found == expected;
        }
    }

    private final String bootstrapServers;
    private final String inputTopic;
    private final Map<String, InputCorpus.Input> byKey = new HashMap<>();
    private final Map<String, RecordMetadata> offsets = new HashMap<>();
    private final Map<Integer, TreeSet<Long>> goodOffsets = new HashMap<>();
    private final Map<String, Integer> goodValues = new HashMap<>();
    private long good;
    private long bad;

    public OutputAudit(String bootstrapServers, String inputTopic) {
        this.bootstrapServers = bootstrapServers;
        this.inputTopic = inputTopic;
    }

    /** Records that {@code inputs} were appended to the input topic at {@code sent}'s offsets. */
    public synchronized void produced(
            List<InputCorpus.Input> inputs, Map<String, RecordMetadata> sent) {
        for (InputCorpus.Input i : inputs) {
            String key = key(i.key());
            RecordMetadata m = sent.get(key);
            assertNotNull(m, "no offset for " + key);
            if (byKey.put(key, i) != null) {
                throw new IllegalArgumentException("key " + key + " produced twice");
            }
            offsets.put(key, m);
            if (i.reason() == null) {
                good++;
                goodOffsets.computeIfAbsent(m.partition(), k -> new TreeSet<>()).add(m.offset());
                goodValues.merge(base64(i.value()), 1, Integer::sum);
            } else {
                bad++;
            }
        }
    }

    public synchronized long good() {
        return good;
    }

    public synchronized long bad() {
        return bad;
    }

    /**
     * The committed payloads of {@code topic}: their source ranges, narrowed to good records, must
     * hold as many records as the payload has rows; an offset in two payloads is a duplicate.
     */
    public synchronized Counts payloads(String topic) throws IOException {
        Set<String> covered = new HashSet<>();
        long duplicated = 0;
        for (ConsumerRecord<byte[], byte[]> r : CommittedRecords.read(bootstrapServers, topic)) {
            TensorBatch b = TensorBatch.parseFrom(r.value());
            long inRanges = 0;
            for (SourceRange range : b.getSourcesList()) {
                assertEquals(inputTopic, range.getTopic());
                TreeSet<Long> at = goodOffsets.getOrDefault(range.getPartition(), new TreeSet<>());
                for (long offset :
                        at.subSet(range.getFirstOffset(), true, range.getLastOffset(), true)) {
                    if (!covered.add(range.getPartition() + "@" + offset)) {
                        duplicated++;
                    }
                    inRanges++;
                }
            }
            assertEquals(b.getRows(), inRanges, "rows of payload " + b.getBatchId());
        }
        return new Counts("payloads", good, covered.size(), good - covered.size(), duplicated);
    }

    /** Rows of the committed payloads of {@code topic} so far (for waiting). */
    public static long payloadRows(String bootstrapServers, String topic) throws IOException {
        long[] rows = {0};
        try {
            CommittedRecords.forEach(
                    bootstrapServers,
                    topic,
                    r -> {
                        try {
                            rows[0] += TensorBatch.parseFrom(r.value()).getRows();
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    });
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
        return rows[0];
    }

    /**
     * The committed dead letters of {@code topic}: each a produced broken record, byte for byte,
     * with its reason code and source partition and offset.
     */
    public synchronized Counts deadLetters(String topic) {
        Set<String> seen = new HashSet<>();
        long duplicated = 0;
        for (ConsumerRecord<byte[], byte[]> r : CommittedRecords.read(bootstrapServers, topic)) {
            String key = key(r.key());
            InputCorpus.Input input = byKey.get(key);
            assertNotNull(input, "dead letter with a key never produced: " + key);
            assertNotNull(input.reason(), key + " is good but dead-lettered");
            assertTrue(Arrays.equals(input.value(), r.value()), key + ": bytes differ");
            assertEquals(input.reason().code(), header(r, DeadLetterHeaders.REASON), key);
            RecordMetadata m = offsets.get(key);
            assertEquals(inputTopic, header(r, DeadLetterHeaders.SOURCE_TOPIC), key);
            assertEquals(
                    Integer.toString(m.partition()),
                    header(r, DeadLetterHeaders.SOURCE_PARTITION),
                    key);
            assertEquals(
                    Long.toString(m.offset()), header(r, DeadLetterHeaders.SOURCE_OFFSET), key);
            if (!seen.add(key)) {
                duplicated++;
            }
        }
        return new Counts("dead letters", bad, seen.size(), bad - seen.size(), duplicated);
    }

    /**
     * The finished shards under {@code dir} (S3Proxy's files of a prefix), read with the project's
     * TFRecord reader, which checks every CRC; each must have its manifest (in the metadata tree).
     */
    public synchronized Counts shards(Path dir) throws IOException {
        return shards(dir, true);
    }

    /**
     * {@link #shards(Path)}, each shard's manifest required when {@code manifests} (a glob after a
     * rollback may also see a shard the abandoned run committed just before its cancellation,
     * without the manifest that would have followed).
     */
    public synchronized Counts shards(Path dir, boolean manifests) throws IOException {
        Map<String, Integer> seen = new HashMap<>();
        for (Path shard : shardFiles(dir)) {
            for (byte[] record : readShard(shard)) {
                seen.merge(base64(record), 1, Integer::sum);
            }
            assertTrue(
                    !manifests
                            || ShardLayout.manifestCandidates(shard.toString()).stream()
                                    .anyMatch(m -> Files.isRegularFile(Path.of(m))),
                    "manifest of " + shard);
        }
        return count("shards", seen);
    }

    /** {@code seen} (records by their base64, with how often) against the good input records. */
    private Counts count(String output, Map<String, Integer> seen) {
        long lost = 0;
        long duplicated = 0;
        long found = 0;
        for (Map.Entry<String, Integer> e : seen.entrySet()) {
            int expected = goodValues.getOrDefault(e.getKey(), 0);
            assertTrue(expected > 0, "a shard record that is not a good input record");
            duplicated += Math.max(0, e.getValue() - expected);
            found += Math.min(e.getValue(), expected);
        }
        for (Map.Entry<String, Integer> e : goodValues.entrySet()) {
            lost += Math.max(0, e.getValue() - seen.getOrDefault(e.getKey(), 0));
        }
        return new Counts(output, good, found, lost, duplicated);
    }

    /**
     * The shards the {@code _SUCCESS} markers under {@code dir} list (what a reader that waits for
     * the markers reads), counted as {@link #shards}.
     */
    public synchronized Counts listedShards(Path dir) throws IOException {
        Map<String, Integer> seen = new HashMap<>();
        for (Path shard : io.tfstream.job.shards.ShardRunChecks.listedShards(dir)) {
            for (byte[] record : readShard(shard)) {
                seen.merge(base64(record), 1, Integer::sum);
            }
        }
        return count("shards listed by _SUCCESS", seen);
    }

    /** Records in the finished shards under {@code dir} so far; 0 while one is being written. */
    public static long shardRecordsSoFar(Path dir) {
        try {
            long n = 0;
            for (Path shard : shardFiles(dir)) {
                n += readShard(shard).size();
            }
            return n;
        } catch (IOException stillBeingWritten) {
            return 0;
        }
    }

    /** Visible uncompressed shards ({@code part-*.tfrecord}) under {@code dir}. */
    public static List<Path> shardFiles(Path dir) throws IOException {
        List<Path> shards = new ArrayList<>();
        for (Path p : TestFiles.regularFiles(dir)) {
            String name = p.getFileName().toString();
            if (name.startsWith("part-") && name.endsWith(".tfrecord")) {
                shards.add(p);
            }
        }
        return shards;
    }

    /**
     * Reads {@code shard} (uncompressed) with TensorFlow's {@code TFRecordReaderV2} and with the
     * project's reader: the same records in the same order; returns how many.
     */
    public static int readAlikeByTensorFlow(Path shard) throws IOException {
        TensorFlowRecordIo.ReadResult tf = TensorFlowRecordIo.read(shard, Compression.NONE);
        assertNull(tf.error(), shard + ": TensorFlow's reader failed");
        List<byte[]> ours = readShard(shard);
        assertEquals(ours.size(), tf.records().size(), shard.toString());
        for (int i = 0; i < ours.size(); i++) {
            assertTrue(Arrays.equals(ours.get(i), tf.records().get(i)), shard + " record " + i);
        }
        return ours.size();
    }

    public static List<byte[]> readShard(Path shard) throws IOException {
        List<byte[]> records = new ArrayList<>();
        try (TfRecordReader r = TfRecordFiles.openReader(shard, TfRecordReadOptions.defaults())) {
            while (r.next()) {
                records.add(r.copy());
            }
        }
        return records;
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    static String key(byte[] key) {
        return new String(key, StandardCharsets.UTF_8);
    }

    private static String base64(byte[] value) {
        return Base64.getEncoder().encodeToString(value);
    }
}
