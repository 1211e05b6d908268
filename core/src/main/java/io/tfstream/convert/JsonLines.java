package io.tfstream.convert;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a JSON Lines file ({@code .jsonl}: one JSON object per line, {@code \n} or {@code \r\n})
 * line by line as bytes; blank lines are skipped. A line longer than {@code maxLineBytes} is an
 * {@link IOException} naming the line.
 */
public final class JsonLines implements Closeable {
    private final InputStream in;
    private final int maxLineBytes;
    private byte[] line = new byte[256];
    private int length;
    private long lineNumber;

    public JsonLines(Path file, int maxLineBytes) throws IOException {
        this.in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        this.maxLineBytes = maxLineBytes;
    }

    /** Reads the next non-blank line; false at the end of the file. */
    public boolean next() throws IOException {
        while (true) {
            length = 0;
            lineNumber++;
            int b;
            boolean any = false;
            while ((b = in.read()) != -1) {
                any = true;
                if (b == '\n') {
                    break;
                }
                if (length == maxLineBytes) {
                    throw new IOException(
                            "line " + lineNumber + " is longer than " + maxLineBytes + " bytes");
                }
                if (length == line.length) {
                    line = Arrays.copyOf(line, Math.min(maxLineBytes, length * 2));
                }
                line[length++] = (byte) b;
            }
            if (length > 0 && line[length - 1] == '\r') {
                length--;
            }
            if (!any) {
                return false;
            }
            if (!blank()) {
                return true;
            }
        }
    }

    private boolean blank() {
        for (int i = 0; i < length; i++) {
            byte c = line[i];
            if (c != ' ' && c != '\t') {
                return false;
            }
        }
        return true;
    }

    /** The current line's bytes (a copy). */
    public byte[] line() {
        return Arrays.copyOf(line, length);
    }

    /** The current line's number, from 1. */
    public long lineNumber() {
        return lineNumber;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
