package io.tfstream.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TfRecordWriterTest {

    @Test
    void framesOneRecordByteForByte() throws IOException {
        byte[] file = TfRecordTestData.write(List.of(new byte[] {'a', 'b', 'c'}), Compression.NONE);
        MaskedCrc32c crc = new MaskedCrc32c();
        assertEquals(3 + 16, file.length);
        assertArrayEquals(new byte[] {3, 0, 0, 0, 0, 0, 0, 0}, Arrays.copyOf(file, 8));
        assertEquals(crc.maskedCrc(file, 0, 8), TfRecordFraming.getInt(file, 8));
        assertArrayEquals(new byte[] {'a', 'b', 'c'}, Arrays.copyOfRange(file, 12, 15));
        // crc32c("abc") = 0x364b3fb7, masked as TensorFlow's crc32c::Mask does.
        assertEquals(MaskedCrc32c.mask(0x364b3fb7), TfRecordFraming.getInt(file, 15));
    }

    @Test
    void writesSlicesWithoutTheBytesAroundThem() throws IOException {
        byte[] backing = {9, 9, 'x', 'y', 9};
        CollectingOutputStream out = new CollectingOutputStream();
        try (TfRecordWriter w = TfRecordWriter.builder(out).build()) {
            w.write(backing, 2, 2);
        }
        assertArrayEquals(
                TfRecordTestData.write(List.of(new byte[] {'x', 'y'}), Compression.NONE),
                out.toByteArray());
        TfRecordWriter w = TfRecordWriter.builder(new CollectingOutputStream()).build();
        assertThrows(IndexOutOfBoundsException.class, () -> w.write(backing, 4, 2));
    }

    @Test
    void staticFramingMatchesTheWriter() throws IOException {
        List<byte[]> records = TfRecordTestData.records(30, 300, 5);
        CollectingOutputStream out = new CollectingOutputStream();
        byte[] scratch = new byte[TfRecordFraming.HEADER_SIZE];
        MaskedCrc32c crc = new MaskedCrc32c();
        for (byte[] r : records) {
            TfRecordFraming.writeRecord(out, r, 0, r.length, scratch, crc);
        }
        assertArrayEquals(TfRecordTestData.write(records, Compression.NONE), out.toByteArray());
    }

    @Test
    void recordsLargerThanTheBufferGoStraightThrough() throws IOException {
        List<byte[]> records = TfRecordTestData.records(12, 5000, 6);
        CollectingOutputStream out = new CollectingOutputStream();
        try (TfRecordWriter w = TfRecordWriter.builder(out).bufferSize(64).build()) {
            for (byte[] r : records) {
                w.write(r);
            }
            assertEquals(12, w.recordCount());
        }
        assertArrayEquals(TfRecordTestData.write(records, Compression.NONE), out.toByteArray());
    }

    @Test
    void channelTargetWritesTheSameBytesAsAStream() throws IOException {
        List<byte[]> records = TfRecordTestData.records(40, 3000, 8);
        for (Compression c : Compression.values()) {
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            java.nio.channels.WritableByteChannel ch = java.nio.channels.Channels.newChannel(bytes);
            try (TfRecordWriter w =
                    TfRecordWriter.builder(ch).compression(c).bufferSize(1024).build()) {
                for (byte[] r : records) {
                    w.write(r);
                }
                w.flush();
            }
            assertFalse(ch.isOpen());
            assertEquals(records.size(), readLengths(bytes.toByteArray(), c).size(), c.name());
            if (c == Compression.NONE) {
                assertArrayEquals(TfRecordTestData.write(records, c), bytes.toByteArray());
            }
        }
    }

    @Test
    void channelThatTakesAFewBytesPerCallGetsEveryByte() throws IOException {
        // Records both smaller and larger than the 64-byte buffer (the latter go straight through).
        List<byte[]> records = TfRecordTestData.records(30, 300, 9);
        PickyByteChannel picky = new PickyByteChannel(7);
        try (TfRecordWriter w = TfRecordWriter.builder(picky).bufferSize(64).build()) {
            for (byte[] r : records) {
                w.write(r);
            }
        }
        assertArrayEquals(TfRecordTestData.write(records, Compression.NONE), picky.toByteArray());
        assertTrue(picky.calls() > picky.toByteArray().length / 7);
        assertFalse(picky.isOpen());
    }

    @Test
    void flushPushesRecordsAndFinishLeavesTheTargetOpen() throws IOException {
        for (Compression c : Compression.values()) {
            CollectingOutputStream out = new CollectingOutputStream();
            TfRecordWriter w =
                    TfRecordWriter.builder(out).compression(c).closeTarget(false).build();
            w.write(new byte[] {1, 2, 3});
            w.flush();
            assertEquals(List.of(3), lengthsOfPrefix(out.toByteArray(), c), c.name());
            w.write(new byte[] {4});
            w.finish();
            w.finish();
            assertFalse(out.isClosed(), c.name());
            assertThrows(IllegalStateException.class, () -> w.write(new byte[1]));
            w.close();
            assertFalse(out.isClosed(), "closeTarget(false) keeps the target open: " + c);
            assertEquals(List.of(3, 1), readLengths(out.toByteArray(), c));
            // The stream the writer did not own is still usable.
            out.write(0);
        }
    }

    @Test
    void closeClosesAnOwnedTarget() throws IOException {
        CollectingOutputStream out = new CollectingOutputStream();
        TfRecordWriter.builder(out).compression(Compression.GZIP).build().close();
        assertTrue(out.isClosed());
        assertEquals(List.of(), readLengths(out.toByteArray(), Compression.GZIP));
    }

    @Test
    void indexNeedsAnUncompressedFile() {
        TfRecordIndexWriter index = new TfRecordIndexWriter(new CollectingOutputStream());
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                TfRecordWriter.builder(new CollectingOutputStream())
                                        .compression(Compression.ZLIB)
                                        .index(index)
                                        .build());
        assertEquals(
                "an index records offsets in the uncompressed file; set compression NONE (is"
                        + " zlib) or drop the index",
                e.getMessage());
    }

    /** Record lengths readable from the bytes flushed so far (a sync-flushed prefix). */
    private static List<Integer> lengthsOfPrefix(byte[] prefix, Compression c) throws IOException {
        if (c == Compression.NONE) {
            return readLengths(prefix, c);
        }
        // A sync flush ends on a byte boundary: everything written so far inflates.
        java.util.zip.Inflater inf = new java.util.zip.Inflater(true);
        int skip = c == Compression.GZIP ? 10 : 2;
        inf.setInput(prefix, skip, prefix.length - skip);
        byte[] out = new byte[1024];
        try {
            int n = inf.inflate(out);
            return readLengths(Arrays.copyOf(out, n), Compression.NONE);
        } catch (java.util.zip.DataFormatException e) {
            throw new IOException(e);
        } finally {
            inf.end();
        }
    }

    private static List<Integer> readLengths(byte[] file, Compression c) throws IOException {
        List<Integer> lengths = new ArrayList<>();
        try (TfRecordReader r =
                TfRecordReader.open(
                        new ByteArrayInputStream(file),
                        "t",
                        TfRecordReadOptions.defaults().withCompression(c))) {
            while (r.next()) {
                lengths.add(r.length());
            }
        }
        return lengths;
    }
}
