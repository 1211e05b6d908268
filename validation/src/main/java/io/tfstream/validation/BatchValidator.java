package io.tfstream.validation;

import io.tfstream.parse.SerializedRecords;
import io.tfstream.parse.example.RawColumns;
import io.tfstream.parse.wire.FeatureValues;
import io.tfstream.spec.DType;
import io.tfstream.stats.ByteKeyTable;
import io.tfstream.stats.FeatureAccumulator;
import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Float32Buffer;
import io.tfstream.tensor.Int64Buffer;
import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * Tiers R and W over a batch the parser has just parsed, from its columns ({@link RawColumns})
 * instead of the records' bytes: the job's records are decoded once. Gives exactly what {@link
 * RecordValidator} and {@link WindowAccumulator#add} give record by record — the same findings for
 * every record and the same window state, byte for byte — at a fraction of the cost:
 *
 * <ul>
 *   <li>the window statistics of every regular row come from the columns, rule by rule over runs of
 *       consecutive rows of one window;
 *   <li>each rule has a sound test of "no finding possible" (value count inside the schema's
 *       bounds, values inside the domain, no NaN where disallowed, …) decided from the values the
 *       statistics read anyway; only a row that fails some test is validated from its bytes by a
 *       {@link RecordValidator}, which gives its exact findings (TFDV's texts, samples);
 *   <li>a row the parser's one-pass path did not read alone (repeated keys and the like), or that
 *       holds keys the spec does not request while the schema has features the spec lacks, is
 *       validated and accumulated from its bytes entirely.
 * </ul>
 *
 * <p>Without columns (SequenceExamples, a batch the parser had to split) every row takes the record
 * path. Not thread-safe: one per task.
 */
public final class BatchValidator {
    /** Where each row goes and what happens to it. */
    public interface Rows {
        /**
         * The accumulator of the row's window, or null when the row is in none (no event time, or
         * its window is closed); consecutive rows of one window return the same instance.
         */
        WindowAccumulator window(int row);

        /** Sets {@code ref} to the row's source reference (an alert's example reference). */
        void ref(int row, RecordRef ref);

        /** Row {@code row} has findings ({@code result}, valid during the call). */
        void anomalous(int row, RecordResult result);

        /**
         * The data split of the row ({@link ValidationOptions#statisticsSplits()}, asked only when
         * window statistics are kept per data split); -1: in no data split's statistics.
         */
        default int dataSplit(int row) {
            return 0;
        }
    }

    private final ValidationSchema schema;
    private final RecordValidator validator;
    private final RecordResult result = new RecordResult();
    private final RecordRef ref = new RecordRef();
    private final FeatureRule[] rules;
    private final boolean sequence;
    private final boolean tfdvPresence;
    private final byte[] decimal = new byte[24];

    /** Columns of the last batch seen, and per rule its column there (-1: not requested). */
    private RawColumns mappedFor;

    private int mappedRows = -1;
    private int[] columnOf;

    /** Some rule has no column: rows with unrequested keys are read from their bytes. */
    private boolean unmapped;

    /** Per rule: "a present row may have a finding whatever its values" (type, environment...). */
    private boolean[] anyPresentFlags;

    /** Per rule: value counts outside {@code [cleanMin, cleanMax]} may have a finding. */
    private final long[] cleanMin;

    private final long[] cleanMax;
    private boolean[] flags = new boolean[0];

    /** With statistics per data split: the data split of each row of the batch (else null). */
    private int[] rowSplit;

    /** The TFDV statistics the value loops feed (null: none, or fed row by row). */
    private FeatureAccumulator runTfdv;

    /** With weighted statistics: the weight of each row of the batch (else null). */
    private double[] rowWeight;

    private final boolean perSplit;

    /** Statistics fed row by row: per data split, or weighted. */
    private final boolean perRow;

    private long fromColumns;
    private long fromBytes;

    public BatchValidator(ValidationSchema schema, boolean sequence) {
        this.schema = schema;
        this.validator = new RecordValidator(schema);
        this.rules = schema.rules();
        this.sequence = sequence;
        this.tfdvPresence = schema.options().tfdvRecordPresence();
        this.perSplit =
                schema.options().statistics() != null && schema.options().statisticsDatasets() > 1;
        this.perRow = perSplit || schema.weightRule() >= 0;
        this.cleanMin = new long[rules.length];
        this.cleanMax = new long[rules.length];
        for (FeatureRule r : rules) {
            countBounds(r);
        }
    }

    public ValidationSchema schema() {
        return schema;
    }

    /** Rows whose statistics came from the columns so far (metrics, tests). */
    public long rowsFromColumns() {
        return fromColumns;
    }

    /** Rows read again from their bytes so far: flagged, irregular or without columns. */
    public long rowsFromBytes() {
        return fromBytes;
    }

    /**
     * Validates the {@code n} rows of a parsed batch: row {@code row} is record {@code
     * recordOfRow.applyAsInt(row)} of {@code records}; {@code columns} are the parser's columns of
     * that batch (null when there are none).
     */
    public void validate(
            RawColumns columns,
            SerializedRecords records,
            IntUnaryOperator recordOfRow,
            int n,
            Rows rows) {
        if (sequence || columns == null || columns.rows() != n) {
            for (int row = 0; row < n; row++) {
                fromBytes(row, records, recordOfRow.applyAsInt(row), rows, true);
            }
            return;
        }
        map(columns);
        if (flags.length < n) {
            flags = new boolean[n];
        }
        if (perRow) {
            if (rowSplit == null || rowSplit.length < n) {
                rowSplit = new int[Math.max(n, 64)];
                rowWeight = new double[rowSplit.length];
            }
            for (int row = 0; row < n; row++) {
                rowSplit[row] = perSplit ? rows.dataSplit(row) : 0;
                rowWeight[row] = weightOf(columns, row);
            }
        }
        int row = 0;
        while (row < n) {
            if (columns.irregular(row) || (unmapped && columns.unrequested(row))) {
                fromBytes(row, records, recordOfRow.applyAsInt(row), rows, true);
                row++;
                continue;
            }
            WindowAccumulator window = rows.window(row);
            int end = row + 1;
            while (end < n
                    && !columns.irregular(end)
                    && !(unmapped && columns.unrequested(end))
                    && rows.window(end) == window) {
                end++;
            }
            run(columns, row, end, window);
            for (int r = row; r < end; r++) {
                if (flags[r]) {
                    fromBytes(r, records, recordOfRow.applyAsInt(r), rows, false);
                }
            }
            row = end;
        }
    }

    /**
     * Validates one row from its record's bytes; with {@code stats} its window also gets its
     * statistics (else only its findings: the statistics came from the columns).
     */
    private void fromBytes(
            int row, SerializedRecords records, int index, Rows rows, boolean stats) {
        fromBytes++;
        byte[] buf = records.buffer(index);
        if (sequence) {
            validator.validateSequenceExample(
                    buf, records.offset(index), records.length(index), result);
        } else {
            validator.validateExample(buf, records.offset(index), records.length(index), result);
        }
        WindowAccumulator w = rows.window(row);
        if (w != null) {
            rows.ref(row, ref);
            if (stats) {
                w.add(validator, result, ref, perSplit ? rows.dataSplit(row) : 0);
            } else {
                w.addFindings(result, ref);
            }
        }
        if (result.count() > 0 || result.status() != RecordResult.Status.OK) {
            rows.anomalous(row, result);
        }
    }

    /** Statistics of rows {@code [from, to)} into {@code window} (may be null) and their flags. */
    private void run(RawColumns c, int from, int to, WindowAccumulator window) {
        Arrays.fill(flags, from, to, false);
        fromColumns += to - from;
        if (window != null) {
            window.numExamples += to - from;
            for (int row = from; perRow && row < to; row++) {
                if (rowSplit[row] >= 0) {
                    if (window.examplesBySplit != null) {
                        window.examplesBySplit[rowSplit[row]]++;
                    }
                    if (window.weightBySplit != null) {
                        window.weightBySplit[rowSplit[row]] += rowWeight[row];
                    }
                }
            }
        }
        for (FeatureRule r : rules) {
            if (r == schema.sequenceStruct()) {
                continue;
            }
            int col = columnOf[r.index];
            if (col < 0) {
                // Not requested: no row of the run has it (those that do are read from bytes).
                if (!r.skipped && r.requiredPerRecord(tfdvPresence)) {
                    Arrays.fill(flags, from, to, true);
                }
                continue;
            }
            if (r.skipped) {
                continue;
            }
            rule(c, col, r, from, to, window == null ? null : window.stats[r.index]);
        }
        for (SparseRule s : schema.composites()) {
            if (!s.skipped()) {
                composite(c, s, from, to);
            }
        }
        for (int row = from; row < to; row++) {
            if (c.unrequested(row)) {
                flags[row] = true; // SCHEMA_NEW_COLUMN
            }
        }
    }

    private void rule(RawColumns c, int col, FeatureRule r, int from, int to, FeatureStats st) {
        byte[] state = c.states(col);
        boolean fixed = c.fixed(col);
        int stride = fixed ? c.stride(col) : 0;
        int[] ends = fixed ? null : c.ends(col);
        boolean flagAbsent = r.requiredPerRecord(tfdvPresence);
        boolean flagPresent = anyPresentFlags[r.index];
        long lo = cleanMin[r.index];
        long hi = cleanMax[r.index];
        boolean[] flags = this.flags;
        long present = 0;
        long minN = Long.MAX_VALUE;
        long maxN = Long.MIN_VALUE;
        long tot = 0;
        // one dataset: fed over the run's values; per data split: row by row below
        FeatureAccumulator tfdv = st == null || st.tfdv == null || perRow ? null : st.tfdv[0];
        runTfdv = tfdv;
        int dkind = kind(c.dtype(col));
        // Presence and value counts.
        if (fixed) {
            boolean countBad = flagPresent || stride < lo || stride > hi;
            for (int row = from; row < to; row++) {
                if (state[row] != RawColumns.PRESENT) {
                    if (flagAbsent) {
                        flags[row] = true;
                    }
                    continue;
                }
                present++;
                if (countBad) {
                    flags[row] = true;
                }
            }
            if (present > 0) {
                minN = stride;
                maxN = stride;
                tot = present * stride;
                if (tfdv != null) {
                    tfdv.presentRows(dkind, stride, present);
                }
            }
        } else {
            for (int row = from; row < to; row++) {
                if (state[row] != RawColumns.PRESENT) {
                    if (flagAbsent) {
                        flags[row] = true;
                    }
                    continue;
                }
                long n = ends[row + 1] - ends[row];
                present++;
                if (tfdv != null) {
                    tfdv.present(dkind, n, 1);
                }
                minN = Math.min(minN, n);
                maxN = Math.max(maxN, n);
                tot += n;
                if (flagPresent || n < lo || n > hi) {
                    flags[row] = true;
                }
            }
        }
        if (present == 0) {
            return;
        }
        // Values: one pass over the run's values when they are contiguous (a variable-length
        // column, whose absent rows hold none, or a fixed one without defaults in the run).
        DType dtype = c.dtype(col);
        NumericRun num = numeric;
        num.reset();
        boolean contiguous = !fixed || present == to - from;
        if (contiguous && dtype != DType.STRING) {
            int vFrom = fixed ? from * stride : ends[from];
            int vTo = fixed ? to * stride : ends[to];
            boolean suspicious =
                    dtype == DType.INT64
                            ? int64s(r, c.int64s(col), vFrom, vTo, st, num)
                            : floats(r, c.floats(col), vFrom, vTo, st, num);
            if (suspicious) {
                // Which rows: the same checks row by row, statistics already taken.
                rowByRow(c, col, r, from, to, state, null, rescanRun);
            }
        } else {
            rowByRow(c, col, r, from, to, state, st, num);
        }
        if (st == null) {
            return;
        }
        if (perRow && st.tfdv != null) {
            tfdvByRow(c, col, from, to, state, st.tfdv, dkind);
        }
        st.present += present;
        st.minValues = Math.min(st.minValues, minN);
        st.maxValues = Math.max(st.maxValues, maxN);
        st.totValues += tot;
        st.kinds[kind(dtype)] += present;
        if (num.any) {
            st.numMin = Math.min(st.numMin, num.min);
            st.numMax = Math.max(st.numMax, num.max);
        }
    }

    /**
     * The value checks (and, with {@code st}, the statistics into it and {@code num}) of each
     * present row of {@code [from, to)}, flagging the rows a domain check may object to.
     */
    private void rowByRow(
            RawColumns c,
            int col,
            FeatureRule r,
            int from,
            int to,
            byte[] state,
            FeatureStats st,
            NumericRun num) {
        DType dtype = c.dtype(col);
        for (int row = from; row < to; row++) {
            if (state[row] != RawColumns.PRESENT) {
                continue;
            }
            int vFrom = c.from(col, row);
            int vTo = c.to(col, row);
            boolean bad;
            switch (dtype) {
                case INT64:
                    bad = int64s(r, c.int64s(col), vFrom, vTo, st, num);
                    break;
                case FLOAT32:
                    bad = floats(r, c.floats(col), vFrom, vTo, st, num);
                    break;
                default:
                    bad = bytes(r, c.bytes(col), vFrom, vTo, st);
            }
            if (bad) {
                flags[row] = true;
            }
        }
    }

    /**
     * The weight of a row: its weight feature's one number (0 when it holds none or several, 1
     * without weighted statistics), as {@link WindowAccumulator} takes it from a record.
     */
    private double weightOf(RawColumns c, int row) {
        int w = schema.weightRule();
        if (w < 0) {
            return 1;
        }
        int col = columnOf[w];
        if (col < 0 || c.states(col)[row] != RawColumns.PRESENT) {
            return 0;
        }
        int from = c.from(col, row);
        if (c.to(col, row) - from != 1) {
            return 0;
        }
        return switch (c.dtype(col)) {
            case INT64 -> c.int64s(col).array()[from];
            case FLOAT32 -> c.floats(col).array()[from];
            default -> 0;
        };
    }

    /**
     * TFDV's statistics of each present row of {@code [from, to)} into its data split's
     * accumulator: presence and value count, then its values when of the accumulator's kind.
     */
    private void tfdvByRow(
            RawColumns c,
            int col,
            int from,
            int to,
            byte[] state,
            FeatureAccumulator[] bySplit,
            int dkind) {
        DType dtype = c.dtype(col);
        for (int row = from; row < to; row++) {
            if (state[row] != RawColumns.PRESENT || rowSplit[row] < 0) {
                continue;
            }
            FeatureAccumulator a = bySplit[rowSplit[row]];
            int vFrom = c.from(col, row);
            int vTo = c.to(col, row);
            if (!a.present(dkind, vTo - vFrom, rowWeight[row]) || a.kind() != dkind) {
                continue; // values of another kind than the split's first: presence only
            }
            switch (dtype) {
                case INT64 -> {
                    long[] v = c.int64s(col).array();
                    for (int k = vFrom; k < vTo; k++) {
                        a.number(v[k]);
                    }
                }
                case FLOAT32 -> {
                    float[] v = c.floats(col).array();
                    for (int k = vFrom; k < vTo; k++) {
                        a.number(v[k]);
                    }
                }
                default -> {
                    BytesBuffer b = c.bytes(col);
                    int[] offs = b.offsets();
                    for (int k = vFrom; k < vTo; k++) {
                        a.string(b.data(), offs[k], offs[k + 1] - offs[k]);
                    }
                }
            }
        }
    }

    /** The extremes a re-scan computes again and throws away. */
    private final NumericRun rescanRun = new NumericRun();

    private final NumericRun numeric = new NumericRun();

    /** The extremes of a run's non-NaN numeric values. */
    private static final class NumericRun {
        boolean any;
        double min;
        double max;

        void reset() {
            any = false;
            min = Double.POSITIVE_INFINITY;
            max = Double.NEGATIVE_INFINITY;
        }
    }

    /** Int64 values of one row: statistics, and whether a domain check may find something. */
    private boolean int64s(
            FeatureRule r, Int64Buffer b, int from, int to, FeatureStats st, NumericRun num) {
        if (from == to) {
            return false;
        }
        long[] v = b.array();
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int k = from; k < to; k++) {
            long x = v[k];
            min = Math.min(min, x);
            max = Math.max(max, x);
        }
        num.any = true;
        num.min = Math.min(num.min, (double) min);
        num.max = Math.max(num.max, (double) max);
        if (st != null && runTfdv != null && runTfdv.kind() == FeatureValues.KIND_INT64) {
            for (int k = from; k < to; k++) {
                runTfdv.number(v[k]);
            }
        }
        if (st != null && (st.histogram != null || st.values != null)) {
            for (int k = from; k < to; k++) {
                if (st.histogram != null) {
                    st.histogram.add(v[k]);
                }
                if (st.values != null) {
                    int len = FeatureStats.decimal(v[k], decimal);
                    st.values.add(decimal, decimal.length - len, len, 1);
                }
            }
        }
        switch (r.domainKind) {
            case INT:
                return (r.hasIntMin && min < r.intMin) || (r.hasIntMax && max > r.intMax);
            case BOOL:
                return min < 0 || max > 1;
            default:
                return false;
        }
    }

    /** Float values of one row: statistics, and whether a domain check may find something. */
    private boolean floats(
            FeatureRule r, Float32Buffer b, int from, int to, FeatureStats st, NumericRun num) {
        if (from == to) {
            return false;
        }
        float[] v = b.array();
        float min = Float.POSITIVE_INFINITY;
        float max = Float.NEGATIVE_INFINITY;
        boolean nan = false;
        for (int k = from; k < to; k++) {
            float x = v[k];
            if (x != x) {
                nan = true;
            } else {
                min = Math.min(min, x);
                max = Math.max(max, x);
            }
        }
        if (min <= max) {
            num.any = true;
            num.min = Math.min(num.min, min);
            num.max = Math.max(num.max, max);
        }
        if (st != null && runTfdv != null && runTfdv.kind() == FeatureValues.KIND_FLOAT) {
            for (int k = from; k < to; k++) {
                runTfdv.number(v[k]);
            }
        }
        if (st != null && st.histogram != null) {
            for (int k = from; k < to; k++) {
                st.histogram.add(v[k]);
            }
        }
        switch (r.domainKind) {
            case FLOAT:
                return (nan && r.disallowNan)
                        || (r.hasFloatMin && min < r.floatMin)
                        || (r.hasFloatMax && max > r.floatMax)
                        || (r.disallowInf
                                && (min == Float.NEGATIVE_INFINITY
                                        || max == Float.POSITIVE_INFINITY));
            case BOOL:
                return nan
                        || (min <= max && (min != 0 && min != 1 || max != 0 && max != 1))
                        || (min < 1 && max > 0 && hasBetween(v, from, to));
            default:
                return false;
        }
    }

    private static boolean hasBetween(float[] v, int from, int to) {
        for (int k = from; k < to; k++) {
            if (v[k] > 0 && v[k] < 1) {
                return true;
            }
        }
        return false;
    }

    /** Bytes values of one row: statistics, and whether a domain check may find something. */
    private boolean bytes(FeatureRule r, BytesBuffer b, int from, int to, FeatureStats st) {
        if (from == to) {
            return false;
        }
        byte[] data = b.data();
        int[] offs = b.offsets();
        boolean bad = false;
        ByteKeyTable domain = r.stringDomain;
        boolean check = r.domainKind == FeatureRule.DomainKind.STRING;
        FeatureAccumulator tfdv =
                st != null && runTfdv != null && runTfdv.kind() == FeatureValues.KIND_BYTES
                        ? runTfdv
                        : null;
        for (int k = from; k < to; k++) {
            int off = offs[k];
            int len = offs[k + 1] - off;
            if (tfdv != null) {
                tfdv.string(data, off, len);
            }
            if (st != null && st.values != null) {
                st.values.add(data, off, len, 1);
            }
            if (domain != null) {
                if (domain.find(data, off, len) >= 0) {
                    if (st != null) {
                        st.inDomain++;
                    }
                } else {
                    if (st != null) {
                        st.outDomain++;
                        st.offDomain.add(data, off, len, 1);
                    }
                    // Out of the domain: an anomaly per record, or invalid UTF-8 (domain values
                    // are valid UTF-8, so only values outside it can be invalid).
                    if (check
                            && (r.maxOffDomain <= 0 || !WireText.validUtf8(data, off, off + len))) {
                        bad = true;
                    }
                }
            }
        }
        if (r.domainKind == FeatureRule.DomainKind.STRING && domain == null) {
            bad = true;
        }
        return bad;
    }

    /** Rows whose sparse or weighted components disagree (or are partly missing) are flagged. */
    private void composite(RawColumns c, SparseRule s, int from, int to) {
        int valueCol = s.valueRule() >= 0 ? columnOf[s.valueRule()] : -1;
        int[] idx = s.indices();
        for (int row = from; row < to; row++) {
            if (flags[row]) {
                continue;
            }
            long valueLength = count(c, valueCol, row);
            boolean any = valueLength >= 0;
            boolean all = valueLength >= 0;
            for (int k = 0; k < idx.length; k++) {
                long n = count(c, idx[k] >= 0 ? columnOf[idx[k]] : -1, row);
                any |= n >= 0;
                all &= n >= 0 && n == valueLength;
            }
            if (any && !all) {
                flags[row] = true;
            }
        }
    }

    /** Values of column {@code col} in {@code row}, -1 when the row does not have it. */
    private static long count(RawColumns c, int col, int row) {
        if (col < 0 || c.state(col, row) != RawColumns.PRESENT) {
            return -1;
        }
        return c.to(col, row) - c.from(col, row);
    }

    /** Maps rules to the columns of {@code c} (the parser's keys do not change between batches). */
    private void map(RawColumns c) {
        if (c == mappedFor) {
            return;
        }
        mappedFor = c;
        columnOf = new int[rules.length];
        anyPresentFlags = new boolean[rules.length];
        unmapped = false;
        for (FeatureRule r : rules) {
            int col = -1;
            if (r != schema.sequenceStruct()
                    && r.nestLevel == 1
                    && r.index < schema.contextCount()) {
                col = c.column(r.name());
            }
            columnOf[r.index] = col;
            if (col < 0) {
                unmapped |= r != schema.sequenceStruct();
                continue;
            }
            int kind = kind(c.dtype(col));
            anyPresentFlags[r.index] =
                    !r.inEnvironment
                            || kind != ShapeChecks.expectedKind(r.type)
                            || cleanMin[r.index] > cleanMax[r.index]
                            || conservativeDomain(r, kind);
        }
    }

    /** Domain checks this class does not decide for data of {@code kind}: every row is checked. */
    private static boolean conservativeDomain(FeatureRule r, int kind) {
        switch (r.domainKind) {
            case INT:
            case FLOAT:
                // Numbers written as strings are parsed by the record path.
                return kind == FeatureValues.KIND_BYTES;
            case BOOL:
                return kind == FeatureValues.KIND_BYTES;
            default:
                return false;
        }
    }

    /** The value counts no {@code value_count}, {@code value_counts} or shape check objects to. */
    private void countBounds(FeatureRule r) {
        long lo = 0;
        long hi = Long.MAX_VALUE;
        var p = r.proto;
        if (r.nestLevel == 1) {
            if (p.hasValueCount()) {
                if (p.getValueCount().hasMin()) {
                    lo = Math.max(lo, p.getValueCount().getMin());
                }
                if (p.getValueCount().hasMax()) {
                    hi = Math.min(hi, p.getValueCount().getMax());
                }
            } else if (p.hasValueCounts()) {
                if (p.getValueCounts().getValueCountCount() != 1) {
                    lo = 1;
                    hi = 0; // always VALUE_NESTEDNESS_MISMATCH
                } else {
                    var vc = p.getValueCounts().getValueCount(0);
                    if (vc.hasMin()) {
                        lo = Math.max(lo, vc.getMin());
                    }
                    if (vc.hasMax()) {
                        hi = Math.min(hi, vc.getMax());
                    }
                }
            }
            if (p.hasShape()) {
                long product = r.shapeProduct;
                if (product <= 0) {
                    lo = 1;
                    hi = 0;
                } else {
                    lo = Math.max(lo, product);
                    hi = Math.min(hi, product);
                }
            }
        }
        cleanMin[r.index] = lo;
        cleanMax[r.index] = hi;
    }

    private static int kind(DType d) {
        switch (d) {
            case INT64:
                return FeatureValues.KIND_INT64;
            case FLOAT32:
                return FeatureValues.KIND_FLOAT;
            default:
                return FeatureValues.KIND_BYTES;
        }
    }
}
