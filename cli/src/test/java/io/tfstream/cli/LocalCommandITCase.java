package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfstream.embedded.BrokerSecurity;
import io.tfstream.job.InputCorpus;
import io.tfstream.job.KafkaAcls;
import io.tfstream.job.Listeners;
import io.tfstream.local.CorruptRecords;
import io.tfstream.parse.LenientBatchParser;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.payload.TensorBatchCodec;
import io.tfstream.proto.v1.SourceRange;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.sample.SeedDataset;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.SchemaFingerprint;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testkit.KafkaTestCluster;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFiles;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.tfrecord.TfRecordWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tfstream local} end to end in this JVM (its own embedded broker and Flink cluster): the
 * files it leaves agree with {@code summary.json} and with the input, record by record; usage
 * errors print one line, exit with the contract's code and leave nothing in {@code --out}.
 */
class LocalCommandITCase {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    @Test
    void theSampleWithBrokenRecordsLeavesOutputsThatAddUp() throws Exception {
        Path out = dir.resolve("out");
        int metricsPort;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            metricsPort = free.getLocalPort();
        }
        CliRun run =
                localOnTwoPartitions(
                        out,
                        "--records",
                        "2000",
                        "--corrupt-fraction",
                        "0.05",
                        "--seed",
                        "3",
                        "--metrics-port",
                        Integer.toString(metricsPort));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.out().contains("2000 records in = 1900 accepted + 100 dead-lettered"),
                run.out());
        assertTrue(
                run.out().contains("; metrics: http://127.0.0.1:" + metricsPort + "/metrics"),
                run.out());
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        assertEquals(2000, summary.get("records_in").asLong());
        // The sample's schema and its feature spec are left for the next steps, and named.
        Path schemaCopy = out.resolve("schema").resolve("seed-001-schema.pbtxt").toAbsolutePath();
        assertArrayEquals(SeedDataset.schemaPbtxt(), Files.readAllBytes(schemaCopy));
        assertEquals(schemaCopy.toString(), summary.get("schemas").get(0).get("path").asText());
        assertEquals(
                Seed001Corpus.spec(),
                io.tfstream.spec.json.SpecJsonReader.read(
                        Files.readString(out.resolve("spec.json")), "spec.json"));
        assertTrue(run.out().contains("  schema:       " + schemaCopy), run.out());
        assertTrue(run.out().contains("read a shard:   bin/tfstream cat --limit 1 '"), run.out());
        assertTrue(run.out().contains("p.records('"), run.out());
        assertEquals(1900, summary.get("accepted").asLong());
        assertEquals(100, summary.get("dead_lettered").asLong());
        assertEquals(100, summary.get("dead_lettered_by_reason").get("parse_error").asLong());
        assertTrue(summary.get("checkpoints").asLong() >= 1);
        // TFDV's statistics of the accepted records, and the schema they infer takes them all
        assertEquals("stats.pb", summary.get("stats").asText());
        var stats =
                org.tensorflow.metadata.v0.DatasetFeatureStatisticsList.parseFrom(
                        Files.readAllBytes(out.resolve("stats.pb")));
        assertEquals(1900, stats.getDatasets(0).getNumExamples());
        assertTrue(run.out().contains("  statistics:   " + out.resolve("stats.pb")), run.out());
        // and their page beside them, naming every feature and the record count
        assertEquals("report.html", summary.get("report").asText());
        assertTrue(run.out().contains("  report:       " + out.resolve("report.html")), run.out());
        String page = Files.readString(out.resolve("report.html"));
        assertTrue(page.contains("data-value=\"1900\">1900 examples"), page.substring(0, 2000));
        for (var f : stats.getDatasets(0).getFeaturesList()) {
            // Statistics name a feature by its path, as TFDV writes them.
            String name = f.hasPath() ? String.join(".", f.getPath().getStepList()) : f.getName();
            assertTrue(page.contains("data-name=\"" + name + "\""), name);
        }
        // Each shard's manifest, in the metadata tree, names the copy of the sample's schema.
        for (JsonNode shard : summary.get("shards")) {
            Path manifest =
                    io.tfstream.job.shards.ShardRunChecks.manifestOf(out.resolve(shard.asText()));
            assertTrue(manifest.startsWith(out.resolve("shards/_tfstream")), manifest.toString());
            io.tfstream.job.shards.ShardRunChecks.checkSchemaCopy(
                    manifest,
                    io.tfstream.shards.ShardManifest.fromJson(Files.readString(manifest)));
        }

        // The input, as the command built it: the sample with the same broken records.
        List<byte[]> sample = SeedDataset.records(2000, 3);
        CorruptRecords.Result mixed =
                CorruptRecords.mix(
                        sample,
                        0.05,
                        3,
                        LenientBatchParser.create(Seed001Corpus.spec(), ParseLimits.defaults()));
        List<byte[]> input = mixed.records();
        // Round-robin over 2 partitions in order: record i is partition i % 2, offset i / 2.
        Map<Integer, byte[]> broken = new TreeMap<>();
        for (int i : mixed.positions()) {
            broken.put(i, input.get(i));
        }
        Map<Integer, byte[]> dead = new TreeMap<>();
        for (String line : Files.readAllLines(out.resolve("dlq.jsonl"))) {
            JsonNode d = JSON.readTree(line);
            assertEquals("parse_error", d.get("reason").asText());
            assertFalse(d.get("error").asText().isEmpty());
            assertEquals("examples", d.get("source").get("topic").asText());
            int i =
                    (int) (d.get("source").get("offset").asLong() * 2)
                            + d.get("source").get("partition").asInt();
            assertEquals(
                    Integer.toString(i),
                    new String(
                            Base64.getDecoder().decode(d.get("key").asText()),
                            StandardCharsets.UTF_8));
            dead.put(i, Base64.getDecoder().decode(d.get("value").asText()));
        }
        assertEquals(broken.keySet(), dead.keySet(), "exactly the broken records, once each");
        for (Map.Entry<Integer, byte[]> e : broken.entrySet()) {
            assertArrayEquals(e.getValue(), dead.get(e.getKey()), "record " + e.getKey());
        }

        // Shards: every good record once.
        Map<String, Integer> expected = new HashMap<>();
        for (int i = 0; i < input.size(); i++) {
            if (!broken.containsKey(i)) {
                expected.merge(hex(input.get(i)), 1, Integer::sum);
            }
        }
        Map<String, Integer> inShards = new HashMap<>();
        long shardRecords = 0;
        for (JsonNode s : summary.get("shards")) {
            try (TfRecordReader r =
                    TfRecordFiles.openReader(
                            out.resolve(s.asText()), TfRecordReadOptions.defaults())) {
                while (r.next()) {
                    inShards.merge(hex(r.copy()), 1, Integer::sum);
                    shardRecords++;
                }
            }
        }
        assertEquals(1900, shardRecords);
        assertEquals(shardRecords, summary.get("shard_records").asLong());
        assertEquals(expected, inShards);

        // Payloads: rows = accepted; each one's rows are its partition's good records in order.
        long rows = 0;
        int payloads = 0;
        try (TfRecordReader r =
                TfRecordFiles.openReader(
                        out.resolve("batches.tfrecord"), TfRecordReadOptions.defaults())) {
            while (r.next()) {
                TensorBatch b = TensorBatch.parseFrom(r.copy());
                payloads++;
                rows += b.getRows();
                List<byte[]> own = new ArrayList<>();
                for (SourceRange range : b.getSourcesList()) {
                    for (long off = range.getFirstOffset(); off <= range.getLastOffset(); off++) {
                        int i = (int) off * 2 + range.getPartition();
                        if (!broken.containsKey(i)) {
                            own.add(input.get(i));
                        }
                    }
                }
                assertEquals(b.getRows(), own.size());
                if (b.getSourcesCount() == 1) {
                    assertEquals(
                            ExampleBatchParser.create(Seed001Corpus.spec())
                                    .parse(RecordBatch.of(own))
                                    .features(),
                            TensorBatchCodec.decode(b, ""));
                }
            }
        }
        assertEquals(1900, rows);
        assertEquals(payloads, summary.get("batches").asLong());
        assertEquals(rows, summary.get("batch_rows").asLong());

        // A second run into the same directory replaces the outputs.
        CliRun again =
                CliRun.of(
                        "local",
                        "--records",
                        "300",
                        "--out",
                        out.toString(),
                        "--rest-port",
                        "0",
                        "--parallelism",
                        "1");
        assertEquals(0, again.exitCode(), again.err());
        JsonNode second = JSON.readTree(out.resolve("summary.json").toFile());
        assertEquals(300, second.get("records_in").asLong());
        assertEquals(300, second.get("shard_records").asLong());
        assertEquals(0, Files.readAllLines(out.resolve("dlq.jsonl")).size());
    }

    @Test
    void validationWritesTheCommittedAlertsAndCountsThem() throws Exception {
        Path out = dir.resolve("validation-out");
        Path schema = dir.resolve("seed-with-constraints.pbtxt");
        // At least a million examples per window: every window raises one dataset alert.
        Files.writeString(
                schema,
                new String(SeedDataset.schemaPbtxt(), StandardCharsets.UTF_8)
                        + "\ndataset_constraints { min_examples_count: 1000000 }\n");
        CliRun run =
                localOnTwoPartitions(
                        out,
                        "--schema",
                        schema.toString(),
                        "--records",
                        "300",
                        "--set",
                        "validation.enabled=true");
        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = Files.readAllLines(out.resolve("alerts.jsonl"));
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        assertEquals(lines.size(), summary.get("alerts").asLong());
        long examples = 0;
        Set<String> ids = new HashSet<>();
        for (String line : lines) {
            JsonNode a = JSON.readTree(line);
            assertTrue(ids.add(a.get("alert_id").asText()), "each alert once: " + line);
            if (a.get("anomaly_type").asText().equals("DATASET_LOW_NUM_EXAMPLES")) {
                examples += a.get("num_examples").asLong();
            }
        }
        // The windows' dataset alerts count every record once.
        assertEquals(300, examples, lines.toString());
    }

    @Test
    void aNextSchemaIsTakenUpAfterTheFirstRecordsAndTheSummarySplitsByIt() throws Exception {
        Path first = dir.resolve("spec.json");
        Files.writeString(first, SpecJsonWriter.write(Seed001Corpus.spec()));
        // The sample's features plus a required one it never has: every later record is refused.
        Map<String, FeatureSpec> more = new TreeMap<>(Seed001Corpus.spec().features());
        more.put("label", FixedLenFeature.required(List.of(), DType.INT64));
        Path next = dir.resolve("next-spec.json");
        Files.writeString(next, SpecJsonWriter.write(FeatureSpecs.of(more)));
        Path out = dir.resolve("next-out");
        CliRun run =
                localOnTwoPartitions(
                        out,
                        "--feature-spec",
                        first.toString(),
                        "--records",
                        "1000",
                        "--next-schema",
                        next.toString(),
                        "--next-schema-after",
                        "400");
        assertEquals(0, run.exitCode(), run.err());
        String fp1 = SchemaFingerprint.of(Files.readAllBytes(first), "spec.json");
        String fp2 = SchemaFingerprint.of(Files.readAllBytes(next), "spec.json");
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        assertEquals(1000, summary.get("records_in").asLong());
        assertEquals(400, summary.get("accepted").asLong());
        JsonNode schemas = summary.get("schemas");
        assertEquals(2, schemas.size(), schemas.toString());
        assertEquals(fp1, schemas.get(0).get("fingerprint").asText());
        // Each schema the job read is left in --out under its own name; the first one's spec too.
        Path firstCopy = out.resolve("schema").resolve("spec.json").toAbsolutePath();
        Path nextCopy = out.resolve("schema").resolve("next-spec.json").toAbsolutePath();
        assertEquals(firstCopy.toString(), schemas.get(0).get("path").asText());
        assertArrayEquals(Files.readAllBytes(first), Files.readAllBytes(firstCopy));
        assertArrayEquals(Files.readAllBytes(next), Files.readAllBytes(nextCopy));
        assertEquals(400, schemas.get(0).get("accepted").asLong());
        assertEquals(0, schemas.get(0).get("dead_lettered").asLong());
        assertTrue(schemas.get(0).get("shards").asLong() >= 1, schemas.toString());
        assertTrue(schemas.get(0).get("batches").asLong() >= 1, schemas.toString());
        assertEquals(fp2, schemas.get(1).get("fingerprint").asText());
        assertEquals(nextCopy.toString(), schemas.get(1).get("path").asText());
        assertEquals(0, schemas.get(1).get("accepted").asLong());
        assertEquals(600, schemas.get(1).get("dead_lettered").asLong());
        assertEquals(0, schemas.get(1).get("shards").asLong());
        List<String> dlq = Files.readAllLines(out.resolve("dlq.jsonl"));
        assertEquals(600, dlq.size());
        for (String line : dlq) {
            JsonNode d = JSON.readTree(line);
            assertEquals(fp2, d.get("schema_fingerprint").asText(), line);
            int i =
                    Integer.parseInt(
                            new String(
                                    Base64.getDecoder().decode(d.get("key").asText()),
                                    StandardCharsets.UTF_8));
            assertTrue(i >= 400, "record " + i + " was produced before the change");
        }
        // The user's file is left as it was: the run writes over a copy.
        assertEquals(SpecJsonWriter.write(Seed001Corpus.spec()), Files.readString(first));
    }

    @Test
    void aGzipFileOfSequenceExamplesWithItsSpec() throws Exception {
        SequenceFeatureSpecs spec =
                new SequenceFeatureSpecs(
                        FeatureSpecs.of(
                                Map.<String, FeatureSpec>of(
                                        "id", FixedLenFeature.required(List.of(), DType.INT64))),
                        FeatureSpecs.of(
                                Map.<String, FeatureSpec>of(
                                        "tokens", new VarLenFeature(DType.INT64))));
        Path specFile = dir.resolve("seqspec.json");
        Files.writeString(specFile, SpecJsonWriter.write(spec));
        Path input = dir.resolve("input.tfrecord.gz");
        List<byte[]> good = new ArrayList<>();
        for (InputCorpus.Input i :
                InputCorpus.sequenceExamples(700, 11, spec, ParseLimits.defaults())) {
            if (i.reason() == null) {
                good.add(i.value());
            }
        }
        try (TfRecordWriter w = TfRecordFiles.newWriter(input, Compression.GZIP)) {
            for (byte[] r : good) {
                w.write(r);
            }
        }
        Path out = dir.resolve("seq-out");
        Path extra = dir.resolve("copy/summary.json");
        CliRun run =
                CliRun.of(
                        "local",
                        "--feature-spec",
                        specFile.toString(),
                        "--input",
                        input.toString(),
                        "--corrupt-fraction",
                        "0.1",
                        "--compression",
                        "gzip",
                        "--partitions",
                        "3",
                        "--out",
                        out.toString(),
                        "--summary-json",
                        extra.toString(),
                        "--rest-port",
                        "0");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        assertEquals(summary, JSON.readTree(extra.toFile()));
        long broken = Math.round(0.1 * good.size());
        assertEquals(good.size(), summary.get("records_in").asLong());
        assertEquals(broken, summary.get("dead_lettered").asLong());
        assertEquals(good.size() - broken, summary.get("accepted").asLong());
        assertEquals(good.size() - broken, summary.get("shard_records").asLong());
        assertEquals(good.size() - broken, summary.get("batch_rows").asLong());
        assertEquals(broken, Files.readAllLines(out.resolve("dlq.jsonl")).size());
        for (JsonNode s : summary.get("shards")) {
            assertTrue(s.asText().endsWith(".tfrecord.gz"), s.asText());
        }
        try (TfRecordReader r =
                TfRecordFiles.openReader(
                        out.resolve("batches.tfrecord"), TfRecordReadOptions.defaults())) {
            assertTrue(r.next());
            TensorBatch b = TensorBatch.parseFrom(r.copy());
            assertTrue(b.containsTensors("context/id"), b.getTensorsMap().keySet().toString());
            assertTrue(
                    b.containsTensors("feature_list/tokens/values"),
                    b.getTensorsMap().keySet().toString());
            // parse_sequence_example gives lengths for dense and ragged feature lists only.
            assertFalse(b.containsTensors("feature_list_lengths/tokens"));
        }
    }

    @Test
    void shardsOnAnObjectStoreThroughS3Proxy() throws Exception {
        Path out = dir.resolve("s3-out");
        // Every listener of the run (Flink's, the broker's, S3Proxy's) on loopback.
        Listeners.During<CliRun> d =
                Listeners.during(
                        () ->
                                CliRun.of(
                                        "local",
                                        "--records",
                                        "800",
                                        "--corrupt-fraction",
                                        "0.02",
                                        "--s3proxy",
                                        "--compression",
                                        "zlib",
                                        "--out",
                                        out.toString(),
                                        "--rest-port",
                                        "0"));
        CliRun run = d.result();
        Set<InetSocketAddress> listeners = d.seen();
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(listeners.size() >= 3, "the cluster, the broker and S3Proxy: " + listeners);
        assertEquals(Set.of(), Listeners.notLoopback(listeners), "listeners: " + listeners);
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        assertEquals(800 - 16, summary.get("accepted").asLong());
        assertEquals(800 - 16, summary.get("shard_records").asLong());
        assertTrue(summary.get("shards").size() > 0);
        long records = 0;
        for (JsonNode s : summary.get("shards")) {
            String uri = s.asText();
            assertTrue(uri.startsWith("s3://tfstream/tfstream-local/"), uri);
            assertTrue(uri.endsWith(".tfrecord.zz"), uri);
            // S3Proxy keeps each object as a file under DIR/s3/<bucket>/<key>.
            Path object = out.resolve("s3").resolve(uri.substring("s3://".length()));
            try (TfRecordReader r =
                    TfRecordFiles.openReader(object, TfRecordReadOptions.defaults())) {
                while (r.next()) {
                    records++;
                }
            }
        }
        assertEquals(800 - 16, records);
    }

    /**
     * Regression: with more than one shard on S3 the run failed after the job had succeeded
     * (ClassCastException sorting Flink paths, exit 2). With shards smaller than a writer's part,
     * each of the two writers' parts becomes a shard of the same bucket, on disk and on S3;
     * summary.json lists them sorted and they hold every record once.
     */
    @Test
    void severalShardsPerBucketOnDiskAndOnS3() throws Exception {
        for (boolean s3 : new boolean[] {false, true}) {
            Path out = dir.resolve(s3 ? "many-s3" : "many-disk");
            List<String> args =
                    new ArrayList<>(
                            List.of(
                                    "local",
                                    "--records",
                                    "1000",
                                    "--set",
                                    "shards.target-size=16kb",
                                    "--out",
                                    out.toString(),
                                    "--rest-port",
                                    "0"));
            if (s3) {
                args.add("--s3proxy");
            }
            CliRun run = CliRun.of(args.toArray(String[]::new));
            assertEquals(0, run.exitCode(), run.err());
            JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
            List<String> shards = new ArrayList<>();
            summary.get("shards").forEach(s -> shards.add(s.asText()));
            assertEquals(shards.stream().sorted().toList(), shards, "sorted");
            Map<String, Integer> perBucket = new TreeMap<>();
            long records = 0;
            for (String shard : shards) {
                assertEquals(s3, shard.startsWith("s3://tfstream/tfstream-local/"), shard);
                perBucket.merge(shard.substring(0, shard.lastIndexOf('/')), 1, Integer::sum);
                // S3Proxy keeps each object as a file under DIR/s3/<bucket>/<key>.
                Path file =
                        s3
                                ? out.resolve("s3").resolve(shard.substring("s3://".length()))
                                : out.resolve(shard);
                try (TfRecordReader r =
                        TfRecordFiles.openReader(file, TfRecordReadOptions.defaults())) {
                    while (r.next()) {
                        records++;
                    }
                }
            }
            assertTrue(
                    perBucket.values().stream().anyMatch(n -> n > 1),
                    "several shards in a bucket: " + perBucket);
            assertEquals(1000, records);
            assertEquals(1000, summary.get("shard_records").asLong());
        }
    }

    @Test
    void anExistingBrokerGetsTopicsNamedAfterTheRun() throws Exception {
        try (KafkaTestCluster kafka = KafkaTestCluster.start(600_000)) {
            Path out = dir.resolve("broker-out");
            CliRun run = localOn(kafka.bootstrapServers(), null, 500, out);
            assertEquals(0, run.exitCode(), run.err());
            JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
            assertEquals(450, summary.get("shard_records").asLong());
            assertEquals(450, summary.get("batch_rows").asLong());
            java.util.Set<String> topics;
            try (var admin = kafka.admin()) {
                topics = admin.listTopics().names().get();
            }
            String input =
                    topics.stream()
                            .filter(t -> t.matches("tfstream-local-\\d{8}-\\d{6}-[0-9a-f]{4}"))
                            .findFirst()
                            .orElseThrow(() -> new AssertionError(topics.toString()));
            assertTrue(
                    topics.containsAll(
                            List.of(input + "-dlq", input + "-records", input + "-batches")),
                    topics.toString());
            assertEquals(500, kafka.readCommitted(input).size());
            assertEquals(50, kafka.readCommitted(input + "-dlq").size());
            assertEquals(450, kafka.readCommitted(input + "-records").size());
        }
    }

    /**
     * A broker that authenticates (SCRAM-SHA-512 over TLS) and authorizes, reached with a {@code
     * --broker-config} file as Kafka's tools take it (secrets inline): the run's clients and the
     * job's log in with it, the job only through references to the file, and no secret shows in the
     * output, the summary or the run's messages. A wrong password ends the run at its start with
     * one line naming the cause.
     */
    @Test
    void aSecuredBrokerIsReachedWithTheBrokerConfigFile() throws Exception {
        try (KafkaTestCluster kafka = KafkaTestCluster.startSecured(600_000)) {
            BrokerSecurity security = kafka.secured().security();
            String principal = "User:" + BrokerSecurity.SCRAM_USER;
            kafka.grant(
                    List.of(
                            KafkaAcls.allow(
                                    principal,
                                    ResourceType.TOPIC,
                                    "tfstream-local-",
                                    PatternType.PREFIXED,
                                    AclOperation.ALL),
                            KafkaAcls.allow(
                                    principal,
                                    ResourceType.GROUP,
                                    "tfstream-local",
                                    PatternType.PREFIXED,
                                    AclOperation.READ),
                            KafkaAcls.allow(
                                    principal,
                                    ResourceType.TRANSACTIONAL_ID,
                                    "tfstream-local-",
                                    PatternType.PREFIXED,
                                    AclOperation.WRITE)));
            Path config = dir.resolve("client.properties");
            try (var w = Files.newBufferedWriter(config)) {
                security.scramClient().store(w, null);
            }
            Path out = dir.resolve("secured-out");
            String servers = kafka.secured().saslSslServers();
            CliRun run = localOn(servers, config, 300, out);
            assertEquals(0, run.exitCode(), run.err());
            JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
            assertEquals(270, summary.get("shard_records").asLong());
            assertEquals(270, summary.get("batch_rows").asLong());
            assertEquals(30, summary.get("dead_lettered").asLong());
            for (String secret : List.of(security.scramPassword(), security.storePassword())) {
                assertFalse(run.out().contains(secret));
                assertFalse(run.err().contains(secret));
                try (var files = Files.walk(out)) {
                    for (Path f : files.filter(Files::isRegularFile).toList()) {
                        assertFalse(
                                new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)
                                        .contains(secret),
                                f.toString());
                    }
                }
            }

            Path wrong = dir.resolve("wrong.properties");
            try (var w = Files.newBufferedWriter(wrong)) {
                security.scramClientWithWrongPassword().store(w, null);
            }
            CliRun refused = localOn(servers, wrong, 10, dir.resolve("wrong-out"));
            assertEquals(2, refused.exitCode(), refused.err());
            String line = refused.err().strip();
            assertFalse(line.contains("\n"), line);
            assertTrue(line.contains("SASL authentication failed"), line);
        }
    }

    /**
     * {@code tfstream local} on broker {@code servers} with client settings {@code config} (null:
     * none), 10% of the records broken.
     */
    private static CliRun localOn(String servers, Path config, int records, Path out) {
        List<String> args = new ArrayList<>(List.of("local", "--broker", servers));
        if (config != null) {
            args.addAll(List.of("--broker-config", config.toString()));
        }
        args.addAll(
                List.of(
                        "--records",
                        Integer.toString(records),
                        "--corrupt-fraction",
                        "0.1",
                        "--out",
                        out.toString(),
                        "--rest-port",
                        "0"));
        return CliRun.of(args.toArray(String[]::new));
    }

    @Test
    void filesAreReadByTheJobWithDamagedRegionsDeadLettered() throws Exception {
        Path in = Files.createDirectories(dir.resolve("files-in"));
        List<byte[]> sample = SeedDataset.records(1200, 9);
        try (TfRecordWriter w =
                TfRecordFiles.newWriter(in.resolve("a.tfrecord.gz"), Compression.GZIP)) {
            for (byte[] r : sample.subList(0, 600)) {
                w.write(r);
            }
        }
        Path damaged = in.resolve("b.tfrecord");
        try (TfRecordWriter w = TfRecordFiles.newWriter(damaged, Compression.NONE)) {
            for (byte[] r : sample.subList(600, 1200)) {
                w.write(r);
            }
        }
        byte[] bytes = Files.readAllBytes(damaged);
        bytes[20] ^= 0x10; // inside the first record's data
        Files.write(damaged, bytes);
        Path out = dir.resolve("files-out");
        CliRun run =
                CliRun.of(
                        "local",
                        "--files",
                        in.toString(),
                        "--out",
                        out.toString(),
                        "--rest-port",
                        "0");
        assertEquals(0, run.exitCode(), run.err());
        JsonNode summary = JSON.readTree(out.resolve("summary.json").toFile());
        // 1199 records and one damaged region (the first record of b.tfrecord).
        assertEquals(1200, summary.get("records_in").asLong());
        assertEquals(1, summary.get("dead_lettered_by_reason").get("corrupt_input").asLong());
        assertEquals(1199, summary.get("accepted").asLong());
        assertEquals(1199, summary.get("shard_records").asLong());
        assertEquals(1199, summary.get("batch_rows").asLong());
        JsonNode dead = JSON.readTree(Files.readAllLines(out.resolve("dlq.jsonl")).get(0));
        assertEquals("corrupt_input", dead.get("reason").asText());
        assertTrue(dead.get("error").asText().contains("damaged at byte 0"), dead.toString());
        assertTrue(dead.get("source").get("file").asText().endsWith("/b.tfrecord"));
        assertEquals(0, dead.get("source").get("byte_offset").asLong());

        CliRun both = CliRun.of("local", "--files", in.toString(), "--records", "5");
        assertEquals(2, both.exitCode());
        assertTrue(both.err().contains("--files reads the files as they are"), both.err());
    }

    @Test
    void usageErrorsNameTheProblemAndLeaveNothingBehind() throws Exception {
        Path out = dir.resolve("never");
        CliRun fraction = CliRun.of("local", "--corrupt-fraction", "1.5", "--out", out.toString());
        assertEquals(2, fraction.exitCode());
        assertEquals(
                "tfstream local: --corrupt-fraction must be between 0 and 1, got 1.5\n",
                fraction.err());

        CliRun missing =
                CliRun.of(
                        "local",
                        "--input",
                        dir.resolve("nope.tfrecord").toString(),
                        "--out",
                        out.toString(),
                        "--rest-port",
                        "0");
        assertEquals(2, missing.exitCode());
        assertEquals(
                "tfstream local: --input: no such file: " + dir.resolve("nope.tfrecord") + "\n",
                missing.err());

        Path garbage =
                Files.writeString(dir.resolve("garbage.tfrecord"), "this is not a TFRecord file");
        CliRun unreadable =
                CliRun.of(
                        "local",
                        "--input",
                        garbage.toString(),
                        "--out",
                        out.toString(),
                        "--rest-port",
                        "0");
        assertEquals(2, unreadable.exitCode());
        assertTrue(
                unreadable.err().startsWith("tfstream local: --input " + garbage + ": "),
                unreadable.err());
        assertEquals(1, unreadable.err().lines().count(), unreadable.err());

        Path rejected = dir.resolve("rejected.pbtxt");
        Files.writeString(
                rejected,
                "feature { name: \"dense_column\" type: FLOAT }\n"
                        + "tensor_representation_group { key: \"\" value { tensor_representation {"
                        + " key: \"feat\" value { dense_tensor { column_name: \"dense_column\""
                        + " shape { dim { size: 1 } } default_value { int_value: -1 } } } } } }\n");
        CliRun schema =
                CliRun.of(
                        "local",
                        "--schema",
                        rejected.toString(),
                        "--out",
                        out.toString(),
                        "--rest-port",
                        "0");
        assertEquals(3, schema.exitCode(), schema.err());
        assertEquals(1, schema.err().lines().count(), schema.err());
        assertTrue(
                schema.err().contains("FeatureType: FLOAT is incompatible with default_value: -1"),
                schema.err());

        Path file = Files.writeString(dir.resolve("a-file"), "x");
        CliRun unwritable =
                CliRun.of("local", "--out", file.resolve("sub").toString(), "--rest-port", "0");
        assertEquals(2, unwritable.exitCode());
        assertTrue(unwritable.err().startsWith("tfstream local: --out "), unwritable.err());

        Path foreign = Files.createDirectories(dir.resolve("foreign"));
        Files.writeString(foreign.resolve("notes.txt"), "mine");
        CliRun notEmpty = CliRun.of("local", "--out", foreign.toString(), "--rest-port", "0");
        assertEquals(2, notEmpty.exitCode());
        assertTrue(notEmpty.err().contains("notes.txt"), notEmpty.err());
        assertEquals(List.of(foreign.resolve("notes.txt")), Files.list(foreign).toList());

        try (ServerSocket taken = new ServerSocket(0)) {
            CliRun port =
                    CliRun.of(
                            "local",
                            "--out",
                            out.toString(),
                            "--rest-port",
                            Integer.toString(taken.getLocalPort()));
            assertEquals(2, port.exitCode());
            assertEquals(
                    "tfstream local: port "
                            + taken.getLocalPort()
                            + " (the web UI) is in use: pass --rest-port with a free port, or 0"
                            + " for any\n",
                    port.err());
        }
        assertFalse(Files.exists(out), "nothing written for a usage error");
    }

    /**
     * {@code tfstream local} with {@code args} on 2 partitions and 2 subtasks, writing to {@code
     * out}, the web UI on a free port.
     */
    private static CliRun localOnTwoPartitions(Path out, String... args) {
        List<String> all = new ArrayList<>(List.of("local"));
        all.addAll(List.of(args));
        all.addAll(
                List.of(
                        "--partitions",
                        "2",
                        "--parallelism",
                        "2",
                        "--out",
                        out.toString(),
                        "--rest-port",
                        "0"));
        return CliRun.of(all.toArray(String[]::new));
    }

    private static String hex(byte[] b) {
        return java.util.HexFormat.of().formatHex(b);
    }
}
