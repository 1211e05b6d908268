package io.tfstream.job.runs;

import static io.tfstream.testkit.MiniClusters.completedCheckpoints;
import static io.tfstream.testkit.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.TensorBatchRecords;
import io.tfstream.embedded.BrokerSecurity;
import io.tfstream.job.InputCorpus;
import io.tfstream.job.JobConfig;
import io.tfstream.job.JobLauncher;
import io.tfstream.job.JobOptions;
import io.tfstream.job.JobTestSupport;
import io.tfstream.job.KafkaAcls;
import io.tfstream.job.TfstreamPipeline;
import io.tfstream.operators.deadletter.DeadLetterHeaders;
import io.tfstream.operators.kafka.TensorBatchSerializationSchema;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.sequence.ParsedSequenceBatch;
import io.tfstream.parse.sequence.SequenceExampleBatchParser;
import io.tfstream.payload.TensorBatchCodec;
import io.tfstream.proto.v1.SourceRange;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SchemaFingerprint;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.Tensor;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testkit.KafkaTestBase;
import io.tfstream.testkit.KafkaTestCluster;
import io.tfstream.testkit.MiniClusters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streaming job end to end on a MiniCluster and a real KRaft broker, with an unbounded source:
 * records (1% broken) are produced while the job runs, the TaskManager is killed after at least two
 * completed checkpoints and replaced, and then both output topics are read with {@code
 * read_committed}: every good record exactly once in the records topic, every bad one exactly once
 * in the dead-letter topic with its reason, source offset and message, every good record a row of
 * exactly one committed tensor payload (batches split by size); records in = accepted +
 * dead-lettered.
 */
class StreamingJobExactlyOnceITCase extends KafkaTestBase {
    private static final int PARALLELISM = 2;

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(PARALLELISM);

    /** The MiniCluster keeps terminated TaskManagers in its list: the live one is the newest. */
    private static int liveTaskManager;

    @TempDir static Path dir;

    @Test
    void examplesExactlyOnceAcrossATaskManagerFailure(@InjectMiniCluster MiniCluster cluster)
            throws Exception {
        ParseLimits limits = ParseLimits.defaults().withMaxRecordBytes(256);
        ParseSpec spec = Seed001Corpus.spec();
        List<InputCorpus.Input> inputs = InputCorpus.examples(20_000, 42, spec, limits);
        run(cluster, "ex", spec, inputs, Map.of("parse.max-record-bytes", "256 b"));
    }

    /**
     * The same on a broker that authenticates and authorizes: the job's clients log in with
     * SCRAM-SHA-512 over TLS, secrets only as references into an owner-only file, and hold exactly
     * the ACLs {@link KafkaAcls} lists; the killed TaskManager's replacement logs in again.
     */
    @Test
    void examplesExactlyOnceOverSaslSslAcrossATaskManagerFailure(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        ParseLimits limits = ParseLimits.defaults().withMaxRecordBytes(256);
        ParseSpec spec = Seed001Corpus.spec();
        List<InputCorpus.Input> inputs = InputCorpus.examples(10_000, 44, spec, limits);
        try (KafkaTestCluster secured =
                KafkaTestCluster.startSecured(Duration.ofMinutes(15).toMillis())) {
            BrokerSecurity s = secured.secured().security();
            Map<String, Object> clients = new HashMap<>();
            clients.put("source.bootstrap-servers", secured.secured().saslSslServers());
            Properties client = s.referenced(s.scramClient());
            for (String k : client.stringPropertyNames()) {
                clients.put(JobOptions.SOURCE_PROPERTIES_PREFIX + k, client.getProperty(k));
                clients.put(JobOptions.OUTPUT_PROPERTIES_PREFIX + k, client.getProperty(k));
            }
            run(
                    cluster,
                    secured,
                    clients,
                    "User:" + BrokerSecurity.SCRAM_USER,
                    "sasl",
                    spec,
                    inputs,
                    Map.of("parse.max-record-bytes", "256 b"));
        }
    }

    @Test
    void sequenceExamplesExactlyOnceAcrossATaskManagerFailure(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        ParseSpec spec =
                new SequenceFeatureSpecs(
                        FeatureSpecs.of(
                                Map.<String, FeatureSpec>of(
                                        "id", FixedLenFeature.required(List.of(), DType.INT64))),
                        FeatureSpecs.of(
                                Map.<String, FeatureSpec>of(
                                        "tokens", new VarLenFeature(DType.INT64))));
        List<InputCorpus.Input> inputs =
                InputCorpus.sequenceExamples(4_000, 7, spec, ParseLimits.defaults());
        run(cluster, "seq", spec, inputs, Map.of("schema.kind", "sequence_example"));
    }

    @Test
    void eventTimeWindowBatchesExactlyOnceAcrossATaskManagerFailure(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        ParseLimits limits = ParseLimits.defaults().withMaxRecordBytes(256);
        ParseSpec spec = Seed001Corpus.spec();
        List<InputCorpus.Input> inputs = InputCorpus.examples(12_000, 43, spec, limits);
        run(
                cluster,
                "win",
                spec,
                inputs,
                Map.of(
                        "parse.max-record-bytes", "256 b",
                        "batch.mode", "event_time_window",
                        "batch.window", "300 ms",
                        "batch.key", "source_partition",
                        "batch.max-records", "200",
                        // The window's key as the payload key: the source partition here, so the
                        // key check is the same as for source_partition.
                        "output.batches.key", "batch_key",
                        // About 150 records: windows of about 300 records emit early.
                        "batch.window-max-buffered-bytes", "6 kb"));
    }

    private void run(
            MiniCluster cluster,
            String name,
            ParseSpec spec,
            List<InputCorpus.Input> inputs,
            Map<String, String> extra)
            throws Exception {
        run(cluster, kafka, Map.of(), null, name, spec, inputs, extra);
    }

    /**
     * The scenario on {@code kafka}, the job's clients set by {@code clients} (its listener and
     * client settings) and holding exactly the ACLs {@link KafkaAcls} lists for {@code principal}
     * (null: a broker without authorization); the test's own clients use the plaintext listener.
     */
    private void run(
            MiniCluster cluster,
            KafkaTestCluster kafka,
            Map<String, Object> clients,
            String principal,
            String name,
            ParseSpec spec,
            List<InputCorpus.Input> inputs,
            Map<String, String> extra)
            throws Exception {
        String in = name + "-in";
        String dlq = name + "-dlq";
        String records = name + "-records";
        String batches = name + "-batches";
        kafka.createTopic(batches, 2);
        kafka.createTopic(in, 3);
        kafka.createTopic(dlq, 2);
        kafka.createTopic(records, 3);
        Path specFile = dir.resolve(name + "-spec.json");
        Files.writeString(specFile, SpecJsonWriter.write(spec));

        Map<String, Object> settings =
                JobTestSupport.failureTestSettings(
                        name, kafka.bootstrapServers(), in, specFile, dlq);
        settings.put("output.records.topic", records);
        settings.put("output.batches.topic", batches);
        settings.put("output.batches.key", "source-partition");
        // Small payload messages: many batches are split by size.
        settings.put("output.batches.max-message-bytes", "8 kb");
        settings.putAll(extra);
        settings.putAll(clients);
        if (principal != null) {
            JobConfig c = JobConfig.of(settings);
            List<AclBinding> acls = new ArrayList<>(KafkaAcls.source(c, principal));
            acls.addAll(KafkaAcls.outputs(c, principal));
            kafka.grant(acls);
        }
        JobLauncher.Prepared job = JobLauncher.prepare(JobConfig.of(settings));

        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        JobLauncher.flinkConfiguration(job.config()));
        TfstreamPipeline.build(env, job.config(), job.schema());
        JobClient client = env.executeAsync(name);
        JobID id = client.getJobID();
        start = System.nanoTime();
        log(name, "submitted");

        Map<String, RecordMetadata> offsets = new ConcurrentHashMap<>();
        CompletableFuture<Void> producing =
                CompletableFuture.runAsync(() -> produce(kafka, in, inputs, offsets));

        waitFor(
                () -> completedCheckpoints(cluster, id) >= 2 && offsets.size() > inputs.size() / 4,
                Duration.ofMinutes(2),
                "two completed checkpoints while producing");
        log(
                name,
                "killing the TaskManager after "
                        + completedCheckpoints(cluster, id)
                        + " checkpoints");
        cluster.terminateTaskManager(liveTaskManager++).get(60, TimeUnit.SECONDS);
        cluster.startTaskManager();
        producing.get(2, TimeUnit.MINUTES);
        log(name, "produced " + inputs.size() + " records");
        if ("event_time_window".equals(extra.get("batch.mode"))) {
            // Event time only advances with records: one more record per partition, far in the
            // future, lets the watermark close every window of the input (its own never closes,
            // so it appears in no output).
            advanceEventTime(kafka, in);
        }

        long bad = inputs.stream().filter(i -> i.reason() != null).count();
        long good = inputs.size() - bad;
        waitFor(
                () ->
                        kafka.readCommitted(records).size() >= good
                                && kafka.readCommitted(dlq).size() >= bad
                                && rowsIn(kafka.readCommitted(batches)) >= good,
                Duration.ofMinutes(3),
                "every record in an output");
        log(name, "every record in an output");
        AccessExecutionGraph graph = cluster.getExecutionGraph(id).get();
        assertTrue(
                graph.getStatusTimestamp(JobStatus.RESTARTING) > 0,
                "the job restarted after the TaskManager was killed");
        // One more checkpoint after the counts were reached: anything committed twice shows now.
        long done = completedCheckpoints(cluster, id);
        waitFor(
                () -> completedCheckpoints(cluster, id) > done + 1,
                Duration.ofMinutes(1),
                "checkpoints");
        client.cancel().get(1, TimeUnit.MINUTES);

        Map<String, InputCorpus.Input> byKey = new HashMap<>();
        for (InputCorpus.Input i : inputs) {
            byKey.put(new String(i.key(), StandardCharsets.UTF_8), i);
        }
        List<ConsumerRecord<byte[], byte[]>> accepted = kafka.readCommitted(records);
        List<ConsumerRecord<byte[], byte[]>> dead = kafka.readCommitted(dlq);
        Map<String, Integer> seen = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : accepted) {
            String key = new String(r.key(), StandardCharsets.UTF_8);
            InputCorpus.Input input = byKey.get(key);
            assertNotNull(input, key);
            assertEquals(null, input.reason(), key + " is a good record");
            assertArrayEquals(input.value(), r.value(), key);
            seen.merge(key, 1, Integer::sum);
        }
        String fingerprint =
                SchemaFingerprint.of(
                        Files.readAllBytes(specFile), specFile.getFileName().toString());
        for (ConsumerRecord<byte[], byte[]> r : dead) {
            String key = new String(r.key(), StandardCharsets.UTF_8);
            InputCorpus.Input input = byKey.get(key);
            assertNotNull(input, key);
            assertNotNull(input.reason(), key + " is a bad record");
            assertArrayEquals(input.value(), r.value(), key);
            assertEquals(input.reason().code(), header(r, DeadLetterHeaders.REASON), key);
            assertEquals(input.error(), header(r, DeadLetterHeaders.ERROR), key);
            RecordMetadata m = offsets.get(key);
            assertEquals(in, header(r, DeadLetterHeaders.SOURCE_TOPIC));
            assertEquals(
                    Integer.toString(m.partition()), header(r, DeadLetterHeaders.SOURCE_PARTITION));
            assertEquals(Long.toString(m.offset()), header(r, DeadLetterHeaders.SOURCE_OFFSET));
            assertEquals(
                    Long.toString(m.timestamp()), header(r, DeadLetterHeaders.SOURCE_TIMESTAMP));
            assertEquals(fingerprint, header(r, DeadLetterHeaders.SCHEMA_FINGERPRINT));
            seen.merge(key, 1, Integer::sum);
        }
        assertEquals(good, accepted.size(), "accepted records, each once");
        assertEquals(bad, dead.size(), "dead letters, each once");
        assertEquals(inputs.size(), seen.size(), "records in = accepted + dead-lettered");
        assertTrue(seen.values().stream().allMatch(c -> c == 1), "no record twice");
        assertTrue(bad >= inputs.size() / InputCorpus.BAD_EVERY, "bad records: " + bad);
        checkPayloads(spec, kafka.readCommitted(batches), inputs, offsets, fingerprint, good);
    }

    private static long rowsIn(List<ConsumerRecord<byte[], byte[]>> payloads) throws Exception {
        long rows = 0;
        for (ConsumerRecord<byte[], byte[]> r : payloads) {
            rows += TensorBatch.parseFrom(r.value()).getRows();
        }
        return rows;
    }

    /**
     * Every good record is a row of exactly one committed payload: the payloads' source ranges,
     * narrowed to good records, are disjoint and cover them all, and their sizes are the payloads'
     * rows. Every payload equals the parse of its rows: the good records of its source ranges, each
     * range in offset order, interleaved as the payload's rows are (told apart by their scalar
     * features, the only choice the ranges leave open). A batch of several payloads has all its
     * parts, each within the size limit; a window's payloads tell their total at its close.
     */
    private static void checkPayloads(
            ParseSpec spec,
            List<ConsumerRecord<byte[], byte[]>> payloads,
            List<InputCorpus.Input> inputs,
            Map<String, RecordMetadata> offsets,
            String fingerprint,
            long good)
            throws Exception {
        // partition → offset → good record value
        Map<Integer, TreeMap<Long, byte[]>> goodAt = new HashMap<>();
        Map<String, Long> timeAt = new HashMap<>();
        for (InputCorpus.Input i : inputs) {
            if (i.reason() == null) {
                RecordMetadata m = offsets.get(new String(i.key(), StandardCharsets.UTF_8));
                timeAt.put(m.partition() + "@" + m.offset(), m.timestamp());
                goodAt.computeIfAbsent(m.partition(), k -> new TreeMap<>())
                        .put(m.offset(), i.value());
            }
        }
        Map<Integer, Set<Long>> covered = new HashMap<>();
        Map<String, List<Integer>> partsOf = new HashMap<>();
        Map<String, Integer> totalOf = new HashMap<>();
        Set<String> windowIds = new HashSet<>();
        long rows = 0;
        int compared = 0;
        int multiRange = 0;
        int early = 0;
        long windowed = 0;
        for (ConsumerRecord<byte[], byte[]> r : payloads) {
            TensorBatch b = TensorBatch.parseFrom(r.value());
            assertTrue(r.serializedValueSize() <= 8 * 1024 - TensorBatchRecords.MESSAGE_RESERVE);
            assertEquals(fingerprint, b.getSchemaFingerprint());
            assertEquals(b.getBatchId(), header(r, TensorBatchSerializationSchema.BATCH_ID));
            if (b.getSourcesCount() > 0) {
                SourceRange first = b.getSources(0);
                // source_partition, or batch_key with windows grouped by source partition.
                assertEquals(
                        first.getTopic() + "-" + first.getPartition(),
                        new String(r.key(), StandardCharsets.UTF_8));
            } else {
                assertEquals(0, b.getRows(), "only a window's closing payload has no sources");
                assertTrue(b.getWindowEndMs() > 0 && b.getParts() > 1, b.getBatchId());
            }
            long inRanges = 0;
            List<List<byte[]>> perRange = new ArrayList<>();
            for (SourceRange range : b.getSourcesList()) {
                List<byte[]> run = new ArrayList<>();
                for (Map.Entry<Long, byte[]> e :
                        goodAt.get(range.getPartition())
                                .subMap(range.getFirstOffset(), true, range.getLastOffset(), true)
                                .entrySet()) {
                    inRanges++;
                    run.add(e.getValue());
                    if (b.getWindowEndMs() > 0) {
                        long t = timeAt.get(range.getPartition() + "@" + e.getKey());
                        assertTrue(
                                t >= b.getWindowStartMs() && t < b.getWindowEndMs(),
                                "event time "
                                        + t
                                        + " in window ["
                                        + b.getWindowStartMs()
                                        + ", "
                                        + b.getWindowEndMs()
                                        + ")");
                        windowed++;
                    }
                    assertTrue(
                            covered.computeIfAbsent(range.getPartition(), k -> new HashSet<>())
                                    .add(e.getKey()),
                            "partition "
                                    + range.getPartition()
                                    + " offset "
                                    + e.getKey()
                                    + " in two payloads");
                }
                perRange.add(run);
            }
            assertEquals(b.getRows(), inRanges, "rows of payload " + b.getBatchId());
            Map<String, Object> decoded = decoded(spec, b);
            if (perRange.size() > 1) {
                multiRange++;
            }
            assertEquals(
                    expected(spec, rowsInOrder(spec, b, decoded, perRange)),
                    decoded,
                    b.getBatchId() + " part " + b.getPart());
            compared++;
            partsOf.computeIfAbsent(b.getBatchId(), k -> new ArrayList<>()).add(b.getPart());
            if (b.getParts() > 0) {
                assertEquals(
                        b.getParts(),
                        totalOf.getOrDefault(b.getBatchId(), b.getParts()),
                        "one total per batch");
                totalOf.put(b.getBatchId(), b.getParts());
            }
            if (b.getWindowEndMs() > 0) {
                windowIds.add(b.getBatchId());
                if (b.getParts() == 0) {
                    early++;
                    assertEquals(
                            b.getPart() + "/?", header(r, TensorBatchSerializationSchema.PART));
                }
            }
            rows += b.getRows();
        }
        System.out.printf(
                "compared %d payloads: %d over several source ranges, %d emitted early%n",
                compared, multiRange, early);
        assertEquals(good, rows, "payload rows = accepted records");
        assertTrue(windowed == 0 || windowed == good, "every row of a window payload checked");
        assertEquals(payloads.size(), compared, "every payload compared");
        for (Map.Entry<String, List<Integer>> e : partsOf.entrySet()) {
            List<Integer> parts = new ArrayList<>(e.getValue());
            parts.sort(null);
            int total = totalOf.getOrDefault(e.getKey(), 1);
            assertTrue(
                    totalOf.containsKey(e.getKey()) || !windowIds.contains(e.getKey()),
                    "window " + e.getKey() + " told its total");
            List<Integer> all = new ArrayList<>();
            for (int i = 0; i < total; i++) {
                all.add(i);
            }
            assertEquals(all, parts, "parts of " + e.getKey());
        }
        assertTrue(
                totalOf.values().stream().anyMatch(n -> n > 1),
                "some batches are several payloads");
        if (windowIds.isEmpty()) {
            assertTrue(multiRange > 0, "some count batches mix partitions: their order checked");
        } else {
            assertTrue(early > 0, "some windows reached their buffer bound and emitted early");
        }
    }

    /**
     * The rows of payload {@code b}, whose runs per source range are {@code perRange}: each range's
     * records keep their offset order, and several ranges are interleaved as the payload's rows
     * are, matched by their scalar (context) features. Records alike in all of those parse alike,
     * so which of them comes first does not change the expected payload.
     */
    private static List<byte[]> rowsInOrder(
            ParseSpec spec, TensorBatch b, Map<String, Object> decoded, List<List<byte[]>> perRange)
            throws Exception {
        if (perRange.size() <= 1) {
            return perRange.isEmpty() ? List.of() : perRange.get(0);
        }
        String[] wanted = signatures(spec, decoded, (int) b.getRows());
        List<ArrayDeque<byte[]>> runs = new ArrayList<>();
        List<ArrayDeque<String>> runSignatures = new ArrayList<>();
        for (List<byte[]> run : perRange) {
            ArrayDeque<String> sig = new ArrayDeque<>();
            for (byte[] v : run) {
                sig.add(signatures(spec, expected(spec, List.of(v)), 1)[0]);
            }
            runs.add(new ArrayDeque<>(run));
            runSignatures.add(sig);
        }
        List<byte[]> rows = new ArrayList<>();
        for (int row = 0; row < wanted.length; row++) {
            int from = -1;
            for (int k = 0; k < runs.size() && from < 0; k++) {
                if (wanted[row].equals(runSignatures.get(k).peek())) {
                    from = k;
                }
            }
            assertTrue(
                    from >= 0, b.getBatchId() + " row " + row + ": no source range's next record");
            runSignatures.get(from).poll();
            rows.add(runs.get(from).poll());
        }
        return rows;
    }

    /** Per row, its scalar dense (context) features' values. */
    @SuppressWarnings("unchecked")
    private static String[] signatures(ParseSpec spec, Map<String, Object> parsed, int rows) {
        Map<String, Tensor> features =
                new TreeMap<>(
                        (Map<String, Tensor>)
                                parsed.get(
                                        spec instanceof FeatureSpecs
                                                ? ""
                                                : TensorBatchCodec.CONTEXT));
        StringBuilder[] sig = new StringBuilder[rows];
        for (int i = 0; i < rows; i++) {
            sig[i] = new StringBuilder();
        }
        for (Map.Entry<String, Tensor> e : features.entrySet()) {
            if (e.getValue() instanceof DenseTensor d && d.shape().length == 1) {
                Column c = d.values();
                for (int i = 0; i < rows; i++) {
                    sig[i].append(e.getKey()).append('=');
                    switch (c.dtype()) {
                        case INT64 -> sig[i].append(c.int64(i));
                        case FLOAT32 -> sig[i].append(Float.floatToIntBits(c.float32(i)));
                        default -> sig[i].append(Arrays.toString(c.bytes(i)));
                    }
                    sig[i].append(';');
                }
            }
        }
        String[] out = new String[rows];
        for (int i = 0; i < rows; i++) {
            assertTrue(sig[i].length() > 0, "the spec has a scalar dense feature to match rows by");
            out[i] = sig[i].toString();
        }
        return out;
    }

    private static Map<String, Object> expected(ParseSpec spec, List<byte[]> rows)
            throws Exception {
        SerializedRecords records = SerializedRecords.of(rows);
        if (spec instanceof FeatureSpecs f) {
            return Map.of("", ExampleBatchParser.create(f).parse(records).features());
        }
        ParsedSequenceBatch p =
                SequenceExampleBatchParser.create((SequenceFeatureSpecs) spec, ParseLimits.none())
                        .parse(records);
        return Map.of(
                TensorBatchCodec.CONTEXT,
                p.context(),
                TensorBatchCodec.FEATURE_LIST,
                p.featureLists(),
                TensorBatchCodec.FEATURE_LIST_LENGTHS,
                Map.copyOf(p.featureListLengths()));
    }

    private static Map<String, Object> decoded(ParseSpec spec, TensorBatch b) {
        if (spec instanceof FeatureSpecs) {
            return Map.of("", TensorBatchCodec.decode(b, ""));
        }
        return Map.of(
                TensorBatchCodec.CONTEXT,
                TensorBatchCodec.decode(b, TensorBatchCodec.CONTEXT),
                TensorBatchCodec.FEATURE_LIST,
                TensorBatchCodec.decode(b, TensorBatchCodec.FEATURE_LIST),
                TensorBatchCodec.FEATURE_LIST_LENGTHS,
                Map.copyOf(TensorBatchCodec.decode(b, TensorBatchCodec.FEATURE_LIST_LENGTHS)));
    }

    private long start;

    private void log(String name, String what) {
        System.out.printf("[%s %.1f s] %s%n", name, (System.nanoTime() - start) / 1e9, what);
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static void advanceEventTime(KafkaTestCluster kafka, String topic) {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            // Well inside the broker's log.message.timestamp.after.max.ms (1 h by default), which
            // refuses a record further ahead of its own clock.
            long future = System.currentTimeMillis() + Duration.ofMinutes(10).toMillis();
            for (int partition = 0; partition < 3; partition++) {
                producer.send(
                        new ProducerRecord<>(
                                topic,
                                partition,
                                future,
                                ("tick-" + partition).getBytes(StandardCharsets.UTF_8),
                                Seed001Corpus.records(1, partition).get(0)));
            }
            producer.flush();
        }
    }

    /** Produces in 40 paced chunks (about 4 s), so that the failure falls mid-stream. */
    private static void produce(
            KafkaTestCluster kafka,
            String topic,
            List<InputCorpus.Input> inputs,
            Map<String, RecordMetadata> offsets) {
        try (KafkaProducer<byte[], byte[]> producer = kafka.idempotentProducer()) {
            int chunk = Math.max(1, inputs.size() / 40);
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < inputs.size(); i++) {
                InputCorpus.Input input = inputs.get(i);
                String key = new String(input.key(), StandardCharsets.UTF_8);
                sent.add(
                        producer.send(
                                new ProducerRecord<>(topic, i % 3, input.key(), input.value()),
                                (m, e) -> {
                                    if (m != null) {
                                        offsets.put(key, m);
                                    }
                                }));
                if (i % chunk == chunk - 1) {
                    producer.flush();
                    Thread.sleep(100);
                }
            }
            producer.flush();
            for (Future<RecordMetadata> f : sent) {
                f.get(); // fails the test on any failed send
            }
        } catch (Exception e) {
            throw new IllegalStateException("producing the input failed", e);
        }
    }
}
