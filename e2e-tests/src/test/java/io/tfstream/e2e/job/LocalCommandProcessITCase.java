package io.tfstream.e2e.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tfstream.e2e.parse.TfParseOracle;
import io.tfstream.e2e.tfrecord.TensorFlowRecordIo;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.tfrecord.Compression;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command as a newcomer runs it: {@code tfstream local} from the CLI jar in its
 * own JVM (1 GiB heap), with broken records mixed in and gzip shards. Then TensorFlow reads every
 * shard it left ({@code TFRecordReaderV2}) and parses every record in them ({@code ParseExampleV2},
 * the seed-001 spec) without an error, and the counts are those of {@code summary.json}.
 */
class LocalCommandProcessITCase {
    @TempDir Path dir;

    @Test
    void tensorFlowReadsAndParsesEveryShardOfALocalRun() throws Exception {
        Path out = dir.resolve("out");
        List<String> cmd = CliJar.command();
        cmd.addAll(
                List.of(
                        "local",
                        "--records",
                        "3000",
                        "--corrupt-fraction",
                        "0.05",
                        "--compression",
                        "gzip",
                        "--out",
                        out.toString(),
                        "--rest-port",
                        "0"));
        Path stdout = dir.resolve("local.out");
        Path stderr = dir.resolve("local.err");
        String printed = CliJar.runLocal(cmd, stdout, stderr);
        assertTrue(printed.contains("web UI: http://"), printed);
        assertTrue(
                printed.contains("3000 records in = 2850 accepted + 150 dead-lettered"), printed);

        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        long records = 0;
        try (TfParseOracle tf = new TfParseOracle(Seed001Corpus.spec())) {
            for (JsonNode shard : summary.get("shards")) {
                Path file = out.resolve(shard.asText());
                TensorFlowRecordIo.ReadResult read =
                        TensorFlowRecordIo.read(file, Compression.GZIP);
                assertNull(read.error(), "TensorFlow's reader on " + file);
                records += read.records().size();
                TfParseOracle.Outcome parsed = tf.parse(read.records());
                assertNull(parsed.error(), "ParseExampleV2 on the records of " + file);
            }
        }
        assertEquals(summary.get("accepted").asLong(), records);
        assertEquals(2850, records);
    }
}
