package io.tfstream.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reads the files TensorFlow wrote (see {@code golden/README.md}) without TensorFlow. */
class TensorFlowGoldenFilesTest {
    private static byte[] golden(Compression c) throws IOException {
        try (InputStream in =
                TensorFlowGoldenFilesTest.class.getResourceAsStream(
                        "golden/" + TfRecordTestData.goldenFileName(c))) {
            return in.readAllBytes();
        }
    }

    @Test
    void readsEveryGoldenFileWithDetectedCompression() throws IOException {
        List<byte[]> expected = TfRecordTestData.goldenRecords();
        for (Compression c : Compression.values()) {
            byte[] file = golden(c);
            try (TfRecordReader r =
                    TfRecordReader.open(
                            new PickyInputStream(file),
                            TfRecordTestData.goldenFileName(c),
                            TfRecordReadOptions.defaults())) {
                assertEquals(c, r.compression());
                List<byte[]> read = TfRecordTestData.readAll(r);
                assertEquals(expected.size(), read.size(), c.name());
                for (int i = 0; i < expected.size(); i++) {
                    assertArrayEquals(expected.get(i), read.get(i), c + " record " + i);
                }
            }
        }
    }

    @Test
    void ourUncompressedOutputIsByteIdenticalToTensorFlows() throws IOException {
        byte[] tf = golden(Compression.NONE);
        assertEquals(0x1f, tf[0] & 0xff);
        assertEquals(0x8b, tf[1] & 0xff);
        assertArrayEquals(
                tf, TfRecordTestData.write(TfRecordTestData.goldenRecords(), Compression.NONE));
    }

    @Test
    void ourCompressedOutputInflatesToTensorFlowsRecords() throws IOException {
        for (Compression c : List.of(Compression.GZIP, Compression.ZLIB)) {
            byte[] ours = TfRecordTestData.write(TfRecordTestData.goldenRecords(), c);
            assertEquals(golden(c)[0], ours[0]);
            assertEquals(golden(c)[1], ours[1]);
            try (InputStream plain =
                    CompressionStreams.decompressing(
                            new java.io.ByteArrayInputStream(ours), c, 4096)) {
                assertArrayEquals(golden(Compression.NONE), plain.readAllBytes(), c.name());
            }
        }
    }
}
