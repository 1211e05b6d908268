package io.tfstream.parse.sequence;

import io.tfstream.parse.FeatureEntryWalker;
import io.tfstream.parse.wire.KeyTable;
import io.tfstream.parse.wire.WireCursor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds, for every requested context key and feature-list key of every record of a batch, the bytes
 * of the last map entry with that key, as TensorFlow's {@code ExtractFeaturesFromSequenceExamples}
 * does: fields 1 (context) and 2 (feature_lists) may repeat or come from concatenated messages,
 * other top-level fields are skipped, a map entry must be exactly key (tag 1) then value (tag 2),
 * and the last entry wins even when it is empty. Arrays are kept from batch to batch.
 */
public final class SequenceExampleScanner {
    public static final int CONTEXT = 0;
    public static final int LISTS = 1;

    private final KeyTable[] tables = new KeyTable[2];
    private final int[] keyCount = new int[2];
    private final WireCursor c = new WireCursor();

    private int records;
    private byte[][] buffers = new byte[16][];
    private int[][] start = new int[2][];
    private int[][] end = new int[2][];
    private boolean[][] present = new boolean[2][];

    /** Map entries (requested or not) of the record scanned last. */
    public int totalEntries;

    private FeatureEntryWalker.Visitor visitor;

    public SequenceExampleScanner(List<String> contextKeys, List<String> listKeys) {
        tables[CONTEXT] = new KeyTable(new ArrayList<>(contextKeys));
        tables[LISTS] = new KeyTable(new ArrayList<>(listKeys));
        keyCount[CONTEXT] = contextKeys.size();
        keyCount[LISTS] = listKeys.size();
        for (int s = 0; s < 2; s++) {
            start[s] = new int[0];
            end[s] = new int[0];
            present[s] = new boolean[0];
        }
    }

    /** Prepares for a batch of {@code n} records: nothing found yet. */
    void reset(int n) {
        records = n;
        if (buffers.length < n) {
            buffers = new byte[n][];
        }
        for (int s = 0; s < 2; s++) {
            int size = keyCount[s] * n;
            if (start[s].length < size) {
                start[s] = new int[size];
                end[s] = new int[size];
                present[s] = new boolean[size];
            } else {
                Arrays.fill(present[s], 0, size, false);
            }
        }
    }

    byte[] buffer(int record) {
        return buffers[record];
    }

    boolean present(int section, int key, int record) {
        return present[section][key * records + record];
    }

    int start(int section, int key, int record) {
        return start[section][key * records + record];
    }

    int end(int section, int key, int record) {
        return end[section][key * records + record];
    }

    /**
     * Scans one record and hands every map entry to {@code v} in wire order instead of storing the
     * requested ones (a repeated key is seen as often as it occurs: the caller keeps the last);
     * false when TensorFlow reports an invalid protocol message.
     */
    public boolean walk(byte[] buf, int off, int len, FeatureEntryWalker.Visitor v) {
        visitor = v;
        try {
            return scan(0, buf, off, len);
        } finally {
            visitor = null;
        }
    }

    /** Scans record {@code index}; false when TensorFlow reports an invalid protocol message. */
    boolean scan(int index, byte[] buf, int off, int len) {
        buffers[index] = buf;
        totalEntries = 0;
        WireCursor c = this.c;
        c.reset(buf, off, off + len);
        while (!c.atEnd()) {
            int section;
            if (c.expectTag(0x0a)) {
                section = CONTEXT;
            } else if (c.expectTag(0x12)) {
                section = LISTS;
            } else if (c.skipExtraneousTag()) {
                continue;
            } else {
                return false;
            }
            if (!c.readVarint32()) {
                return false;
            }
            int outer = c.pushLimit(c.value);
            while (!c.atEnd()) {
                if (!entry(c, section, index)) {
                    return false;
                }
            }
            c.popLimit(outer);
        }
        return true;
    }

    private boolean entry(WireCursor c, int section, int index) {
        if (!c.expectTag(0x0a) || !c.readVarint32()) {
            return false;
        }
        int outer = c.pushLimit(c.value);
        if (!c.expectTag(0x0a) || !string(c)) {
            return false;
        }
        int keyLen = (int) c.value;
        int keyStart = c.pos - keyLen;
        if (!c.expectTag(0x12) || !string(c)) {
            return false;
        }
        int valueLen = (int) c.value;
        int valueStart = c.pos - valueLen;
        if (!c.atEnd()) {
            return false;
        }
        c.popLimit(outer);
        totalEntries++;
        int id = tables[section].findAt(totalEntries - 1, c.buf, keyStart, keyLen);
        if (visitor != null) {
            visitor.entry(section, id, c.buf, keyStart, keyLen, valueStart, valueStart + valueLen);
        } else if (id >= 0) {
            int at = id * records + index;
            start[section][at] = valueStart;
            end[section][at] = valueStart + valueLen;
            present[section][at] = true;
        }
        return true;
    }

    /** {@code ParseString}: a length-delimited string inside the current limit. */
    private static boolean string(WireCursor c) {
        if (!c.readVarint32()) {
            return false;
        }
        long len = c.value;
        if (len > c.remaining()) {
            return false;
        }
        c.pos += (int) len;
        return true;
    }
}
