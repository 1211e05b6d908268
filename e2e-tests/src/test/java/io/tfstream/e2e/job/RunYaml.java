package io.tfstream.e2e.job;

import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The job.yaml of the process tests' {@code tfstream run}: seed-001 records, Kafka in and out. */
final class RunYaml {
    private RunYaml() {}

    /**
     * Writes the seed-001 spec and a job.yaml into {@code dir}: job {@code name} at parallelism 2
     * with 1 s checkpoints reading topic {@code in}, dead letters to {@code dlq}, accepted records
     * to {@code clean}, and the {@code more} lines (top-level keys) after them; returns the yaml.
     */
    static Path seed001(Path dir, String bootstrapServers, String name, String... more)
            throws Exception {
        Path spec = dir.resolve("spec.json");
        Files.writeString(spec, SpecJsonWriter.write(Seed001Corpus.spec()));
        List<String> lines =
                new ArrayList<>(
                        List.of(
                                "job.name: " + name,
                                "parallelism: 2",
                                "checkpoint.interval: 1 s",
                                "rest.port: 0",
                                "source.bootstrap-servers: " + bootstrapServers,
                                "source.topics: [in]",
                                "spec.path: " + spec,
                                "dlq.topic: dlq",
                                "output.records.topic: clean",
                                "output.transaction-timeout: 1 min"));
        lines.addAll(Arrays.asList(more));
        Path yaml = dir.resolve("job.yaml");
        Files.writeString(yaml, String.join("\n", lines) + "\n");
        return yaml;
    }
}
