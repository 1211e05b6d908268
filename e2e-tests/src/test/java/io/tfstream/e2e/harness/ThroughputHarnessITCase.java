package io.tfstream.e2e.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The throughput harness scaled down: it runs end to end and writes its report, JSON and charts.
 * Its numbers are not checked here; the full run's are in BENCHMARKS.md. The default build runs a
 * few of its jobs (the wide profile: pass-through, shards, no shards, JSON input, the profiled run,
 * 10 000 records, 3 s of latency measurement); {@code -Pe2e} every kind of run on both profiles (20
 * 000 records each, 5 s of latency). With {@code -Dharness.records=N} (and the other {@code
 * harness.*} properties, see {@code benchmarks/run-harness.sh}) it is the full harness instead.
 */
class ThroughputHarnessITCase {
    @Test
    void runsEndToEndAndWritesItsReport() throws Exception {
        if (System.getProperty("harness.records") != null) {
            HarnessSettings full = HarnessSettings.fromSystemProperties();
            Path report = new ThroughputHarness(full).run();
            assertTrue(Files.readString(report).contains("| pass-through |"));
            return;
        }
        if (!Boolean.getBoolean("tfstream.e2e.full")) {
            reduced();
            return;
        }
        Path out = Path.of("target", "harness-smoke");
        HarnessSettings settings =
                new HarnessSettings(
                        20_000,
                        List.of("seed001", "wide"),
                        4,
                        2,
                        Duration.ofSeconds(1),
                        List.of(Duration.ofMillis(200)),
                        1000,
                        Duration.ofSeconds(5),
                        true,
                        true,
                        List.of(256, 1024),
                        false,
                        out,
                        1,
                        true,
                        ThroughputHarness.WITH_STATISTICS,
                        List.of("json", "avro"));
        Path report = new ThroughputHarness(settings).run();
        String md = Files.readString(report);
        assertTrue(Files.size(out.resolve("wide.jfr")) > 0, "the profiled run's recording is kept");
        for (String row :
                List.of(
                        "| seed001 | pass-through |",
                        "| seed001 | tfstream (shards local) |",
                        "| seed001 | tfstream (shards s3proxy) |",
                        "| wide | pass-through |",
                        "| wide | tfstream (shards local) |",
                        "| wide | tfstream (no shards) |",
                        "| wide | tfstream (shards local gzip) |",
                        "| wide | tfstream (shards local gzip-1) |",
                        "| wide | flink FileSink |",
                        "| wide | tfstream (shards local, shards only) |",
                        "## Against Flink's FileSink",
                        "## S3 (S3Proxy) I/O per shard byte",
                        "| wide | tfstream (shards local, batch 256) |",
                        "| seed001 | tfstream (shards local, validation) |",
                        "| wide | tfstream (shards local, validation) |",
                        "| wide | tfstream (shards local, validation, statistics) |",
                        "| wide | tfstream (shards local, bucket statistics) |",
                        "## Shard writing cost",
                        "## Validation cost",
                        "## Bucket statistics cost",
                        "| seed001 | tfstream (no shards, json input) |",
                        "| wide | tfstream (no shards, avro input) |",
                        "## Input formats")) {
            assertTrue(md.contains(row), row + " in\n" + md);
        }
        JsonNode json = new ObjectMapper().readTree(out.resolve("report.json").toFile());
        // per profile: pass-through, shards local, s3proxy, no shards, Flink's FileSink, shards
        // without payloads, local gzip (levels 6 and 1), validation, validation with statistics,
        // bucket statistics, batch 256, JSON and Avro input without shards
        assertEquals(28, json.get("runs").size());
        assertTrue(
                json.get("file_sink").get("wide").get("shards_only_vs_file_sink_cpu").asDouble()
                        > 0,
                json.get("file_sink").toString());
        JsonNode formats = json.get("input_formats").get("wide");
        assertTrue(formats.get("json_throughput_vs_example").asDouble() > 0, formats.toString());
        assertTrue(formats.get("avro_cpu_vs_example").asDouble() > 0, formats.toString());
        assertTrue(
                json.get("validation_cost").get("wide").has("bucket_statistics_added_cpu"),
                json.get("validation_cost").toString());
        JsonNode cost = json.get("shard_cost").get("wide");
        assertTrue(cost.get("shard_bytes_gzip_1").asLong() > 0, cost.toString());
        assertTrue(
                cost.get("shard_bytes_gzip").asLong() < cost.get("shard_bytes_local").asLong(),
                cost.toString());
        // S3Proxy receives every shard byte at least once over its sockets
        JsonNode io = json.get("s3_io").get("seed001");
        assertTrue(io.get("s3proxy_read_ratio").asDouble() >= 1, io.toString());
        for (JsonNode r : json.get("runs")) {
            assertTrue(r.get("records_per_second").asDouble() > 0, r.toString());
            assertTrue(r.get("cpu_seconds").asDouble() > 0, r.toString());
        }
        JsonNode latency = json.get("latency").get(0);
        assertEquals(5000, latency.get("samples").asLong(), "every produced record seen once");
        assertTrue(latency.get("p99_ms").asDouble() >= latency.get("p50_ms").asDouble());
        // Every stage is reported; which stages a short run happens to sample is chance.
        JsonNode stages = json.get("stages").get("seed001");
        long samples = 0;
        for (String stage : JfrStages.STAGES) {
            assertTrue(stages.has(stage), stage + " in " + stages);
            samples += stages.get(stage).asLong();
        }
        assertTrue(samples > 0, stages.toString());
        assertTrue(json.get("validation_cost").get("wide").has("added_cpu"));
        assertTrue(json.get("validation_cost").get("wide").has("statistics_added_cpu"));
        assertTrue(Files.size(out.resolve("throughput.png")) > 1000);
        assertTrue(Files.size(out.resolve("latency-cdf.png")) > 1000);
        assertTrue(Files.size(out.resolve("throughput-by-batch.png")) > 1000);
    }

    /** The default build's run: four jobs on the wide profile and the profiled one. */
    private static void reduced() throws Exception {
        Path out = Path.of("target", "harness-smoke");
        HarnessSettings settings =
                new HarnessSettings(
                        10_000,
                        List.of("wide"),
                        4,
                        2,
                        Duration.ofSeconds(1),
                        List.of(Duration.ofMillis(200)),
                        1000,
                        Duration.ofSeconds(3),
                        false,
                        false,
                        List.of(1024),
                        false,
                        out,
                        1,
                        false,
                        "local",
                        List.of("json"));
        String md = Files.readString(new ThroughputHarness(settings).run());
        for (String row :
                List.of(
                        "| wide | pass-through |",
                        "| wide | tfstream (shards local) |",
                        "| wide | tfstream (no shards) |",
                        "| wide | tfstream (no shards, json input) |",
                        "## Input formats")) {
            assertTrue(md.contains(row), row + " in\n" + md);
        }
        JsonNode json = new ObjectMapper().readTree(out.resolve("report.json").toFile());
        assertEquals(4, json.get("runs").size(), json.get("runs").toString());
        for (JsonNode r : json.get("runs")) {
            assertTrue(r.get("records_per_second").asDouble() > 0, r.toString());
            assertTrue(r.get("cpu_seconds").asDouble() > 0, r.toString());
        }
        JsonNode formats = json.get("input_formats").get("wide");
        assertTrue(formats.get("json_throughput_vs_example").asDouble() > 0, formats.toString());
        JsonNode latency = json.get("latency").get(0);
        assertEquals(3000, latency.get("samples").asLong(), "every produced record seen once");
        assertTrue(latency.get("p99_ms").asDouble() >= latency.get("p50_ms").asDouble());
        assertTrue(Files.size(out.resolve("wide.jfr")) > 0, "the profiled run's recording is kept");
        JsonNode stages = json.get("stages").get("wide");
        for (String stage : JfrStages.STAGES) {
            assertTrue(stages.has(stage), stage + " in " + stages);
        }
        assertTrue(Files.size(out.resolve("throughput.png")) > 1000);
        assertTrue(Files.size(out.resolve("latency-cdf.png")) > 1000);
    }
}
