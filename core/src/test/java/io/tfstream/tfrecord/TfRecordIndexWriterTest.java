package io.tfstream.tfrecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TfRecordIndexWriterTest {

    @Test
    void writesOneOffsetAndFramedLengthLinePerRecord() throws IOException {
        List<byte[]> records = TfRecordTestData.records(50, 3000, 12);
        CollectingOutputStream file = new CollectingOutputStream();
        CollectingOutputStream idx = new CollectingOutputStream();
        try (TfRecordWriter w =
                TfRecordWriter.builder(file).index(new TfRecordIndexWriter(idx)).build()) {
            for (byte[] r : records) {
                w.write(r);
            }
        }
        assertEquals(true, idx.isClosed());
        StringBuilder expected = new StringBuilder();
        try (TfRecordReader r =
                TfRecordReader.open(
                        new ByteArrayInputStream(file.toByteArray()),
                        "f",
                        TfRecordReadOptions.defaults())) {
            while (r.next()) {
                expected.append(r.recordOffset()).append(' ').append(r.framedLength()).append('\n');
            }
        }
        String index = new String(idx.toByteArray(), StandardCharsets.US_ASCII);
        assertEquals(expected.toString(), index);
        assertEquals("0 16\n", index.substring(0, 5));
    }

    @Test
    void largeNumbersAndManyLinesSurviveBuffering() throws IOException {
        CollectingOutputStream idx = new CollectingOutputStream();
        StringBuilder expected = new StringBuilder();
        try (TfRecordIndexWriter w = new TfRecordIndexWriter(idx)) {
            for (long i = 0; i < 2000; i++) {
                long offset = Long.MAX_VALUE - i * 1_000_003L;
                w.add(offset, 16 + i);
                expected.append(offset).append(' ').append(16 + i).append('\n');
            }
            assertEquals(2000, w.entries());
        }
        assertEquals(expected.toString(), new String(idx.toByteArray(), StandardCharsets.US_ASCII));
    }

    @Test
    void rejectsImpossibleEntries() {
        TfRecordIndexWriter w = new TfRecordIndexWriter(new CollectingOutputStream());
        assertThrows(IllegalArgumentException.class, () -> w.add(-1, 16));
        assertThrows(IllegalArgumentException.class, () -> w.add(0, 15));
    }
}
