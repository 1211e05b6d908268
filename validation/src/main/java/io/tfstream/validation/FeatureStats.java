package io.tfstream.validation;

import io.tfstream.parse.wire.FeatureValues;
import io.tfstream.stats.ByteKeyTable;
import io.tfstream.stats.FeatureAccumulator;
import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Float32Buffer;
import io.tfstream.tensor.Int64Buffer;
import org.tensorflow.metadata.v0.FeatureType;

/**
 * The window statistics of one schema feature that TFDV's window-level checks read ({@code
 * CommonStatistics}, numeric min/max, the rank histogram of string values), kept mergeable: counts
 * of present examples and of values, per-kind counts, numeric extremes, a bounded exact value→count
 * table (categorical features), in/out-of-domain counts with the out-of-domain values, and a {@link
 * ValueHistogram} for features with a Jensen-Shannon drift comparator; with window statistics
 * ({@link ValidationOptions#statistics()}), TFDV's statistics of the feature ({@link
 * FeatureAccumulator}).
 */
final class FeatureStats {
    long present;
    long minValues = Long.MAX_VALUE;
    long maxValues = Long.MIN_VALUE;
    long totValues;
    final long[] kinds = new long[4];
    double numMin = Double.POSITIVE_INFINITY;
    double numMax = Double.NEGATIVE_INFINITY;
    long inDomain;
    long outDomain;

    /** Value counts for categorical features (L-infinity, unique counts), or null. */
    final ByteKeyTable values;

    /** Out-of-domain values for string-domain features with {@code min_domain_mass}, or null. */
    final ByteKeyTable offDomain;

    /** For a Jensen-Shannon comparator on numeric data, or null. */
    final ValueHistogram histogram;

    /**
     * TFDV's statistics of the feature, one per data split (one without splits), or null (no window
     * statistics, or not a feature).
     */
    final FeatureAccumulator[] tfdv;

    FeatureStats(FeatureRule r, ValidationOptions o) {
        boolean needValues =
                r.categorical
                        && (r.hasUniqueConstraints()
                                || !Double.isNaN(r.lInfThreshold)
                                || !Double.isNaN(r.jsdThreshold));
        values = needValues ? new ByteKeyTable(o.maxDistinctValues()) : null;
        offDomain = r.stringDomain != null ? new ByteKeyTable(o.maxDistinctValues()) : null;
        histogram = !Double.isNaN(r.jsdThreshold) && !r.categorical ? new ValueHistogram() : null;
        if (o.statistics() != null && !r.skipped && r.type != FeatureType.STRUCT) {
            tfdv = new FeatureAccumulator[o.statisticsDatasets()];
            for (int d = 0; d < tfdv.length; d++) {
                tfdv[d] =
                        new FeatureAccumulator(
                                r.name(),
                                r.nestLevel == 2,
                                o.statistics(),
                                o.statisticsWeightFeature() != null,
                                false,
                                r.statsRole);
            }
        } else {
            tfdv = null;
        }
    }

    /**
     * Adds what one record of data split {@code split} and weight {@code weight} holds for the
     * feature (it is present).
     */
    void add(FeatureRule r, RecordFeatures f, byte[] scratch, int split, double weight) {
        int rule = r.index;
        if (tfdv != null && split >= 0) {
            tfdv(r, f, tfdv[split], weight);
        }
        present++;
        long n = f.count(rule);
        minValues = Math.min(minValues, n);
        maxValues = Math.max(maxValues, n);
        kinds[f.kind(rule)]++;
        FeatureValues v = f.values();
        Int64Buffer ints = v.int64s();
        for (int k = f.int64From(rule); k < f.int64To(rule); k++) {
            long x = ints.get(k);
            numeric(x);
            if (values != null) {
                int len = decimal(x, scratch);
                values.add(scratch, scratch.length - len, len, 1);
            }
        }
        Float32Buffer floats = v.floats();
        for (int k = f.floatFrom(rule); k < f.floatTo(rule); k++) {
            numeric(floats.get(k));
        }
        BytesBuffer bytes = v.bytes();
        int[] offs = bytes.offsets();
        for (int k = f.bytesFrom(rule); k < f.bytesTo(rule); k++) {
            int len = offs[k + 1] - offs[k];
            if (values != null) {
                values.add(bytes.data(), offs[k], len, 1);
            }
            if (r.stringDomain != null) {
                if (r.stringDomain.find(bytes.data(), offs[k], len) >= 0) {
                    inDomain++;
                } else {
                    outDomain++;
                    offDomain.add(bytes.data(), offs[k], len, 1);
                }
            }
        }
        totValues +=
                (f.int64To(rule) - f.int64From(rule))
                        + (f.floatTo(rule) - f.floatFrom(rule))
                        + (f.bytesTo(rule) - f.bytesFrom(rule));
    }

    /** TFDV's statistics of the record's feature: presence, steps of a list, its values. */
    private static void tfdv(
            FeatureRule r, RecordFeatures f, FeatureAccumulator tfdv, double weight) {
        int rule = r.index;
        if (r.nestLevel == 1) {
            tfdv.present(f.kind(rule), f.count(rule), weight);
        } else {
            tfdv.beginList(weight);
            long all = 0;
            for (int s = f.stepFrom(rule); s < f.stepTo(rule); s++) {
                if (f.stepKind(s) != FeatureValues.KIND_NONE) {
                    all += f.stepCount(s);
                    tfdv.step(f.stepKind(s), f.stepCount(s));
                }
            }
            tfdv.list(f.count(rule), all);
        }
        // values of the accumulator's kind only (another kind's are in another buffer)
        FeatureValues v = f.values();
        switch (tfdv.kind()) {
            case FeatureValues.KIND_INT64 -> {
                for (int k = f.int64From(rule); k < f.int64To(rule); k++) {
                    tfdv.number(v.int64s().get(k));
                }
            }
            case FeatureValues.KIND_FLOAT -> {
                for (int k = f.floatFrom(rule); k < f.floatTo(rule); k++) {
                    tfdv.number(v.floats().get(k));
                }
            }
            case FeatureValues.KIND_BYTES -> {
                BytesBuffer bytes = v.bytes();
                int[] offs = bytes.offsets();
                for (int k = f.bytesFrom(rule); k < f.bytesTo(rule); k++) {
                    tfdv.string(bytes.data(), offs[k], offs[k + 1] - offs[k]);
                }
            }
            default -> {}
        }
    }

    private void numeric(double x) {
        if (!Double.isNaN(x)) {
            numMin = Math.min(numMin, x);
            numMax = Math.max(numMax, x);
        }
        if (histogram != null) {
            histogram.add(x);
        }
    }

    /** Writes {@code x} in decimal at the end of {@code buf}; returns its length. */
    static int decimal(long x, byte[] buf) {
        int p = buf.length;
        boolean neg = x < 0;
        do {
            long q = x / 10;
            buf[--p] = (byte) ('0' + Math.abs(x - q * 10));
            x = q;
        } while (x != 0);
        if (neg) {
            buf[--p] = '-';
        }
        return buf.length - p;
    }

    void merge(FeatureStats o) {
        present += o.present;
        minValues = Math.min(minValues, o.minValues);
        maxValues = Math.max(maxValues, o.maxValues);
        totValues += o.totValues;
        for (int k = 0; k < kinds.length; k++) {
            kinds[k] += o.kinds[k];
        }
        numMin = Math.min(numMin, o.numMin);
        numMax = Math.max(numMax, o.numMax);
        inDomain += o.inDomain;
        outDomain += o.outDomain;
        if (values != null) {
            values.addAll(o.values);
        }
        if (offDomain != null) {
            offDomain.addAll(o.offDomain);
        }
        if (histogram != null) {
            histogram.merge(o.histogram);
        }
        if (tfdv != null) {
            for (int d = 0; d < tfdv.length; d++) {
                tfdv[d].merge(o.tfdv[d]);
            }
        }
    }
}
