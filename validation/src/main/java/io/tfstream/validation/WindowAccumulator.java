package io.tfstream.validation;

import io.tfstream.stats.ByteKeyTable;
import io.tfstream.tensor.BytesBuffer;
import java.util.Arrays;
import org.tensorflow.metadata.v0.AnomalyInfo.Type;

/**
 * The mergeable state of one window (tier W and C input, docs/validation.md#validation-tiers): the
 * example count, {@link FeatureStats} per schema feature and a {@link RollUp} per (path, per-record
 * anomaly type), fed record by record from a {@link RecordValidator} and its {@link RecordResult}.
 * Plays the role of TFDV's statistics {@code CombineFn} accumulator: {@link #merge} of partial
 * accumulators fed with consecutive parts of a stream equals one accumulator fed the whole stream,
 * while no bound is reached. Feeding a record allocates nothing once the tables have grown, except
 * when a new roll-up key appears. Serialized by {@link WindowAccumulatorSerializer}.
 */
public final class WindowAccumulator {
    /** The per-record types that roll up, in slot order. */
    static final Type[] ROLLED_UP = {
        Type.SCHEMA_NEW_COLUMN, Type.SCHEMA_MISSING_COLUMN,
        Type.FEATURE_TYPE_LOW_NUMBER_VALUES, Type.FEATURE_TYPE_HIGH_NUMBER_VALUES,
        Type.VALUE_NESTEDNESS_MISMATCH, Type.INVALID_FEATURE_SHAPE,
        Type.UNEXPECTED_DATA_TYPE, Type.INT_TYPE_SMALL_INT,
        Type.INT_TYPE_BIG_INT, Type.INT_TYPE_NOT_INT_STRING,
        Type.FLOAT_TYPE_HAS_NAN, Type.FLOAT_TYPE_STRING_NOT_FLOAT,
        Type.FLOAT_TYPE_SMALL_FLOAT, Type.FLOAT_TYPE_BIG_FLOAT,
        Type.FLOAT_TYPE_HAS_INF, Type.ENUM_TYPE_INVALID_UTF8,
        Type.ENUM_TYPE_UNEXPECTED_STRING_VALUES, Type.BOOL_TYPE_UNEXPECTED_STRING,
        Type.BOOL_TYPE_SMALL_INT, Type.BOOL_TYPE_BIG_INT,
        Type.BOOL_TYPE_UNEXPECTED_FLOAT, Type.SPARSE_FEATURE_MISSING_VALUE,
        Type.SPARSE_FEATURE_MISSING_INDEX, Type.SPARSE_FEATURE_LENGTH_MISMATCH,
        Type.WEIGHTED_FEATURE_MISSING_VALUE, Type.WEIGHTED_FEATURE_MISSING_WEIGHT,
        Type.WEIGHTED_FEATURE_LENGTH_MISMATCH
    };

    private static final int[] SLOT = new int[128];

    static {
        Arrays.fill(SLOT, -1);
        for (int s = 0; s < ROLLED_UP.length; s++) {
            SLOT[ROLLED_UP[s].getNumber()] = s;
        }
    }

    final ValidationSchema schema;
    long numExamples;
    long malformed;
    long overLimit;
    final FeatureStats[] stats;

    /** With statistics per data split: the readable records of each (else null). */
    final long[] examplesBySplit;

    /** With weighted statistics: the readable records' weight per data split (else null). */
    final double[] weightBySplit;

    /** Roll-ups by path id and slot; rows allocated on first use. */
    final RollUp[][] rollUps;

    /** Unknown feature names (section byte + key) and their SCHEMA_NEW_COLUMN roll-ups. */
    final ByteKeyTable unknownNames;

    RollUp[] unknownRollUps = new RollUp[4];
    private byte[] scratch = new byte[64];

    public WindowAccumulator(ValidationSchema schema) {
        this.schema = schema;
        FeatureRule[] rules = schema.rules();
        stats = new FeatureStats[rules.length];
        for (FeatureRule r : rules) {
            stats[r.index] = new FeatureStats(r, schema.options());
        }
        int datasets =
                schema.options().statistics() == null ? 1 : schema.options().statisticsDatasets();
        examplesBySplit = datasets > 1 ? new long[datasets] : null;
        weightBySplit = schema.weightRule() >= 0 ? new double[datasets] : null;
        rollUps = new RollUp[schema.pathCount()][];
        unknownNames = new ByteKeyTable(schema.options().maxUnknownFeatures());
    }

    public ValidationSchema schema() {
        return schema;
    }

    public long numExamples() {
        return numExamples;
    }

    /**
     * The weight of the record {@code f} holds: its weight feature's one number; 0 when it holds
     * none or several (TFDV refuses such a record; here it weighs nothing), 1 without weights.
     */
    private double weightOf(RecordFeatures f) {
        int w = schema.weightRule();
        if (w < 0) {
            return 1;
        }
        if (!f.present(w) || f.count(w) != 1) {
            return 0;
        }
        if (f.int64To(w) - f.int64From(w) == 1) {
            return f.values().int64s().get(f.int64From(w));
        }
        if (f.floatTo(w) - f.floatFrom(w) == 1) {
            return f.values().floats().get(f.floatFrom(w));
        }
        return 0;
    }

    /** The total weight of data split {@code split}'s readable records (NaN without weights). */
    public double weightOf(int split) {
        return weightBySplit == null ? Double.NaN : weightBySplit[split];
    }

    /** The readable records of data split {@code split} (statistics per data split only). */
    public long examplesOf(int split) {
        return examplesBySplit == null ? numExamples - unreadable() : examplesBySplit[split];
    }

    /** Records that could not be read (counted in {@link #numExamples()} too). */
    public long unreadable() {
        return malformed + overLimit;
    }

    /**
     * Adds the record {@code validator} validated last, whose result is {@code result}; {@code ref}
     * may be null.
     */
    public void add(RecordValidator validator, RecordResult result, RecordRef ref) {
        add(validator, result, ref, 0);
    }

    /**
     * Adds the record {@code validator} validated last, of data split {@code split} (its statistics
     * go to that split's, {@link ValidationOptions#statisticsSplits()}; -1: to none).
     */
    public void add(RecordValidator validator, RecordResult result, RecordRef ref, int split) {
        numExamples++;
        if (result.status() != RecordResult.Status.OK) {
            if (result.status() == RecordResult.Status.MALFORMED) {
                malformed++;
            } else {
                overLimit++;
            }
            return;
        }
        if (examplesBySplit != null && split >= 0) {
            examplesBySplit[split]++;
        }
        RecordFeatures f = validator.features();
        double weight = weightOf(f);
        if (weightBySplit != null && split >= 0) {
            weightBySplit[split] += weight;
        }
        for (FeatureRule r : schema.rules()) {
            if (!r.skipped && f.present(r.index)) {
                stats[r.index].add(r, f, scratch, split, weight);
            }
        }
        addFindings(result, ref);
    }

    /**
     * Adds only the findings of a record (its roll-ups), for a caller that added its statistics and
     * counted it otherwise ({@link BatchValidator}).
     */
    void addFindings(RecordResult result, RecordRef ref) {
        for (int i = 0; i < result.count(); i++) {
            RollUp u = rollUp(result, i);
            if (u == null) {
                continue;
            }
            u.numbers(
                    u.records == 0,
                    result.type(i).getNumber(),
                    result.variant(i),
                    result.n1(i),
                    result.n2(i),
                    result.d1(i),
                    result.d2(i));
            u.records++;
            u.ref(ref);
            BytesBuffer s = result.samples();
            int[] offs = s.offsets();
            for (int k = 0; k < result.sampleCount(i); k++) {
                int at = result.sampleIndex(i, k);
                u.samples.add(
                        s.data(), offs[at], offs[at + 1] - offs[at], result.sampleValueCount(i, k));
            }
        }
    }

    private RollUp rollUp(RecordResult r, int i) {
        int slot = SLOT[r.type(i).getNumber()];
        if (slot < 0) {
            return null;
        }
        if (r.pathId(i) >= 0) {
            RollUp[] row = rollUps[r.pathId(i)];
            if (row == null) {
                row = rollUps[r.pathId(i)] = new RollUp[ROLLED_UP.length];
            }
            if (row[slot] == null) {
                row[slot] = newRollUp();
            }
            return row[slot];
        }
        BytesBuffer keys = r.unknownKeys();
        int k = r.unknownKey(i);
        int len = keys.offsets()[k + 1] - keys.offsets()[k];
        if (scratch.length < len + 1) {
            scratch = new byte[Math.max(len + 1, scratch.length * 2)];
        }
        scratch[0] = (byte) r.variant(i);
        System.arraycopy(keys.data(), keys.offsets()[k], scratch, 1, len);
        return unknown(scratch, 0, len + 1, 1);
    }

    /** The roll-up of an unknown name, or null when the table is full (then only counted). */
    RollUp unknown(byte[] key, int off, int len, long records) {
        int id = unknownNames.add(key, off, len, records);
        if (id < 0) {
            return null;
        }
        if (id == unknownRollUps.length) {
            unknownRollUps = Arrays.copyOf(unknownRollUps, id * 2);
        }
        if (unknownRollUps[id] == null) {
            unknownRollUps[id] = newRollUp();
        }
        return unknownRollUps[id];
    }

    RollUp newRollUp() {
        ValidationOptions o = schema.options();
        return new RollUp(o.maxSamplesPerAnomaly(), o.maxExampleRefs());
    }

    /** Adds everything {@code other} (of the same schema) counted, as if fed after this one. */
    public void merge(WindowAccumulator other) {
        if (!other.schema.fingerprint().equals(schema.fingerprint())) {
            throw new IllegalArgumentException(
                    "cannot merge window accumulators of different schemas ("
                            + schema.fingerprint()
                            + " and "
                            + other.schema.fingerprint()
                            + ")");
        }
        numExamples += other.numExamples;
        malformed += other.malformed;
        overLimit += other.overLimit;
        if (examplesBySplit != null) {
            for (int d = 0; d < examplesBySplit.length; d++) {
                examplesBySplit[d] += other.examplesBySplit[d];
            }
        }
        if (weightBySplit != null) {
            for (int d = 0; d < weightBySplit.length; d++) {
                weightBySplit[d] += other.weightBySplit[d];
            }
        }
        for (int r = 0; r < stats.length; r++) {
            stats[r].merge(other.stats[r]);
        }
        for (int p = 0; p < rollUps.length; p++) {
            RollUp[] row = other.rollUps[p];
            for (int s = 0; row != null && s < row.length; s++) {
                if (row[s] != null) {
                    if (rollUps[p] == null) {
                        rollUps[p] = new RollUp[ROLLED_UP.length];
                    }
                    if (rollUps[p][s] == null) {
                        rollUps[p][s] = newRollUp();
                    }
                    rollUps[p][s].merge(row[s], ROLLED_UP[s].getNumber());
                }
            }
        }
        for (int id = 0; id < other.unknownNames.size(); id++) {
            ByteKeyTable n = other.unknownNames;
            RollUp u =
                    unknown(n.pool(), n.keyStart(id), n.keyEnd(id) - n.keyStart(id), n.count(id));
            if (u != null) {
                u.merge(other.unknownRollUps[id], Type.SCHEMA_NEW_COLUMN_VALUE);
            }
        }
        unknownNames.addOverflow(other.unknownNames.overflow());
    }
}
