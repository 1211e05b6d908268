package io.tfstream.e2e.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.cli.TfstreamCli;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.tfrecord.Compression;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code tfstream recover} on a file TensorFlow refuses (a flipped byte in one record):
 * TensorFlow's own reader reads the recovered file to the end and gets every other record.
 */
class RecoverTensorFlowTest {
    @TempDir Path dir;

    @ParameterizedTest
    @EnumSource(Compression.class)
    void tensorFlowReadsWhatRecoverKept(Compression outCompression) throws Exception {
        List<byte[]> records = Seed001Corpus.records(200, 21);
        Path damaged = dir.resolve("damaged.tfrecord");
        TensorFlowRecordIo.write(damaged, records, Compression.NONE);
        byte[] bytes = java.nio.file.Files.readAllBytes(damaged);
        int at = 0;
        for (int i = 0; i < 100; i++) {
            at += 16 + records.get(i).length;
        }
        bytes[at + 12 + 3] ^= 0x20; // inside record 100's data
        java.nio.file.Files.write(damaged, bytes);
        assertTrue(
                TensorFlowRecordIo.read(damaged, Compression.NONE).error() != null,
                "TensorFlow refuses the damaged file");

        Path out = dir.resolve("recovered-" + outCompression);
        StringWriter stdout = new StringWriter();
        int exit =
                TfstreamCli.run(
                        new PrintWriter(stdout),
                        new PrintWriter(new StringWriter()),
                        "recover",
                        damaged.toString(),
                        out.toString(),
                        "--compression",
                        outCompression.name().toLowerCase(java.util.Locale.ROOT));
        assertEquals(1, exit, stdout.toString());
        TensorFlowRecordIo.ReadResult r = TensorFlowRecordIo.read(out, outCompression);
        assertNull(r.error());
        List<byte[]> expected = new ArrayList<>(records);
        expected.remove(100);
        assertEquals(expected.size(), r.records().size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), r.records().get(i), "record " + i);
        }
    }
}
