package io.tfstream.parse.sequence;

import static io.tfstream.parse.sequence.SequenceExampleScanner.CONTEXT;

import io.tfstream.parse.FeatureEntryWalker;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.parse.sequence.SequenceParsePlan.Key;
import io.tfstream.parse.sequence.SequenceParsePlan.Kind;
import io.tfstream.parse.wire.WireCursor;
import java.util.List;

/**
 * The one-pass path of {@link SequenceExampleBatchParser}: every requested feature and every step
 * of a feature list is decoded once, as the scan finds it, into one column per key ({@link
 * SequenceColumn}), instead of storing where each key is, counting, and decoding again. It accepts
 * a batch only when nothing in it is one of TensorFlow's errors or a limit (each key at most once
 * per record, every value list read to its end, dense counts as the shape says, required keys
 * present, defaults of the shape's size); anything else returns false and the parser runs the
 * kernel's passes, which then find and report the error exactly as before. On success the values
 * are the kernel's: the same reader decodes them, once.
 */
final class SequenceOnePass implements FeatureEntryWalker.Visitor {
    private final SequenceExampleScanner scanner;
    private final ParseLimits limits;
    private final int maxBytesPerValue;
    final SequenceColumn[] context;
    final SequenceColumn[] lists;

    /** False for specs the path does not take (a dense shape of zero elements, odd defaults). */
    private final boolean eligible;

    private final WireCursor cursor = new WireCursor();
    private int record;
    private boolean failed;

    SequenceOnePass(SequenceExampleScanner scanner, SequenceParsePlan plan, ParseLimits limits) {
        this.scanner = scanner;
        this.limits = limits;
        this.maxBytesPerValue = limits.maxBytesPerValue();
        this.context = columns(plan.context);
        this.lists = columns(plan.featureLists);
        boolean ok = true;
        for (Key k : plan.context) {
            ok &=
                    k.kind != Kind.DENSE
                            || (k.elements > 0
                                    && (k.defaultValue == null
                                            || k.defaultValue.size() == k.elements));
        }
        for (Key k : plan.featureLists) {
            ok &= k.kind != Kind.DENSE || k.elements > 0;
        }
        this.eligible = ok;
    }

    private static SequenceColumn[] columns(List<Key> keys) {
        SequenceColumn[] c = new SequenceColumn[keys.size()];
        for (int i = 0; i < c.length; i++) {
            c[i] = new SequenceColumn(keys.get(i));
        }
        return c;
    }

    /** Decodes the whole batch; false when the kernel's passes must run instead. */
    boolean parse(SerializedRecords records) {
        int n = records.size();
        if (!eligible || n == 0) {
            return false; // the kernel's empty batch has its own rules (and errors)
        }
        for (SequenceColumn c : context) {
            c.start(n, false);
        }
        for (SequenceColumn c : lists) {
            c.start(n, c.key.kind == Kind.DENSE);
        }
        failed = false;
        for (int e = 0; e < n; e++) {
            int len = records.length(e);
            if (len > limits.maxRecordBytes()) {
                return false;
            }
            record = e;
            if (!scanner.walk(records.buffer(e), records.offset(e), len, this)
                    || failed
                    || scanner.totalEntries > limits.maxFeaturesPerExample()
                    || !finishRecord(e)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void entry(
            int section, int keyId, byte[] buf, int keyStart, int keyLen, int start, int end) {
        if (keyId < 0 || failed) {
            return;
        }
        SequenceColumn col = section == CONTEXT ? context[keyId] : lists[keyId];
        if (col.seenRecord == record) {
            failed = true; // a repeated key: the last entry wins, the kernel's passes apply it
            return;
        }
        col.seenRecord = record;
        boolean ok =
                section == CONTEXT ? feature(col, buf, start, end) : list(col, buf, start, end);
        failed = !ok;
    }

    /** A context feature: its values, the count the shape asks for if dense. */
    private boolean feature(SequenceColumn col, byte[] buf, int start, int end) {
        Key key = col.key;
        if (start == end) {
            if (key.kind == Kind.DENSE) {
                return false;
            }
        } else {
            int n = read(col, buf, start, end);
            if (n < 0 || n > limits.maxValuesPerFeature()) {
                return false;
            }
            if (key.kind == Kind.DENSE && n != key.elements) {
                return false;
            }
        }
        col.recordEnds[record + 1] = col.size();
        return true;
    }

    /** A feature list: each element is one step. */
    private boolean list(SequenceColumn col, byte[] buf, int start, int end) {
        Key key = col.key;
        boolean dense = key.kind == Kind.DENSE;
        int base = col.size();
        int perStep = dense ? (int) key.elements : -1;
        int decoded =
                col.kind == SequenceColumn.INT64
                        ? SequenceListDecoder.int64s(col, buf, start, end, perStep)
                        : col.kind == SequenceColumn.FLOAT32
                                ? SequenceListDecoder.floats(col, buf, start, end, perStep)
                                : SequenceListDecoder.bytes(
                                        col, buf, start, end, perStep, maxBytesPerValue);
        if (decoded >= 0) {
            col.recordEnds[record + 1] = col.recordEnds[record] + decoded;
            return col.size() - base <= limits.maxValuesPerFeature();
        }
        int steps = 0;
        int p = start;
        while (p < end) {
            if (buf[p] != 0x0a) {
                return false;
            }
            int len;
            int q;
            if (p + 1 < end && buf[p + 1] >= 0) {
                len = buf[p + 1];
                q = p + 2;
            } else {
                WireCursor c = cursor;
                c.reset(buf, p + 1, end);
                if (!c.readVarint32() || c.value > c.remaining()) {
                    return false;
                }
                len = (int) c.value;
                q = c.pos;
            }
            if (len > end - q) {
                return false;
            }
            int stepEnd = q + len;
            if (len > 2) {
                // The decoders are called from here, not through a helper method: a helper
                // compiled on its own first was left out of line by the JIT in some runs.
                int n;
                if (col.kind == SequenceColumn.INT64) {
                    n = SequenceStepDecoder.int64s(col.int64s, buf, q, stepEnd);
                } else if (col.kind == SequenceColumn.FLOAT32) {
                    n = SequenceStepDecoder.floats(col.floats, buf, q, stepEnd);
                } else {
                    n = SequenceStepDecoder.bytes(col.bytes, buf, q, stepEnd, maxBytesPerValue);
                }
                if (n == SequenceStepDecoder.DECLINED) {
                    n = read(col, buf, q, stepEnd);
                }
                if (n < 0 || (dense && n != key.elements)) {
                    return false;
                }
            } else if (dense) {
                return false; // no values where the shape asks for some
            } else if (len == 2) {
                WireCursor c = cursor;
                c.reset(buf, q, stepEnd);
                if (!SequenceValueReader.skipEmpty(c, key.dtype)) {
                    return false;
                }
            } else if (len == 1) {
                return false;
            }
            col.endStep(col.size());
            steps++;
            p = stepEnd;
        }
        if (col.size() - base > limits.maxValuesPerFeature()) {
            return false;
        }
        col.recordEnds[record + 1] = col.recordEnds[record] + steps;
        return true;
    }

    /** Reads one Feature filling {@code buf[start, end)}; -1 unless it is read to its end. */
    private int read(SequenceColumn col, byte[] buf, int start, int end) {
        WireCursor c = cursor;
        c.reset(buf, start, end);
        int n =
                SequenceValueReader.read(
                        c,
                        col.key.dtype,
                        col.int64s,
                        col.floats,
                        col.bytes,
                        limits.maxBytesPerValue());
        return n >= 0 && c.pos == end ? n : -1;
    }

    /** Keys the record did not have: defaults, empty rows, or the kernel's error (false). */
    private boolean finishRecord(int e) {
        for (SequenceColumn col : context) {
            if (col.seenRecord != e) {
                Key key = col.key;
                if (key.kind == Kind.DENSE) {
                    if (key.defaultValue == null) {
                        return false;
                    }
                    appendDefault(col, key);
                }
                col.recordEnds[e + 1] = col.size();
            }
        }
        for (SequenceColumn col : lists) {
            if (col.seenRecord != e) {
                if (col.key.kind == Kind.DENSE && !col.key.allowMissing) {
                    return false;
                }
                col.recordEnds[e + 1] = col.recordEnds[e];
            }
        }
        return true;
    }

    private static void appendDefault(SequenceColumn col, Key key) {
        for (int i = 0; i < key.defaultValue.size(); i++) {
            switch (key.dtype) {
                case INT64:
                    col.int64s.add(key.defaultValue.int64(i));
                    break;
                case FLOAT32:
                    col.floats.add(key.defaultValue.float32(i));
                    break;
                default:
                    byte[] b = key.defaultValue.bytesAt(i);
                    col.bytes.add(b, 0, b.length);
            }
        }
    }
}
