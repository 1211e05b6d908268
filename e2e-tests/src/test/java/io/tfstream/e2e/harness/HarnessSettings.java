package io.tfstream.e2e.harness;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/** What the throughput harness runs ({@code harness.*} system properties, see run-harness.sh). */
public record HarnessSettings(
        long records,
        List<String> profiles,
        int partitions,
        int parallelism,
        Duration checkpointInterval,
        List<Duration> batchDelays,
        int latencyRate,
        Duration latencyDuration,
        boolean s3,
        boolean shardCost,
        List<Integer> batchSizes,
        boolean warmUp,
        Path out,
        int repeat,
        boolean validation,
        String profiledJob,
        List<String> inputs) {
    /** The defaults of the full run, from system properties {@code harness.*}. */
    public static HarnessSettings fromSystemProperties() {
        return new HarnessSettings(
                Long.getLong("harness.records", 1_000_000),
                Arrays.asList(System.getProperty("harness.profiles", "seed001,wide").split(",")),
                Integer.getInteger("harness.partitions", 4),
                Integer.getInteger("harness.parallelism", 2),
                Duration.ofMillis(Long.getLong("harness.checkpoint-ms", 1000)),
                Arrays.stream(
                                System.getProperty("harness.batch-delays-ms", "50,200,1000")
                                        .split(","))
                        .map(s -> Duration.ofMillis(Long.parseLong(s.trim())))
                        .toList(),
                Integer.getInteger("harness.latency-rate", 5000),
                Duration.ofSeconds(Long.getLong("harness.latency-seconds", 30)),
                Boolean.parseBoolean(System.getProperty("harness.s3", "true")),
                Boolean.parseBoolean(System.getProperty("harness.shard-cost", "true")),
                Arrays.stream(System.getProperty("harness.batch-sizes", "128,1024,4096").split(","))
                        .map(x -> Integer.parseInt(x.trim()))
                        .toList(),
                Boolean.parseBoolean(System.getProperty("harness.warm-up", "true")),
                Path.of(System.getProperty("harness.out", "target/harness")),
                Integer.getInteger("harness.repeat", 1),
                Boolean.parseBoolean(System.getProperty("harness.validation", "true")),
                System.getProperty("harness.profiled-job", "local"),
                Arrays.stream(System.getProperty("harness.inputs", "json,avro").split(","))
                        .map(String::trim)
                        .filter(x -> !x.isEmpty())
                        .toList());
    }
}
