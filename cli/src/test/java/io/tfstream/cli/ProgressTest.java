package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress line: quiet when disabled, rate and ETA from a clock, progress inside one file,
 * erased before output and at the end; when stderr counts as a terminal.
 */
class ProgressTest {
    @TempDir Path dir;

    private final StringWriter terminal = new StringWriter();
    private final PrintWriter both = new PrintWriter(terminal);
    private final long[] now = {0};

    @Test
    void printsFilesBytesRateAndEtaAtMostTwiceASecond() {
        Progress p = new Progress(both, both, true, () -> now[0], 4, 4L << 20);
        now[0] = 100_000_000L; // 0.1 s: too soon to print
        p.fileDone(1L << 20);
        assertEquals("", terminal.toString());
        now[0] = 1_000_000_000L; // 1 s: 2 MiB done at 2 MiB/s, 2 MiB left
        p.fileDone(1L << 20);
        String line = "2/4 files, 2.0 MiB of 4.0 MiB, 2.0 MiB/s, ETA 0:00:01";
        assertEquals("\r" + line, terminal.toString());
        p.done();
        assertEquals("\r" + line + "\r" + " ".repeat(line.length()) + "\r", terminal.toString());
    }

    @Test
    void oneFileShowsTheBytesReadInsideIt() {
        Progress p = new Progress(both, both, true, () -> now[0], 1, 10L << 20);
        now[0] = 2_000_000_000L; // 2 s: 4 MiB read at 2 MiB/s, 6 MiB left
        p.read(4L << 20);
        assertEquals("\r4.0 MiB of 10.0 MiB, 2.0 MiB/s, ETA 0:00:03", terminal.toString());
    }

    @Test
    void outputErasesTheLineFirstSoThatTheyNeverMix() {
        Progress p = new Progress(both, both, true, () -> now[0], 2, 2048);
        now[0] = 1_000_000_000L;
        p.fileDone(1024);
        String line = "1/2 files, 1.0 KiB of 2.0 KiB, 1.0 KiB/s, ETA 0:00:01";
        p.out().println("a.tfrecord: 3 records");
        p.err().println("tfstream count: no such file: b.tfrecord");
        p.done();
        assertEquals(
                "\r"
                        + line
                        + "\r"
                        + " ".repeat(line.length())
                        + "\r"
                        + "a.tfrecord: 3 records\n"
                        + "tfstream count: no such file: b.tfrecord\n",
                terminal.toString());
    }

    @Test
    void quietWhenNotOnATerminal() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        PrintWriter o = new PrintWriter(out);
        PrintWriter e = new PrintWriter(err);
        Progress p = new Progress(o, e, false, () -> now[0], 2, 10);
        assertSame(o, p.out());
        assertSame(e, p.err());
        now[0] = 5_000_000_000L;
        p.read(3);
        p.fileDone(5);
        p.done();
        assertEquals("", out.toString() + err.toString());
    }

    @Test
    void aReaderOpenedThroughItReportsTheBytesAsStored() throws IOException {
        Path f = dir.resolve("r.tfrecord.gz");
        TestRecords.write(f, TestRecords.examples(200), Compression.GZIP);
        long size = Files.size(f);
        Progress p = new Progress(both, both, true, () -> now[0] += 1_000_000_000L, 1, size);
        try (TfRecordReader r = ProgressInput.openReader(f, TfRecordReadOptions.defaults(), p)) {
            while (r.next()) {
                // Reading is what moves the line.
            }
        }
        String text = terminal.toString();
        String last = text.substring(text.lastIndexOf('\r') + 1);
        String whole = Progress.size(size);
        assertTrue(last.startsWith(whole + " of " + whole + ", "), text);
    }

    @Test
    void stderrIsATerminalWhenItsDescriptorLinksToATerminalDevice() throws IOException {
        Path pts = Files.createSymbolicLink(dir.resolve("pts"), Path.of("/dev/pts/3"));
        Path tty = Files.createSymbolicLink(dir.resolve("tty"), Path.of("/dev/tty1"));
        Path file = Files.createSymbolicLink(dir.resolve("file"), dir.resolve("log.txt"));
        Path pipe = Files.createSymbolicLink(dir.resolve("pipe"), Path.of("pipe:[4711]"));
        assertTrue(StderrTerminal.isTerminal(true, pts));
        assertTrue(StderrTerminal.isTerminal(true, tty));
        assertFalse(StderrTerminal.isTerminal(true, file), "stderr redirected to a file");
        assertFalse(StderrTerminal.isTerminal(true, pipe), "stderr into a pipe");
        assertFalse(StderrTerminal.isTerminal(false, pts), "no console");
        for (Path link : new Path[] {pts, tty, file, pipe}) {
            Files.delete(link); // the link only: @TempDir warns about links leaving it
        }
    }

    @Test
    void withoutProcTheConsoleDecides() {
        Path missing = dir.resolve("no-proc");
        assertTrue(StderrTerminal.isTerminal(true, missing));
        assertFalse(StderrTerminal.isTerminal(false, missing));
    }
}
