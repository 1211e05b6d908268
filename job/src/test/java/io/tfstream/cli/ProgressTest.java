package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The progress line: quiet when disabled, rate and ETA from a clock, cleared at the end. */
class ProgressTest {
    @Test
    void printsFilesBytesRateAndEtaAtMostTwiceASecond() {
        StringWriter text = new StringWriter();
        long[] now = {0};
        Progress p = new Progress(new PrintWriter(text), true, () -> now[0], 4, 4L << 20);
        now[0] = 100_000_000L; // 0.1 s: too soon to print
        p.fileDone(1L << 20);
        assertEquals("", text.toString());
        now[0] = 1_000_000_000L; // 1 s: 2 MiB done at 2 MiB/s, 2 MiB left
        p.fileDone(1L << 20);
        assertEquals("\r2/4 files, 2.0 MiB of 4.0 MiB, 2.0 MiB/s, ETA 0:00:01   ", text.toString());
        p.done();
        assertEquals(true, text.toString().endsWith("\r" + " ".repeat(72) + "\r"));
    }

    @Test
    void quietWhenNotOnATerminal() {
        StringWriter text = new StringWriter();
        long[] now = {0};
        Progress p = new Progress(new PrintWriter(text), false, () -> now[0], 2, 10);
        now[0] = 5_000_000_000L;
        p.fileDone(5);
        p.done();
        assertEquals("", text.toString());
    }
}
