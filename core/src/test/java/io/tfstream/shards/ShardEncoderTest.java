package io.tfstream.shards;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordFraming;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import io.tfstream.tfrecord.TfRecordTestData;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.Adler32;
import java.util.zip.CRC32C;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class ShardEncoderTest {
    static Stream<Arguments> compressionsAndLevels() {
        List<Arguments> out = new ArrayList<>();
        for (Compression c : Compression.values()) {
            for (int level : new int[] {-1, 0, 1, 6, 9}) {
                if (c != Compression.NONE || level == -1) {
                    out.add(Arguments.of(c, level));
                }
            }
        }
        return out.stream();
    }

    /** A shard written with random segment ends and failures, and what it is made of. */
    private record Written(
            byte[] file, ShardEncoder.State state, List<Long> segmentEnds, int resumes) {}

    /**
     * Writes {@code records} with a segment end after random records; after some segment ends the
     * task "fails": it writes more, those bytes are thrown away, and the shard resumes from the
     * serialized state with the records after it replayed, as a restore does.
     */
    private static Written writeWithFailures(
            Compression c, int level, List<byte[]> records, long seed) throws IOException {
        Random random = new Random(seed);
        TruncatableSink sink = new TruncatableSink();
        ShardEncoder enc = ShardEncoder.start(c, level, sink);
        byte[] persisted = null; // the serialized state of the last checkpoint
        List<Long> segmentEnds = new ArrayList<>();
        int resumes = 0;
        int i = 0;
        while (i < records.size()) {
            byte[] r = records.get(i++);
            enc.write(r, 0, r.length);
            if (random.nextInt(40) == 0) {
                ShardEncoder.State s = enc.endSegment();
                assertEquals(sink.size(), s.bytesOut());
                assertEquals(crc32c(sink.toByteArray()), s.crc32c());
                persisted = serialize(s);
                segmentEnds.add(s.bytesOut());
                if (random.nextInt(3) == 0) {
                    // Fail after some more records (maybe after a segment end never persisted).
                    for (int k = random.nextInt(30); k > 0 && i < records.size(); k--) {
                        byte[] lost = records.get(i++);
                        enc.write(lost, 0, lost.length);
                        if (random.nextInt(10) == 0) {
                            enc.endSegment();
                        }
                    }
                    enc.release();
                    ShardEncoder.State restored = deserialize(persisted);
                    sink.truncate(restored.bytesOut());
                    segmentEnds.removeIf(end -> end > restored.bytesOut());
                    enc = ShardEncoder.resume(restored, sink);
                    i = (int) restored.records();
                    resumes++;
                }
            }
        }
        ShardEncoder.State last = enc.finish();
        return new Written(sink.toByteArray(), last, segmentEnds, resumes);
    }

    private static List<byte[]> readWithProjectReader(byte[] file, Compression c)
            throws IOException {
        try (TfRecordReader r =
                TfRecordReader.open(
                        new ByteArrayInputStream(file),
                        "shard",
                        TfRecordReadOptions.defaults().withCompression(c))) {
            return TfRecordTestData.readAll(r);
        }
    }

    private static void assertSameRecords(List<byte[]> expected, List<byte[]> actual) {
        assertEquals(expected.size(), actual.size(), "record count");
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i), "record " + i);
        }
    }

    /** The framed, uncompressed bytes of {@code records}. */
    private static byte[] framed(List<byte[]> records) throws IOException {
        return TfRecordTestData.write(records, Compression.NONE);
    }

    private static int crc32c(byte[] b) {
        CRC32C crc = new CRC32C();
        crc.update(b);
        return (int) crc.getValue();
    }

    private static byte[] serialize(ShardEncoder.State s) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        s.writeTo(new DataOutputStream(bytes));
        return bytes.toByteArray();
    }

    private static ShardEncoder.State deserialize(byte[] b) throws IOException {
        return ShardEncoder.State.readFrom(new DataInputStream(new ByteArrayInputStream(b)));
    }

    /** Inflates a whole zlib stream; fails unless it ends exactly with a correct Adler-32. */
    private static byte[] inflateZlibExactly(byte[] file) throws IOException {
        Inflater inflater = new Inflater();
        try (InputStream in = new InflaterInputStream(new ByteArrayInputStream(file), inflater)) {
            byte[] out = in.readAllBytes(); // a wrong Adler-32 is a ZipException here
            assertTrue(inflater.finished(), "zlib stream not finished");
            assertEquals(0, inflater.getRemaining(), "bytes after the zlib stream");
            assertEquals(file.length, inflater.getBytesRead(), "zlib stream length");
            return out;
        } finally {
            inflater.end();
        }
    }

    @ParameterizedTest
    @MethodSource("compressionsAndLevels")
    void roundTripsAcrossSegmentsAndResumes(Compression c, int level) throws IOException {
        List<byte[]> records = TfRecordTestData.records(700, 2000, level + 40);
        records.add(350, new byte[200_000]); // larger than the encoder's buffers
        int resumes = 0;
        for (long seed = 0; seed < 3; seed++) {
            Written w = writeWithFailures(c, level, records, seed * 31 + level);
            resumes += w.resumes();
            byte[] uncompressed = framed(records);
            ShardEncoder.State s = w.state();
            assertSameRecords(records, readWithProjectReader(w.file(), c));
            assertEquals(records.size(), s.records());
            assertEquals(w.file().length, s.bytesOut());
            assertEquals(crc32c(w.file()), s.crc32c());
            assertEquals(uncompressed.length, s.bytesIn());
            switch (c) {
                case NONE -> assertArrayEquals(uncompressed, w.file());
                case GZIP -> {
                    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(w.file()))) {
                        assertArrayEquals(uncompressed, in.readAllBytes());
                    }
                    assertEachSegmentIsOneGzipMember(w);
                }
                case ZLIB -> {
                    assertArrayEquals(uncompressed, inflateZlibExactly(w.file()));
                    Adler32 adler = new Adler32();
                    adler.update(uncompressed);
                    assertEquals((int) adler.getValue(), s.adler32());
                }
            }
        }
        assertTrue(resumes > 0, "no failure simulated");
    }

    private static void assertEachSegmentIsOneGzipMember(Written w) throws IOException {
        List<Long> ends = new ArrayList<>(w.segmentEnds());
        if (ends.isEmpty() || ends.get(ends.size() - 1) != w.file().length) {
            ends.add((long) w.file().length);
        }
        assertEquals(ends.size(), w.state().segments(), "members");
        long start = 0;
        for (long end : ends) {
            byte[] member = Arrays.copyOfRange(w.file(), (int) start, (int) end);
            assertArrayEquals(GZIP_HEADER_AS_TFRECORD_WRITER, Arrays.copyOf(member, 10));
            Inflater raw = new Inflater(true);
            try {
                raw.setInput(member, 10, member.length - 10);
                byte[] sink = new byte[1 << 16];
                while (!raw.finished()) {
                    assertTrue(raw.inflate(sink) > 0 || raw.finished(), "member stalls");
                }
                assertEquals(8, raw.getRemaining(), "member ends with its trailer");
            } catch (java.util.zip.DataFormatException e) {
                throw new AssertionError("member at " + start, e);
            } finally {
                raw.end();
            }
            start = end;
        }
    }

    private static final byte[] GZIP_HEADER_AS_TFRECORD_WRITER;

    static {
        try {
            GZIP_HEADER_AS_TFRECORD_WRITER =
                    Arrays.copyOf(
                            TfRecordTestData.write(List.of(new byte[1]), Compression.GZIP), 10);
        } catch (IOException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @ParameterizedTest
    @MethodSource("compressionsAndLevels")
    void zlibHeaderIsTheOneZlibWritesForTheLevel(Compression c, int level) throws IOException {
        if (c != Compression.ZLIB) {
            return;
        }
        TruncatableSink sink = new TruncatableSink();
        ShardEncoder enc = ShardEncoder.start(c, level, sink);
        enc.write(new byte[] {1}, 0, 1);
        enc.finish();
        Deflater zlib = new Deflater(level);
        zlib.setInput(new byte[] {1});
        zlib.finish();
        byte[] expected = new byte[64];
        zlib.deflate(expected);
        zlib.end();
        assertArrayEquals(Arrays.copyOf(expected, 2), Arrays.copyOf(sink.toByteArray(), 2));
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void segmentEndsWithoutRecordsWriteNothing(Compression c) throws IOException {
        TruncatableSink sink = new TruncatableSink();
        ShardEncoder enc = ShardEncoder.start(c, 6, sink);
        ShardEncoder.State empty = enc.endSegment();
        assertEquals(0, sink.size());
        assertEquals(0, empty.segments());
        enc.write(new byte[] {1, 2}, 0, 2);
        ShardEncoder.State one = enc.endSegment();
        assertEquals(one, enc.endSegment());
        assertEquals(one.bytesOut(), sink.size());
        assertEquals(1, one.segments());
        // A resume with nothing after it, then finish.
        ShardEncoder resumed = ShardEncoder.resume(deserialize(serialize(one)), sink);
        assertEquals(one, resumed.endSegment());
        ShardEncoder.State done = resumed.finish();
        assertEquals(1, done.segments());
        assertEquals(crc32c(sink.toByteArray()), done.crc32c());
        assertSameRecords(List.of(new byte[] {1, 2}), readWithProjectReader(sink.toByteArray(), c));
        if (c == Compression.ZLIB) {
            inflateZlibExactly(sink.toByteArray());
        }
        if (c == Compression.GZIP) {
            assertEquals(one.bytesOut(), done.bytesOut(), "no empty member at finish");
        }
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void emptyShardIsAValidEmptyFile(Compression c) throws IOException {
        TruncatableSink sink = new TruncatableSink();
        ShardEncoder.State s = ShardEncoder.start(c, -1, sink).finish();
        byte[] file = sink.toByteArray();
        assertEquals(file.length, s.bytesOut());
        assertEquals(crc32c(file), s.crc32c());
        assertEquals(0, s.records());
        assertEquals(0, s.segments());
        assertEquals(List.of(), readWithProjectReader(file, c));
        switch (c) {
            case NONE -> assertEquals(0, file.length);
            case GZIP -> {
                try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(file))) {
                    assertEquals(0, in.readAllBytes().length); // one empty member
                }
            }
            case ZLIB -> {
                assertEquals(0, inflateZlibExactly(file).length); // header, empty block, adler 1
                assertArrayEquals(new byte[] {0, 0, 0, 1}, Arrays.copyOfRange(file, 4, 8));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Compression.class)
    void writesAfterFinishFail(Compression c) throws IOException {
        ShardEncoder enc = ShardEncoder.start(c, 1, new TruncatableSink());
        enc.write(new byte[3], 0, 3);
        ShardEncoder.State s = enc.finish();
        assertSame(s, enc.finish());
        assertThrows(IllegalStateException.class, () -> enc.write(new byte[1], 0, 1));
        assertThrows(IllegalStateException.class, enc::endSegment);
        ShardEncoder released = ShardEncoder.start(c, 1, new TruncatableSink());
        released.release();
        assertThrows(IllegalStateException.class, () -> released.write(new byte[1], 0, 1));
    }

    @Test
    void recordsAreFramedAsTensorFlowFramesThem() throws IOException {
        List<byte[]> records = TfRecordTestData.goldenRecords();
        TruncatableSink sink = new TruncatableSink();
        ShardEncoder enc = ShardEncoder.start(Compression.NONE, -1, sink);
        for (byte[] r : records) {
            enc.write(r, 0, r.length);
        }
        enc.finish();
        assertArrayEquals(framed(records), sink.toByteArray());
        assertEquals(
                records.stream().mapToLong(r -> r.length + TfRecordFraming.OVERHEAD).sum(),
                enc.bytesOut());
        assertEquals(records.size(), enc.records());
    }

    @Test
    void smallRecordsAreBatchedBeforeTheSink() throws IOException {
        TruncatableSink sink = new TruncatableSink();
        ShardEncoder enc = ShardEncoder.start(Compression.GZIP, 6, sink);
        for (int i = 0; i < 10_000; i++) {
            enc.write(new byte[] {(byte) i}, 0, 1);
        }
        enc.endSegment();
        assertTrue(sink.writes() < 10, "sink writes: " + sink.writes());
    }

    @Test
    void stateSurvivesSerialization() throws IOException {
        ShardEncoder.State s =
                new ShardEncoder.State(
                        Compression.ZLIB,
                        9,
                        12,
                        1L << 40,
                        0xdeadbeef,
                        5L << 33,
                        0x1234abcd,
                        7,
                        true);
        assertEquals(s, deserialize(serialize(s)));
        for (Compression c : Compression.values()) {
            ShardEncoder.State t = new ShardEncoder.State(c, -1, 0, 0, 0, 0, 1, 0, false);
            assertEquals(t, deserialize(serialize(t)));
        }
    }

    @Test
    void unknownStateVersionIsRejected() throws IOException {
        byte[] bytes =
                serialize(new ShardEncoder.State(Compression.GZIP, 6, 1, 2, 3, 4, 1, 1, true));
        bytes[3] = 2; // version 2
        IOException e = assertThrows(IOException.class, () -> deserialize(bytes));
        assertTrue(
                e.getMessage().contains("unknown shard encoder state version 2"), e.getMessage());
        bytes[3] = 1;
        bytes[4] = 9; // compression code
        e = assertThrows(IOException.class, () -> deserialize(bytes));
        assertTrue(e.getMessage().contains("unknown compression code 9"), e.getMessage());
        bytes[4] = 1;
        bytes[5] = 10; // level
        e = assertThrows(IOException.class, () -> deserialize(bytes));
        assertTrue(e.getMessage().contains("level"), e.getMessage());
    }
}
