package io.tfstream.parse.sequence;

import static io.tfstream.parse.sequence.SequenceExampleScanner.LISTS;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseErrorKind;
import io.tfstream.parse.sequence.SequenceParsePlan.Key;
import io.tfstream.parse.wire.WireCursor;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import java.util.List;

/**
 * Builds the feature-list outputs of {@code ParseSequenceExampleV2} once the counting pass has run,
 * as {@code ParseSequenceDenseFeatures}, {@code ParseSequenceSparseFeatures} and {@code
 * ParseSequenceRaggedFeatures} in TensorFlow's {@code example_proto_fast_parsing.cc} do: every
 * FeatureList element is one step, dense lists are padded with 0 or the empty string, and the error
 * texts are TensorFlow's.
 */
final class SequenceListAssembler {
    private SequenceListAssembler() {}

    /** A FixedLenSequenceFeature: values {@code [B, T_max] + shape} and lengths {@code [B]}. */
    static DenseTensor[] dense(SequenceBatchState in, int k, Key key, long maxElements)
            throws ExampleParseException {
        long r = key.elements;
        if (maxElements % r != 0) {
            throw SequenceBatchState.error(
                    ParseErrorKind.SHAPE_MISMATCH,
                    -1,
                    key.name,
                    "Feature list '"
                            + key.name
                            + "' has an unexpected number of values.  Total values size: "
                            + maxElements
                            + " is not consistent with output shape: "
                            + shapeString("?", key.shape));
        }
        int b = in.records;
        ValueSink sink =
                new ValueSink(key.dtype, SequenceBatchState.checkedSize(b * maxElements, key.name));
        long[] lengths = new long[b];
        for (int e = 0; e < b; e++) {
            long elements = 0;
            long rows = 0;
            if (!in.scanner.present(LISTS, k, e)) {
                if (!key.allowMissing) {
                    throw SequenceBatchState.error(
                            ParseErrorKind.REQUIRED_MISSING,
                            e,
                            key.name,
                            "Name: "
                                    + in.name(e)
                                    + ", Feature list '"
                                    + key.name
                                    + "' is required but could not be found.  Did you mean to"
                                    + " include it in feature_list_dense_missing_assumed_empty or"
                                    + " feature_list_dense_defaults?");
                }
            } else if (in.hasBytes(LISTS, k, e)) {
                WireCursor c = in.open(LISTS, k, e);
                while (!c.atEnd()) {
                    long length = step(c, key, in, e);
                    int outer = c.pushLimit(length);
                    int added = 0;
                    if (length > 2) {
                        added = in.read(key.dtype, sink);
                        if (added < 0) {
                            throw stepError(key, in, e);
                        }
                    }
                    if (added != r) {
                        throw SequenceBatchState.error(
                                ParseErrorKind.SHAPE_MISMATCH,
                                e,
                                key.name,
                                "Name: "
                                        + in.name(e)
                                        + ", Key: "
                                        + key.name
                                        + ", Index: "
                                        + rows
                                        + ".  Number of values != expected.  values size: "
                                        + added
                                        + " but output shape: "
                                        + shapeString(null, key.shape));
                    }
                    elements += added;
                    rows++;
                    c.popLimit(outer);
                }
            }
            lengths[e] = rows;
            sink.pad(maxElements - elements);
        }
        long[] shape = new long[key.shape.length + (in.batch ? 2 : 1)];
        int d = 0;
        if (in.batch) {
            shape[d++] = b;
        }
        shape[d++] = maxElements / r;
        for (long s : key.shape) {
            shape[d++] = s;
        }
        Column lengthColumn = Column.ofInt64(lengths, b);
        DenseTensor lengthTensor =
                in.batch
                        ? new DenseTensor(new long[] {b}, lengthColumn)
                        : new DenseTensor(new long[0], lengthColumn);
        return new DenseTensor[] {new DenseTensor(shape, sink.column()), lengthTensor};
    }

    /**
     * A VarLenFeature: indices {@code [N, 3]} = (example, step, value), shape {@code [B, T, V]}.
     */
    static SparseTensor sparse(SequenceBatchState in, int k, Key key, long total)
            throws ExampleParseException {
        int n = SequenceBatchState.checkedSize(total, key.name);
        int rank = in.batch ? 3 : 2;
        ValueSink sink = new ValueSink(key.dtype, n);
        long[] indices = new long[SequenceBatchState.checkedSize((long) n * rank, key.name)];
        int at = 0;
        long maxRows = 0;
        long maxCols = 0;
        for (int e = 0; e < in.records; e++) {
            if (!in.hasBytes(LISTS, k, e)) {
                continue;
            }
            WireCursor c = in.open(LISTS, k, e);
            long rows = 0;
            while (!c.atEnd()) {
                long length = step(c, key, in, e);
                if (length > 2) {
                    int outer = c.pushLimit(length);
                    int added = in.read(key.dtype, sink);
                    if (added < 0 || sink.size() > n) {
                        // Upstream would write past its buffers here (a bytes value that was
                        // counted but cannot be read); report the inconsistency instead.
                        throw unexpected("Unexpected number of elements in feature ", key, e);
                    }
                    maxCols = Math.max(maxCols, added);
                    for (int i = 0; i < added; i++) {
                        if (in.batch) {
                            indices[at++] = e;
                        }
                        indices[at++] = rows;
                        indices[at++] = i;
                    }
                    c.popLimit(outer);
                } else {
                    emptyStep(c, length, key, in, e);
                }
                rows++;
            }
            maxRows = Math.max(maxRows, rows);
        }
        if (sink.size() != n) {
            throw unexpected("Unexpected number of elements in feature ", key, -1);
        }
        long[] shape =
                in.batch
                        ? new long[] {in.records, maxRows, maxCols}
                        : new long[] {maxRows, maxCols};
        return new SparseTensor(indices, sink.column(), shape);
    }

    /**
     * A RaggedFeature without partitions: values, inner splits (one row per step) and outer splits
     * (steps per example) as {@code [B, (T), (V)]}; a single record gives {@code [T, (V)]}.
     */
    static RaggedTensor ragged(SequenceBatchState in, int k, Key key, long total, long totalRows)
            throws ExampleParseException {
        int n = SequenceBatchState.checkedSize(total, key.name);
        int rowCount = SequenceBatchState.checkedSize(totalRows, key.name);
        ValueSink sink = new ValueSink(key.dtype, n);
        long[] inner = new long[rowCount + 1];
        long[] outer = new long[in.records + 1];
        int row = 0;
        boolean broken = false;
        for (int e = 0; e < in.records; e++) {
            if (in.hasBytes(LISTS, k, e)) {
                WireCursor c = in.open(LISTS, k, e);
                while (!c.atEnd()) {
                    long length = step(c, key, in, e);
                    if (length > 2) {
                        int saved = c.pushLimit(length);
                        broken |= in.read(key.dtype, sink) < 0;
                        c.popLimit(saved);
                    } else {
                        emptyStep(c, length, key, in, e);
                    }
                    if (row == rowCount) {
                        throw unexpected("Unexpected number of rows for feature ", key, e);
                    }
                    inner[++row] = sink.size();
                }
            }
            outer[e + 1] = row;
        }
        if (row != rowCount) {
            throw unexpected("Unexpected number of rows for feature ", key, -1);
        }
        if (broken || sink.size() != n) {
            throw unexpected("Unexpected number of elements for feature ", key, -1);
        }
        List<long[]> splits = in.batch ? List.of(outer, inner) : List.of(inner);
        return RaggedTensor.ofOwned(sink.column(), new long[] {n}, splits, key.splitsDtype);
    }

    /** Reads the tag and length of the next FeatureList element. */
    static long step(WireCursor c, Key key, SequenceBatchState in, int e)
            throws ExampleParseException {
        if (!c.expectTag(0x0a) || !c.readVarint32()) {
            throw stepError(key, in, e);
        }
        return c.value;
    }

    private static void emptyStep(WireCursor c, long length, Key key, SequenceBatchState in, int e)
            throws ExampleParseException {
        if ((length == 2 && !SequenceValueReader.skipEmpty(c, key.dtype)) || length == 1) {
            throw stepError(key, in, e);
        }
    }

    static ExampleParseException stepError(Key key, SequenceBatchState in, int e) {
        return SequenceBatchState.error(
                ParseErrorKind.MALFORMED,
                e,
                key.name,
                "Error in sequence feature " + key.name + " in example " + in.name(e));
    }

    private static ExampleParseException unexpected(String text, Key key, int record) {
        return SequenceBatchState.error(
                ParseErrorKind.MALFORMED, record, key.name, text + key.name);
    }

    /** TensorFlow's {@code TensorShape::DebugString}, optionally with a leading unknown dim. */
    static String shapeString(String first, long[] shape) {
        StringBuilder sb = new StringBuilder("[");
        if (first != null) {
            sb.append(first);
        }
        for (long d : shape) {
            sb.append(sb.length() > 1 ? "," : "").append(d);
        }
        return sb.append(']').toString();
    }
}
