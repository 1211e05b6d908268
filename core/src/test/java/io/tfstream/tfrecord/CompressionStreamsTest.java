package io.tfstream.tfrecord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;

class CompressionStreamsTest {
    /** One byte per read and {@code available() == 0}, as a network or S3 stream may behave. */
    private static final class StingyStream extends InputStream {
        private final ByteArrayInputStream in;

        StingyStream(byte[] bytes) {
            this.in = new ByteArrayInputStream(bytes);
        }

        @Override
        public int read() {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            return len == 0 ? 0 : in.read(b, off, 1);
        }

        @Override
        public int available() {
            return 0;
        }
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    private static byte[] readAll(byte[] file) throws IOException {
        try (InputStream in =
                CompressionStreams.decompressing(new StingyStream(file), Compression.GZIP, 64)) {
            return in.readAllBytes();
        }
    }

    private static byte[] concat(List<byte[]> parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        parts.forEach(out::writeBytes);
        return out.toByteArray();
    }

    @Test
    void readsEveryMemberWhenTheStreamReportsNothingAvailable() throws IOException {
        // JDK-7036144: Java 17's GZIPInputStream stops after the first member here.
        Random random = new Random(7036144);
        List<byte[]> members = new ArrayList<>();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int i = 0; i < 12; i++) {
            byte[] data = new byte[i == 3 ? 0 : random.nextInt(5000)];
            random.nextBytes(data);
            expected.writeBytes(data);
            members.add(gzip(data));
        }
        assertArrayEquals(expected.toByteArray(), readAll(concat(members)));
    }

    @Test
    void tfRecordReaderReadsAllMembersOfAMultiMemberFile() throws IOException {
        List<byte[]> records = TfRecordTestData.records(60, 300, 3);
        List<byte[]> members = new ArrayList<>();
        for (int i = 0; i < records.size(); i += 7) {
            members.add(
                    TfRecordTestData.write(
                            records.subList(i, Math.min(i + 7, records.size())), Compression.GZIP));
        }
        try (TfRecordReader r =
                TfRecordReader.open(
                        new StingyStream(concat(members)),
                        "shard.gz",
                        TfRecordReadOptions.defaults())) {
            List<byte[]> back = TfRecordTestData.readAll(r);
            assertEquals(records.size(), back.size());
            for (int i = 0; i < records.size(); i++) {
                assertArrayEquals(records.get(i), back.get(i));
            }
        }
    }

    /** A member with every optional header field, and a header CRC when {@code hcrc}. */
    private static byte[] memberWithAllHeaderFields(byte[] data, boolean goodHcrc)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 2 | 4 | 8 | 16, 1, 2, 3, 4, 0, 3});
        out.writeBytes(new byte[] {5, 0, 'a', 'b', 'c', 'd', 'e'}); // FEXTRA
        out.writeBytes("name.tfrecord\0".getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes("a comment\0".getBytes(StandardCharsets.ISO_8859_1));
        CRC32 hcrc = new CRC32();
        hcrc.update(out.toByteArray());
        int h = (int) hcrc.getValue() + (goodHcrc ? 0 : 1);
        out.write(h);
        out.write(h >>> 8);
        Deflater d = new Deflater(6, true);
        d.setInput(data);
        d.finish();
        byte[] buf = new byte[data.length + 100];
        int n = d.deflate(buf);
        d.end();
        out.write(buf, 0, n);
        CRC32 crc = new CRC32();
        crc.update(data);
        int c = (int) crc.getValue();
        out.writeBytes(
                new byte[] {(byte) c, (byte) (c >>> 8), (byte) (c >>> 16), (byte) (c >>> 24)});
        int size = data.length;
        out.writeBytes(
                new byte[] {
                    (byte) size, (byte) (size >>> 8), (byte) (size >>> 16), (byte) (size >>> 24)
                });
        return out.toByteArray();
    }

    @Test
    void parsesOptionalHeaderFields() throws IOException {
        byte[] a = "first member".getBytes(StandardCharsets.US_ASCII);
        byte[] b = "second".getBytes(StandardCharsets.US_ASCII);
        byte[] file = concat(List.of(memberWithAllHeaderFields(a, true), gzip(b)));
        assertArrayEquals(concat(List.of(a, b)), readAll(file));
    }

    @Test
    void badHeaderCrcNamesTheMember() throws IOException {
        byte[] file =
                concat(
                        List.of(
                                gzip(new byte[] {1}),
                                memberWithAllHeaderFields(new byte[] {2}, false)));
        ZipException e = assertThrows(ZipException.class, () -> readAll(file));
        assertTrue(
                e.getMessage().contains("member 2") && e.getMessage().contains("CRC16"),
                e.getMessage());
    }

    @Test
    void wrongTrailerCrcFails() throws IOException {
        byte[] file = gzip(new byte[] {1, 2, 3, 4});
        file[file.length - 8] ^= 1;
        ZipException e = assertThrows(ZipException.class, () -> readAll(file));
        assertTrue(e.getMessage().contains("CRC32 mismatch"), e.getMessage());
    }

    @Test
    void wrongTrailerSizeFails() throws IOException {
        byte[] file = gzip(new byte[] {1, 2, 3, 4});
        file[file.length - 4] ^= 1;
        ZipException e = assertThrows(ZipException.class, () -> readAll(file));
        assertTrue(e.getMessage().contains("ISIZE mismatch"), e.getMessage());
    }

    @Test
    void truncatedMemberFails() throws IOException {
        byte[] one = gzip(new byte[3000]);
        byte[] file = concat(List.of(one, java.util.Arrays.copyOf(one, one.length / 2)));
        EOFException e = assertThrows(EOFException.class, () -> readAll(file));
        assertTrue(
                e.getMessage().contains("member 2") && e.getMessage().contains("truncated"),
                e.getMessage());
        byte[] cutTrailer = java.util.Arrays.copyOf(one, one.length - 3);
        e = assertThrows(EOFException.class, () -> readAll(cutTrailer));
        assertTrue(e.getMessage().contains("trailer"), e.getMessage());
    }

    @Test
    void bytesAfterAMemberThatAreNoHeaderFail() throws IOException {
        // TensorFlow's reader fails on them too (inflate after inflateReset sees a bad header).
        byte[] file = concat(List.of(gzip(new byte[] {1}), new byte[] {0, 0, 0, 0}));
        ZipException e = assertThrows(ZipException.class, () -> readAll(file));
        assertTrue(
                e.getMessage().contains("member 2 at byte " + (file.length - 4)), e.getMessage());
    }

    @Test
    void corruptDeflateDataFails() throws IOException {
        byte[] file = gzip(new byte[] {1, 2, 3});
        file[10] = (byte) 0xff; // block type 3 is invalid
        ZipException e = assertThrows(ZipException.class, () -> readAll(file));
        assertTrue(
                e.getMessage().contains("corrupt deflate data in gzip member 1"), e.getMessage());
    }

    @Test
    void emptyOrForeignInputFailsAtOnce() {
        assertThrows(EOFException.class, () -> readAll(new byte[0]));
        assertThrows(ZipException.class, () -> readAll(new byte[] {0x1f, (byte) 0x8c, 8, 0}));
    }
}
