package io.tfstream.validation;

import io.tfstream.stats.ByteKeyTable;
import java.util.Arrays;

/**
 * The window summary of one per-record anomaly type at one path: how many records had it, the
 * extreme value seen (for range types), sample values with counts, the first example references and
 * the event-time span. Bounded by the {@link ValidationOptions} limits.
 */
final class RollUp {
    long records;
    long firstSeen = Long.MAX_VALUE;
    long lastSeen = Long.MIN_VALUE;
    int variant;
    long n1;
    long n2;
    double d1;
    double d2;
    final ByteKeyTable samples;
    int refs;
    final String[] refSource;
    final int[] refPartition;
    final long[] refOffset;
    final long[] refEventTime;

    RollUp(int maxSamples, int maxRefs) {
        samples = new ByteKeyTable(maxSamples);
        refSource = new String[maxRefs];
        refPartition = new int[maxRefs];
        refOffset = new long[maxRefs];
        refEventTime = new long[maxRefs];
    }

    /** Takes the numbers of the first record, then the extreme of later ones for range types. */
    void numbers(boolean first, int type, int v, long a, long b, double x, double y) {
        if (first) {
            variant = v;
            n1 = a;
            n2 = b;
            d1 = x;
            d2 = y;
            return;
        }
        switch (type) {
            case 32: // INT_TYPE_SMALL_INT
                n1 = Math.min(n1, a);
                break;
            case 28: // INT_TYPE_BIG_INT
                n1 = Math.max(n1, a);
                break;
            case 24: // FLOAT_TYPE_SMALL_FLOAT
            case 7: // BOOL_TYPE_SMALL_INT
                d1 = Math.min(d1, x);
                break;
            case 22: // FLOAT_TYPE_BIG_FLOAT
            case 1: // BOOL_TYPE_BIG_INT
                d1 = Math.max(d1, x);
                break;
            default:
                break;
        }
    }

    void ref(RecordRef r) {
        if (r == null) {
            return;
        }
        firstSeen = Math.min(firstSeen, r.eventTime);
        lastSeen = Math.max(lastSeen, r.eventTime);
        if (refs < refSource.length) {
            refSource[refs] = r.source;
            refPartition[refs] = r.partition;
            refOffset[refs] = r.offset;
            refEventTime[refs] = r.eventTime;
            refs++;
        }
    }

    void merge(RollUp o, int type) {
        if (o.records == 0) {
            return;
        }
        numbers(records == 0, type, o.variant, o.n1, o.n2, o.d1, o.d2);
        records += o.records;
        firstSeen = Math.min(firstSeen, o.firstSeen);
        lastSeen = Math.max(lastSeen, o.lastSeen);
        samples.addAll(o.samples);
        for (int k = 0; k < o.refs && refs < refSource.length; k++) {
            refSource[refs] = o.refSource[k];
            refPartition[refs] = o.refPartition[k];
            refOffset[refs] = o.refOffset[k];
            refEventTime[refs] = o.refEventTime[k];
            refs++;
        }
    }

    @Override
    public boolean equals(Object x) {
        if (!(x instanceof RollUp o)) {
            return false;
        }
        boolean same =
                records == o.records
                        && firstSeen == o.firstSeen
                        && lastSeen == o.lastSeen
                        && variant == o.variant
                        && n1 == o.n1
                        && n2 == o.n2
                        && Double.compare(d1, o.d1) == 0
                        && Double.compare(d2, o.d2) == 0
                        && refs == o.refs
                        && Arrays.equals(refSource, o.refSource)
                        && Arrays.equals(refPartition, o.refPartition)
                        && Arrays.equals(refOffset, o.refOffset)
                        && Arrays.equals(refEventTime, o.refEventTime)
                        && samples.size() == o.samples.size();
        for (int k = 0; same && k < samples.size(); k++) {
            same =
                    Arrays.equals(samples.key(k), o.samples.key(k))
                            && samples.count(k) == o.samples.count(k);
        }
        return same;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(records);
    }
}
