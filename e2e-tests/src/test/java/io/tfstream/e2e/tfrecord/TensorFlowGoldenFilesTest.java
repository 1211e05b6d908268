package io.tfstream.e2e.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordTestData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The golden files in {@code core/src/test/resources/io/tfstream/tfrecord/golden/} are exactly what
 * TensorFlow's {@code DatasetToTFRecord} writes for {@link TfRecordTestData#goldenRecords()}. To
 * regenerate them, see that directory's {@code README.md}.
 */
class TensorFlowGoldenFilesTest {
    @TempDir Path dir;

    @Test
    void goldenFilesAreWhatTensorFlowWrites() throws IOException {
        String regenerate = System.getProperty("tfrecord.golden.dir");
        Map<Compression, byte[]> fresh = new EnumMap<>(Compression.class);
        for (Compression c : Compression.values()) {
            Path written = dir.resolve(TfRecordTestData.goldenFileName(c));
            TensorFlowRecordIo.write(written, TfRecordTestData.goldenRecords(), c);
            fresh.put(c, Files.readAllBytes(written));
            if (regenerate != null && !regenerate.isEmpty()) {
                Files.write(Path.of(regenerate, TfRecordTestData.goldenFileName(c)), fresh.get(c));
            }
        }
        for (Compression c : Compression.values()) {
            String name = TfRecordTestData.goldenFileName(c);
            try (InputStream golden =
                    TfRecordTestData.class.getResourceAsStream("golden/" + name)) {
                assertNotNull(golden, "missing golden file " + name);
                assertArrayEquals(golden.readAllBytes(), fresh.get(c), name);
            }
        }
    }
}
