package io.tfstream.e2e.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.cli.TfstreamCli;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.CompressionStreams;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code tfstream recover} on files TensorFlow cannot read whole: a flipped byte in one record of
 * an uncompressed, gzip or zlib file, and a gzip or zlib stream cut short. TensorFlow's own reader
 * reads each recovered file to the end and gets every record recover kept.
 */
class RecoverTensorFlowTest {
    private static final int DAMAGED = 100;

    @TempDir Path dir;

    private final List<byte[]> records = Seed001Corpus.records(200, 21);

    /** One {@code tfstream recover} run: its exit code and stdout lines. */
    private record Recovery(int exit, List<String> lines) {
        /** The C of the summary line 'IN: C records copied to OUT, …'. */
        long copied() {
            Matcher m =
                    Pattern.compile(": (\\d+) records copied to ")
                            .matcher(lines.get(lines.size() - 1));
            assertTrue(m.find(), lines.toString());
            return Long.parseLong(m.group(1));
        }
    }

    private static Recovery recover(Path in, Path out, String... options) {
        StringWriter stdout = new StringWriter();
        List<String> args = new ArrayList<>(List.of("recover", in.toString(), out.toString()));
        args.addAll(List.of(options));
        int exit =
                TfstreamCli.run(
                        new PrintWriter(stdout),
                        new PrintWriter(new StringWriter()),
                        args.toArray(String[]::new));
        return new Recovery(exit, List.of(stdout.toString().split("\n")));
    }

    /** The file TensorFlow wrote, uncompressed, with one byte of record 100's data flipped. */
    private byte[] damagedByTensorFlowFile() throws IOException {
        Path written = dir.resolve("written.tfrecord");
        TensorFlowRecordIo.write(written, records, Compression.NONE);
        byte[] bytes = Files.readAllBytes(written);
        int at = 0;
        for (int i = 0; i < DAMAGED; i++) {
            at += 16 + records.get(i).length;
        }
        bytes[at + 12 + 3] ^= 0x20;
        return bytes;
    }

    private static String cliName(Compression c) {
        return c.name().toLowerCase(Locale.ROOT);
    }

    private static void assertTensorFlowReads(List<byte[]> expected, Path file, Compression c) {
        TensorFlowRecordIo.ReadResult r = TensorFlowRecordIo.read(file, c);
        assertNull(r.error());
        assertEquals(expected.size(), r.records().size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), r.records().get(i), "record " + i);
        }
    }

    private List<byte[]> withoutTheDamagedRecord() {
        List<byte[]> expected = new ArrayList<>(records);
        expected.remove(DAMAGED);
        return expected;
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void tensorFlowReadsWhatRecoverKept(Compression outCompression) throws Exception {
        Path damaged = dir.resolve("damaged.tfrecord");
        Files.write(damaged, damagedByTensorFlowFile());
        assertNotNull(
                TensorFlowRecordIo.read(damaged, Compression.NONE).error(),
                "TensorFlow refuses the damaged file");

        Path out = dir.resolve("recovered-" + outCompression);
        Recovery r = recover(damaged, out, "--compression", cliName(outCompression));
        assertEquals(1, r.exit(), r.lines().toString());
        assertTrue(r.lines().get(0).contains(" (records lost: 1): "), r.lines().toString());
        assertTensorFlowReads(withoutTheDamagedRecord(), out, outCompression);
    }

    @ParameterizedTest
    @EnumSource(
            value = Compression.class,
            names = {"GZIP", "ZLIB"})
    void aCompressedFileDamagedInsideLosesOnlyTheDamagedRecord(Compression c) throws Exception {
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (OutputStream z = CompressionStreams.compressing(compressed, c, 1 << 16)) {
            z.write(damagedByTensorFlowFile());
        }
        Path damaged = dir.resolve("damaged-" + cliName(c) + ".tfrecord");
        Files.write(damaged, compressed.toByteArray());
        assertNotNull(
                TensorFlowRecordIo.read(damaged, c).error(), "TensorFlow refuses the damaged file");

        Path out = dir.resolve("recovered-" + cliName(c) + ".tfrecord");
        Recovery r = recover(damaged, out, "--compression", "auto");
        assertEquals(1, r.exit(), r.lines().toString());
        assertEquals(2, r.lines().size(), r.lines().toString());
        assertTrue(r.lines().get(0).contains(" (records lost: 1): "), r.lines().toString());
        assertEquals(records.size() - 1, r.copied());
        // OUT keeps the input's compression.
        assertTensorFlowReads(withoutTheDamagedRecord(), out, c);
    }

    @ParameterizedTest
    @EnumSource(
            value = Compression.class,
            names = {"GZIP", "ZLIB"})
    void aCutCompressedFileKeepsAtLeastWhatTensorFlowReadsBeforeTheCut(Compression c)
            throws Exception {
        Path written = dir.resolve("written-" + cliName(c) + ".tfrecord");
        TensorFlowRecordIo.write(written, records, c);
        byte[] whole = Files.readAllBytes(written);
        Path cut = dir.resolve("cut-" + cliName(c) + ".tfrecord");
        Files.write(cut, Arrays.copyOf(whole, whole.length / 2));
        // TensorFlow stops at the cut: with an error for zlib, as if at a clean end for gzip.
        TensorFlowRecordIo.ReadResult before = TensorFlowRecordIo.read(cut, c);
        assertTrue(before.records().size() < records.size(), "TensorFlow stops at the cut");

        Path out = dir.resolve("recovered-cut-" + cliName(c) + ".tfrecord");
        Recovery r = recover(cut, out);
        assertEquals(1, r.exit(), r.lines().toString());
        assertTrue(
                r.lines().get(0).endsWith("(nothing after it can be decompressed)"),
                r.lines().toString());
        long copied = r.copied();
        assertFalse(copied == 0, r.lines().toString());
        assertTrue(
                copied >= before.records().size(),
                copied + " recovered, TensorFlow read " + before.records().size());
        assertTensorFlowReads(records.subList(0, (int) copied), out, c);
    }
}
