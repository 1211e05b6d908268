package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The uids of every operator of the job's graph, as checkpoints and savepoints match state by them,
 * for the job's shapes (every Kafka output, shards, validation; window batches with event time;
 * JSON conversion; a file source): kept equal to {@code operator-uids-baseline.txt}, so that no
 * refactoring changes one unnoticed (a changed uid loses that operator's state on restore). A
 * deliberate change updates the resource in the same commit and says what happens to old state
 * ({@code -Dtfstream.uids.baseline=PATH} writes the current text to PATH).
 */
class OperatorUidsBaselineTest {
    private static final String RESOURCE = "operator-uids-baseline.txt";

    @TempDir Path dir;

    private String uids(Map<String, Object> extra) throws Exception {
        Path schema = dir.resolve("schema.pbtxt");
        Files.write(schema, io.tfstream.sample.SeedDataset.schemaPbtxt());
        Path spec = dir.resolve("spec.json");
        Files.writeString(spec, SpecJsonWriter.write(Seed001Corpus.spec()));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source.bootstrap-servers", "localhost:9092");
        if (!"files".equals(extra.get("source.type"))) {
            m.put("source.topics", "in");
        }
        m.put("schema.path", schema.toString());
        m.put("dlq.topic", "dlq");
        m.putAll(extra);
        TreeSet<String> uids = new TreeSet<>();
        for (StreamNode n : JobTestSupport.builtPipeline(m).getStreamGraph().getStreamNodes()) {
            uids.add(
                    n.getTransformationUID() == null
                            ? "(none) " + n.getOperatorName()
                            : n.getTransformationUID());
        }
        return String.join("\n", uids) + "\n";
    }

    String current() throws Exception {
        Map<String, Map<String, Object>> shapes = new LinkedHashMap<>();
        shapes.put(
                "every output",
                Map.of(
                        "output.records.topic", "records",
                        "output.batches.topic", "batches",
                        "shards.path", dir.resolve("shards").toUri().toString(),
                        "validation.enabled", "true",
                        "validation.alerts-topic", "alerts",
                        "validation.anomalies-topic", "anomalies",
                        "statistics.enabled", "true",
                        "statistics.topic", "statistics"));
        shapes.put(
                "event-time windows",
                Map.of(
                        "batch.mode", "event_time_window",
                        "batch.window", "1 s",
                        "output.batches.topic", "batches",
                        "shards.path", dir.resolve("shards").toUri().toString()));
        shapes.put(
                "feature event time",
                Map.of(
                        "event-time.source", "feature",
                        "event-time.feature", "feature0",
                        "output.batches.topic", "batches",
                        "shards.path", dir.resolve("shards").toUri().toString()));
        shapes.put("json", Map.of("source.format", "json", "output.records.topic", "records"));
        shapes.put(
                "file source",
                Map.of(
                        "source.type", "files",
                        "source.files.paths", dir.toUri().toString(),
                        "shards.path", dir.resolve("shards").toUri().toString()));
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Map<String, Object>> s : shapes.entrySet()) {
            b.append("# ").append(s.getKey()).append('\n').append(uids(s.getValue()));
        }
        return b.toString();
    }

    @Test
    void everyOperatorKeepsItsUid() throws Exception {
        String now = current();
        String write = System.getProperty("tfstream.uids.baseline");
        if (write != null) {
            Files.writeString(Path.of(write), now, StandardCharsets.UTF_8);
        }
        String baseline;
        try (InputStream in = OperatorUidsBaselineTest.class.getResourceAsStream(RESOURCE)) {
            baseline = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertEquals(baseline, now);
    }
}
