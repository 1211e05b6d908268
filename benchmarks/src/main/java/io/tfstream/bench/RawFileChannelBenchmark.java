package io.tfstream.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The I/O floor: the same uncompressed framed bytes the TFRecord benchmarks produce, written from
 * and read into a Java heap array with a plain {@link FileChannel} in 64 KiB chunks, with no
 * framing or CRC work.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class RawFileChannelBenchmark {
    private static final int CHUNK = 64 << 10;

    @Param({"100", "1024"})
    public int recordSize;

    private byte[] framed;
    private byte[][] records;
    private final byte[] chunk = new byte[CHUNK];
    private final ByteBuffer direct = ByteBuffer.allocateDirect(CHUNK);
    private Path dir;
    private Path out;
    private Path in;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        RecordCorpus corpus = new RecordCorpus(recordSize);
        framed = corpus.framed();
        records = corpus.records();
        dir = Files.createTempDirectory("raw-bench");
        out = dir.resolve("out.bin");
        in = dir.resolve("in.bin");
        Files.write(in, framed);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Files.deleteIfExists(out);
        Files.deleteIfExists(in);
        Files.deleteIfExists(dir);
    }

    @Benchmark
    public long write() throws IOException {
        try (FileChannel ch =
                FileChannel.open(
                        out,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            for (int off = 0; off < framed.length; off += CHUNK) {
                ByteBuffer b = ByteBuffer.wrap(framed, off, Math.min(CHUNK, framed.length - off));
                while (b.hasRemaining()) {
                    ch.write(b);
                }
            }
            return ch.position();
        }
    }

    /**
     * The floor for any writer handed records as separate arrays: each record copied into a 64 KiB
     * off-heap buffer (16 spare bytes per record, left as they are) and written, with no framing or
     * CRC. {@link #write} gets the same bytes as one contiguous array.
     */
    @Benchmark
    public long writeSeparateArrays() throws IOException {
        try (FileChannel ch =
                FileChannel.open(
                        out,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            direct.clear();
            for (byte[] r : records) {
                if (direct.remaining() < r.length + 16) {
                    drain(ch);
                }
                direct.position(direct.position() + 12);
                direct.put(r);
                direct.position(direct.position() + 4);
            }
            drain(ch);
            return ch.position();
        }
    }

    private void drain(FileChannel ch) throws IOException {
        direct.flip();
        while (direct.hasRemaining()) {
            ch.write(direct);
        }
        direct.clear();
    }

    @Benchmark
    public long read() throws IOException {
        long total = 0;
        try (FileChannel ch = FileChannel.open(in, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.wrap(chunk);
            int n;
            while ((n = ch.read(b)) >= 0) {
                total += n + chunk[0];
                b.clear();
            }
        }
        return total;
    }
}
