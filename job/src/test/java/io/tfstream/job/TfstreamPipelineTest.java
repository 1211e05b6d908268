package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shape of the job graph: the parse operator is chained to the source, nothing runs at 1. */
class TfstreamPipelineTest {
    @TempDir Path dir;

    private JobGraph graph(Map<String, Object> extra) throws Exception {
        Path spec = dir.resolve("spec.json");
        Files.writeString(spec, SpecJsonWriter.write(Seed001Corpus.spec()));
        Map<String, Object> m = new HashMap<>();
        m.put("source.bootstrap-servers", "localhost:9092");
        if (!"files".equals(extra.get("source.type"))) {
            m.put("source.topics", "in");
        }
        if (!extra.containsKey("schema.path")) {
            m.put("spec.path", spec.toString());
        }
        m.put("dlq.topic", "dlq");
        m.put("parallelism", 3);
        m.putAll(extra);
        return JobTestSupport.builtPipeline(m)
                .getStreamGraph()
                .getJobGraph(getClass().getClassLoader(), null);
    }

    /**
     * The checkpoint interval of the job graph built on a cluster configured with {@code cluster}.
     */
    private long intervalOnCluster(Map<String, String> cluster, Map<String, Object> job)
            throws Exception {
        return graphOnCluster(cluster, job)
                .getCheckpointingSettings()
                .getCheckpointCoordinatorConfiguration()
                .getCheckpointInterval();
    }

    /** The job graph of the job's options {@code job} built on a cluster configured so. */
    private JobGraph graphOnCluster(Map<String, String> cluster, Map<String, Object> job)
            throws Exception {
        Path spec = dir.resolve("spec.json");
        Files.writeString(spec, SpecJsonWriter.write(Seed001Corpus.spec()));
        Map<String, Object> m = new HashMap<>();
        m.put("source.bootstrap-servers", "localhost:9092");
        m.put("source.topics", "in");
        m.put("spec.path", spec.toString());
        m.put("dlq.topic", "dlq");
        m.putAll(job);
        JobConfig config = JobConfig.of(m);
        // What a cluster's client or JobManager does: its config.yaml under the job's settings.
        Configuration flink = Configuration.fromMap(cluster);
        flink.addAll(JobLauncher.flinkConfiguration(config));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flink);
        TfstreamPipeline.build(env, config, JobSchema.load(config));
        return env.getStreamGraph().getJobGraph(getClass().getClassLoader(), null);
    }

    @Test
    void theClustersCheckpointIntervalIsKeptUnlessTheJobSetsOne() throws Exception {
        Map<String, String> cluster = Map.of("execution.checkpointing.interval", "7 s");
        assertEquals(7_000, intervalOnCluster(cluster, Map.of()));
        assertEquals(2_000, intervalOnCluster(cluster, Map.of("checkpoint.interval", "2 s")));
        assertEquals(
                3_000,
                intervalOnCluster(
                        cluster, Map.of("flink.execution.checkpointing.interval", "3 s")));
    }

    @Test
    void checkpointingOffInTheClusterAndTheJobIsRefused() {
        JobConfigException e =
                assertThrows(JobConfigException.class, () -> intervalOnCluster(Map.of(), Map.of()));
        assertTrue(e.getMessage().contains("checkpoint.interval"), e.getMessage());
        assertTrue(e.getMessage().contains("execution.checkpointing.interval"), e.getMessage());
        JobConfigException atLeastOnce =
                assertThrows(
                        JobConfigException.class,
                        () ->
                                intervalOnCluster(
                                        Map.of(
                                                "execution.checkpointing.interval", "7 s",
                                                "execution.checkpointing.mode", "AT_LEAST_ONCE"),
                                        Map.of()));
        assertTrue(atLeastOnce.getMessage().contains("EXACTLY_ONCE"), atLeastOnce.getMessage());
    }

    @Test
    void theJobSetsNoRestartStrategyOfItsOwn() throws Exception {
        JobGraph cluster =
                graphOnCluster(Map.of("execution.checkpointing.interval", "7 s"), Map.of());
        assertFalse(
                cluster.getJobConfiguration().toMap().containsKey("restart-strategy.type"),
                "the cluster's restart strategy applies");
        JobGraph own =
                graphOnCluster(
                        Map.of("execution.checkpointing.interval", "7 s"),
                        Map.of("flink.restart-strategy.type", "fixed-delay"));
        assertEquals(
                "fixed-delay",
                own.getJobConfiguration().toMap().get("restart-strategy.type"),
                "the job's flink.restart-strategy.* wins");
    }

    @Test
    void theEmbeddedClusterCheckpointsEveryTenSecondsByDefault() throws Exception {
        assertEquals(
                JobOptions.DEFAULT_CHECKPOINT_INTERVAL.toMillis(),
                graph(Map.of())
                        .getCheckpointingSettings()
                        .getCheckpointCoordinatorConfiguration()
                        .getCheckpointInterval());
    }

    private static JobVertex vertexOf(JobGraph g, String operatorName) {
        for (JobVertex v : g.getVertices()) {
            if (v.getName().contains(operatorName)) {
                return v;
            }
        }
        throw new AssertionError("no vertex runs " + operatorName);
    }

    @Test
    void parseIsChainedToTheSourceAndEveryVertexRunsAtTheJobsParallelism() throws Exception {
        JobGraph g = graph(Map.of("output.records.topic", "clean"));
        JobVertex source = vertexOf(g, "kafka-source");
        assertTrue(source.getName().contains("batch-and-parse"), source.getName());
        List<String> names = new ArrayList<>();
        for (JobVertex v : g.getVertices()) {
            names.add(v.getName());
            assertEquals(3, v.getParallelism(), v.getName());
        }
        assertTrue(String.join(" | ", names).contains("dead-letter-sink"), names.toString());
        assertTrue(String.join(" | ", names).contains("records-sink"), names.toString());
    }

    @Test
    void conversionRunsInsideTheParseAndInItsOwnStepBeforeWindows() throws Exception {
        Path schema = dir.resolve("schema.pbtxt");
        Files.write(schema, io.tfstream.sample.SeedDataset.schemaPbtxt());
        // Count batches: decoded straight into the parse; no convert operator (a savepoint of an
        // earlier job with one restores: it had no state, which Flink skips).
        JobGraph g = graph(Map.of("schema.path", schema.toString(), "source.format", "json"));
        JobVertex source = vertexOf(g, "kafka-source");
        assertTrue(source.getName().contains("batch-and-parse"), source.getName());
        assertFalse(chained(source).contains("convert"), source.getName());
        // Windows are keyed before the parse: the records are Examples by then.
        JobGraph windowed =
                graph(
                        Map.of(
                                "schema.path", schema.toString(),
                                "source.format", "json",
                                "batch.mode", "event_time_window",
                                "batch.window", "1 s",
                                "output.batches.topic", "batches"));
        JobVertex windowSource = vertexOf(windowed, "kafka-source");
        assertTrue(chained(windowSource).contains("convert"), windowSource.getName());
    }

    /** The names of the operators chained in {@code v}, as Flink joins them in its name. */
    private static List<String> chained(JobVertex v) {
        return List.of(v.getName().replaceFirst("^Source: ", "").split(" -> "));
    }

    @Test
    void validationRunsInsideParsingAndItsWindowsRunAtTheJobsParallelism() throws Exception {
        Path schema = dir.resolve("schema.pbtxt");
        Files.write(schema, io.tfstream.sample.SeedDataset.schemaPbtxt());
        Map<String, Object> m = new HashMap<>();
        m.put("schema.path", schema.toString());
        m.put("validation.enabled", "true");
        m.put("validation.alerts-topic", "alerts");
        m.put("validation.anomalies-topic", "anomalies");
        m.put("output.records.topic", "clean");
        JobGraph g = graph(m);
        JobVertex source = vertexOf(g, "kafka-source");
        // Records are validated by batch-and-parse itself: no operator of its own.
        assertTrue(source.getName().contains("batch-and-parse"), source.getName());
        List<String> names = new ArrayList<>();
        for (JobVertex v : g.getVertices()) {
            names.add(v.getName());
            assertEquals(3, v.getParallelism(), v.getName());
        }
        String all = String.join(" | ", names);
        assertTrue(!all.contains("record-validation"), all);
        assertTrue(all.contains("validation-windows"), all);
        assertTrue(all.contains("alerts-sink"), all);
        assertTrue(all.contains("anomalies-sink"), all);
    }

    @Test
    void featureEventTimeAddsAWatermarkStageChainedAfterParsing() throws Exception {
        JobGraph g =
                graph(Map.of("event-time.source", "feature", "event-time.feature", "feature1"));
        JobVertex source = vertexOf(g, "kafka-source");
        assertTrue(source.getName().contains("feature-event-time"), source.getName());
    }

    @Test
    void shardsAreWrittenAtTheJobsParallelismOnlyTheMarkerCoordinatorRunsAlone() throws Exception {
        JobGraph g = graph(Map.of("shards.path", dir.resolve("shards").toUri().toString()));
        JobVertex source = vertexOf(g, "kafka-source");
        assertTrue(source.getName().contains("shard-sink"), source.getName());
        assertTrue(source.getName().contains("bucket-skew-guard"), source.getName());
        for (JobVertex v : g.getVertices()) {
            if (v.getParallelism() != 3) {
                assertTrue(
                        v.getName().endsWith("shard-marker-coordinator"),
                        "only the marker coordinator (shard names, no records) runs at "
                                + v.getParallelism()
                                + ": "
                                + v.getName());
            }
        }
    }

    @Test
    void theSkewGuardAlsoRunsWhenSkewedRecordsAreRebucketedToCountThem() throws Exception {
        JobGraph g =
                graph(
                        Map.of(
                                "shards.path",
                                dir.resolve("shards").toUri().toString(),
                                "shards.skew-action",
                                "processing_time"));
        assertTrue(
                vertexOf(g, "kafka-source").getName().contains("bucket-skew-guard"),
                "the guard counts tfstream.skewedRecords");
    }

    /** Regression: old files' records were all dead-lettered by the 7-day default skew. */
    @Test
    void aFileSourceHasNoSkewGuardUnlessTheSkewIsSet() throws Exception {
        Map<String, Object> files = new HashMap<>();
        files.put("source.type", "files");
        files.put("source.files.paths", dir.resolve("in").toUri().toString());
        files.put("shards.path", dir.resolve("shards").toUri().toString());
        JobVertex source = vertexOf(graph(files), "file-source");
        assertTrue(source.getName().contains("shard-sink"), source.getName());
        assertFalse(source.getName().contains("bucket-skew-guard"), source.getName());
        files.put("shards.max-bucket-skew", "400 d");
        assertTrue(
                vertexOf(graph(files), "file-source").getName().contains("bucket-skew-guard"),
                "explicitly set: checked");
    }
}
