package io.tfstream.validation;

import io.tfstream.tensor.BytesBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.tensorflow.metadata.v0.AnomalyInfo.Type;

/**
 * The anomalies of one record, written by {@link RecordValidator} into arrays that are reused from
 * record to record: once warm, validating a record allocates nothing. Per anomaly it holds the path
 * id, the type, the numbers its description needs and a few sample values; the TFDV texts are made
 * only on request ({@link #finding}), typically when an alert is made.
 */
public final class RecordResult {
    /** Whether the record could be read at all; anomalies are only reported for {@code OK}. */
    public enum Status {
        OK,
        /** Not a valid serialized Example / SequenceExample (TensorFlow would fail to parse it). */
        MALFORMED,
        /** A value count, value size, entry count or record size exceeds {@code ParseLimits}. */
        LIMIT_EXCEEDED
    }

    private Status status = Status.OK;
    private int count;
    private int[] pathId = new int[8];
    private Type[] type = new Type[8];
    private int[] variant = new int[8];
    private long[] n1 = new long[8];
    private long[] n2 = new long[8];
    private double[] d1 = new double[8];
    private double[] d2 = new double[8];
    private int[] sampleFrom = new int[8];
    private int[] sampleTo = new int[8];
    private final BytesBuffer samples = new BytesBuffer(16, 256);
    private long[] sampleCounts = new long[16];
    private final BytesBuffer unknownKeys = new BytesBuffer(4, 64);

    void reset() {
        status = Status.OK;
        count = 0;
        samples.truncate(0);
        unknownKeys.truncate(0);
    }

    void fail(Status s) {
        status = s;
        count = 0;
    }

    public Status status() {
        return status;
    }

    /** Number of anomalies (reasons) in the record. */
    public int count() {
        return count;
    }

    /** Path id of anomaly {@code i} in the schema, or -1 for a feature the schema lacks. */
    public int pathId(int i) {
        return pathId[i] < 0 ? -1 : pathId[i];
    }

    public Type type(int i) {
        return type[i];
    }

    int variant(int i) {
        return variant[i];
    }

    long n1(int i) {
        return n1[i];
    }

    long n2(int i) {
        return n2[i];
    }

    double d1(int i) {
        return d1[i];
    }

    double d2(int i) {
        return d2[i];
    }

    /** The steps of an unknown feature's path: its key bytes, and for feature lists the list. */
    int unknownKey(int i) {
        return -pathId[i] - 2;
    }

    BytesBuffer unknownKeys() {
        return unknownKeys;
    }

    public int sampleCount(int i) {
        return sampleTo[i] - sampleFrom[i];
    }

    /**
     * Sample {@code k} of anomaly {@code i}: its bytes are {@code samples().data()[start, end)}.
     */
    int sampleIndex(int i, int k) {
        return sampleFrom[i] + k;
    }

    BytesBuffer samples() {
        return samples;
    }

    long sampleValueCount(int i, int k) {
        return sampleCounts[sampleFrom[i] + k];
    }

    /** Adds an anomaly of a schema path; returns its index. */
    int add(int path, Type t) {
        if (count == type.length) {
            grow();
        }
        int i = count++;
        pathId[i] = path;
        type[i] = t;
        variant[i] = 0;
        n1[i] = 0;
        n2[i] = 0;
        d1[i] = 0;
        d2[i] = 0;
        sampleFrom[i] = samples.size();
        sampleTo[i] = samples.size();
        return i;
    }

    /** Adds an anomaly of a feature the schema lacks, named {@code buf[off, off+len)}. */
    int addUnknown(byte[] buf, int off, int len, Type t, int section) {
        unknownKeys.add(buf, off, len);
        int i = add(-1 - unknownKeys.size(), t);
        variant[i] = section;
        return i;
    }

    void set(int i, int v, long a, long b, double x, double y) {
        variant[i] = v;
        n1[i] = a;
        n2[i] = b;
        d1[i] = x;
        d2[i] = y;
    }

    /**
     * Counts a sample value for the last anomaly {@code i}: adds it, or adds to its count if
     * already there; returns false when {@code max} distinct samples are already kept.
     */
    boolean sample(int i, byte[] buf, int off, int len, long c, int max) {
        byte[] data = samples.data();
        int[] offs = samples.offsets();
        for (int k = sampleFrom[i]; k < sampleTo[i]; k++) {
            if (Arrays.equals(data, offs[k], offs[k + 1], buf, off, off + len)) {
                sampleCounts[k] += c;
                return true;
            }
        }
        if (sampleTo[i] - sampleFrom[i] >= max) {
            return false;
        }
        samples.add(buf, off, len);
        int k = samples.size() - 1;
        if (k >= sampleCounts.length) {
            sampleCounts = Arrays.copyOf(sampleCounts, sampleCounts.length * 2);
        }
        sampleCounts[k] = c;
        sampleTo[i] = k + 1;
        return true;
    }

    private void grow() {
        int n = type.length * 2;
        pathId = Arrays.copyOf(pathId, n);
        type = Arrays.copyOf(type, n);
        variant = Arrays.copyOf(variant, n);
        n1 = Arrays.copyOf(n1, n);
        n2 = Arrays.copyOf(n2, n);
        d1 = Arrays.copyOf(d1, n);
        d2 = Arrays.copyOf(d2, n);
        sampleFrom = Arrays.copyOf(sampleFrom, n);
        sampleTo = Arrays.copyOf(sampleTo, n);
    }

    /** The path of anomaly {@code i}: a schema path or the unknown feature's. */
    public FeaturePath path(int i, ValidationSchema schema) {
        if (pathId[i] >= 0) {
            return schema.path(pathId[i]);
        }
        int k = unknownKey(i);
        int[] offs = unknownKeys.offsets();
        String name =
                new String(
                        unknownKeys.data(), offs[k], offs[k + 1] - offs[k], StandardCharsets.UTF_8);
        if (variant[i] == io.tfstream.parse.FeatureEntryWalker.FEATURE_LISTS) {
            return name.isEmpty()
                    ? FeaturePath.of(ValidationSchema.SEQUENCE_FEATURE)
                    : FeaturePath.of(ValidationSchema.SEQUENCE_FEATURE, name);
        }
        return FeaturePath.of(name);
    }

    /** Sample values of anomaly {@code i}, C-escaped, in the order first seen. */
    public List<SampleValue> sampleValues(int i) {
        List<SampleValue> out = new ArrayList<>();
        int[] offs = samples.offsets();
        for (int k = sampleFrom[i]; k < sampleTo[i]; k++) {
            out.add(
                    new SampleValue(
                            TfdvFormat.cEscape(samples.data(), offs[k], offs[k + 1] - offs[k]),
                            sampleCounts[k]));
        }
        return out;
    }

    byte[][] sampleValuesRaw(int i) {
        byte[][] out = new byte[sampleCount(i)][];
        int[] offs = samples.offsets();
        for (int k = 0; k < out.length; k++) {
            int s = sampleFrom[i] + k;
            out[k] = Arrays.copyOfRange(samples.data(), offs[s], offs[s + 1]);
        }
        return out;
    }

    long[] sampleCountsOf(int i) {
        return Arrays.copyOfRange(sampleCounts, sampleFrom[i], sampleTo[i]);
    }

    /** Anomaly {@code i} with its TFDV texts (allocates; call when alerting). */
    public Finding finding(int i, ValidationSchema schema) {
        return new Finding(
                path(i, schema),
                type[i],
                AnomalyText.shortDescription(this, i),
                AnomalyText.description(this, i, schema),
                sampleValues(i));
    }

    /** All anomalies of the record as findings. */
    public List<Finding> findings(ValidationSchema schema) {
        List<Finding> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(finding(i, schema));
        }
        return out;
    }
}
