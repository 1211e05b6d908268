package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The thin job jar a cluster runs (built at package, before the ITCases) holds the job and what it
 * needs beside Flink, and nothing of the CLI, of local mode or of the embedded Kafka broker.
 */
class ThinJobJarITCase {
    private static final List<String> NOT_IN_IT =
            List.of(
                    "io/tfstream/cli/",
                    "io/tfstream/local/",
                    "io/tfstream/embedded/",
                    "kafka-broker.jar",
                    "picocli/",
                    "kafka/server/KafkaRaftServer",
                    "org/apache/flink/runtime/");

    @Test
    void holdsTheJobAndNoCliLocalModeOrBroker() throws IOException {
        Path jar = Path.of(System.getProperty("tfstream.job.jar", "target/tfstream-job.jar"));
        assertTrue(Files.exists(jar), jar + " is built at package");
        try (JarFile j = new JarFile(jar.toFile())) {
            List<String> names = j.stream().map(e -> e.getName()).collect(Collectors.toList());
            assertTrue(names.contains("io/tfstream/job/TfstreamJob.class"), "the job's main");
            assertTrue(
                    names.contains("io/tfstream/api/TfstreamParse.class"), "the library it uses");
            assertEquals(
                    "io.tfstream.job.TfstreamJob",
                    j.getManifest().getMainAttributes().getValue("Main-Class"));
            List<String> found =
                    names.stream()
                            .filter(n -> NOT_IN_IT.stream().anyMatch(n::contains))
                            .limit(10)
                            .collect(Collectors.toList());
            assertEquals(List.of(), found, "in the thin job jar");
        }
    }
}
