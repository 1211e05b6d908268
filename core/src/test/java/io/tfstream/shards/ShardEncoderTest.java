package io.tfstream.shards;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.tfrecord.TfRecordTestData;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ShardEncoderTest {
    @ParameterizedTest
    @EnumSource(Compression.class)
    void roundTripWithSegments(Compression c) throws IOException {
        List<byte[]> records = TfRecordTestData.records(500, 3000, 11);
        TruncatableSink sink = new TruncatableSink();
        ShardEncoder enc = ShardEncoder.start(c, -1, sink);
        for (int i = 0; i < records.size(); i++) {
            enc.write(records.get(i), 0, records.get(i).length);
            if (i % 97 == 0) {
                enc.endSegment();
            }
        }
        enc.finish();
        try (TfRecordReader r =
                TfRecordReader.open(
                        new ByteArrayInputStream(sink.toByteArray()),
                        "shard",
                        TfRecordReadOptions.defaults().withCompression(c))) {
            List<byte[]> back = TfRecordTestData.readAll(r);
            assertEquals(records.size(), back.size());
            for (int i = 0; i < back.size(); i++) {
                assertArrayEquals(records.get(i), back.get(i));
            }
        }
    }
}
