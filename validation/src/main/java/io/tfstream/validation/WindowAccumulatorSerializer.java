package io.tfstream.validation;

import io.tfstream.stats.ByteKeyTable;
import io.tfstream.stats.FeatureAccumulator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Versioned byte serializer of a {@link WindowAccumulator}, shaped like Flink's {@code
 * SimpleVersionedSerializer} (this module has no Flink dependency; the operator adapts it): {@link
 * #getVersion()}, {@link #serialize}, {@link #deserialize} that rejects versions it does not know.
 * The bytes start with the schema fingerprint; restoring under a different schema is refused. Not
 * thread-safe: one per thread.
 */
public final class WindowAccumulatorSerializer {
    /**
     * Version 4: the layout written by {@link #serialize}, each feature's TFDV statistics after its
     * window statistics, one per data split (each length-prefixed, so that a job without window
     * statistics skips them), and the readable records per data split; version 3 (read) had one
     * dataset of statistics and lacked the statistics' shortest and longest bytes value (then taken
     * from the values added after a restore); version 2 (read) had none, version 1 (read) also
     * lacked the numeric histograms' exact finite minimum and maximum, which are then taken from
     * the occupied buckets.
     */
    public static final int VERSION = 4;

    private final ValidationSchema schema;

    /** The buffer {@link #serialize} writes into, kept between calls. */
    private ByteArrayOutputStream bytes;

    public WindowAccumulatorSerializer(ValidationSchema schema) {
        this.schema = schema;
    }

    public int getVersion() {
        return VERSION;
    }

    /** Per rule, the statistics of no record (what another split's rules are written as). */
    private FeatureStats[] empties;

    private FeatureStats empty(FeatureRule r) {
        if (empties == null) {
            empties = new FeatureStats[schema.rules().length];
        }
        if (empties[r.index] == null) {
            empties[r.index] = new FeatureStats(r, schema.options());
        }
        return empties[r.index];
    }

    public byte[] serialize(WindowAccumulator a) {
        return serialize(a, 0, 1);
    }

    /**
     * {@code a} restricted to feature-path split {@code split} of {@code splits}, written: the
     * bytes of {@code serialize(WindowSplits.restrict(a, split, splits))} without touching {@code
     * a}.
     */
    public byte[] serialize(WindowAccumulator a, int split, int splits) {
        // one buffer for every call: a batch's partial is written once per batch, and growing a
        // new buffer each time was a quarter of what the statistics allocated
        if (bytes == null) {
            bytes = new ByteArrayOutputStream(1 << 16);
        }
        bytes.reset();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(a.schema.fingerprint());
            out.writeLong(a.numExamples);
            out.writeLong(a.malformed);
            out.writeLong(a.overLimit);
            out.writeInt(a.examplesBySplit == null ? 0 : a.examplesBySplit.length);
            for (int d = 0; a.examplesBySplit != null && d < a.examplesBySplit.length; d++) {
                out.writeLong(a.examplesBySplit[d]);
            }
            out.writeInt(a.weightBySplit == null ? 0 : a.weightBySplit.length);
            for (int d = 0; a.weightBySplit != null && d < a.weightBySplit.length; d++) {
                out.writeDouble(a.weightBySplit[d]);
            }
            out.writeInt(a.stats.length);
            FeatureRule[] rules = a.schema.rules();
            for (int i = 0; i < a.stats.length; i++) {
                FeatureStats s =
                        splits == 1 || WindowSplits.splitOf(rules[i].path, splits) == split
                                ? a.stats[i]
                                : empty(rules[i]);
                writeStats(out, s);
                writeTfdv(out, s);
            }
            out.writeInt(a.rollUps.length);
            for (int p = 0; p < a.rollUps.length; p++) {
                RollUp[] row =
                        splits == 1 || WindowSplits.splitOf(a.schema.path(p), splits) == split
                                ? a.rollUps[p]
                                : null;
                out.writeBoolean(row != null);
                for (int k = 0; row != null && k < row.length; k++) {
                    out.writeBoolean(row[k] != null);
                    if (row[k] != null) {
                        writeRollUp(out, row[k]);
                    }
                }
            }
            writeTable(out, a.unknownNames);
            for (int id = 0; id < a.unknownNames.size(); id++) {
                writeRollUp(out, a.unknownRollUps[id]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Restores an accumulator written by {@link #serialize} at {@code version}.
     *
     * @throws IOException for an unknown version, another schema, or damaged bytes
     */
    public WindowAccumulator deserialize(int version, byte[] serialized) throws IOException {
        if (version < 1 || version > VERSION) {
            throw new IOException(
                    "unknown WindowAccumulator serializer version "
                            + version
                            + "; this build reads versions 1 to "
                            + VERSION);
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        String fingerprint = in.readUTF();
        if (!fingerprint.equals(schema.fingerprint())) {
            throw new IOException(
                    "window state was written for schema "
                            + fingerprint
                            + " but the job runs schema "
                            + schema.fingerprint());
        }
        WindowAccumulator a = new WindowAccumulator(schema);
        a.numExamples = in.readLong();
        a.malformed = in.readLong();
        a.overLimit = in.readLong();
        int datasets = 1;
        boolean weighted = false;
        if (version >= 4) {
            // statistics kept per data split, maybe weighted; written otherwise than the job
            // keeps them (another split configuration, weights on or off): they restart here
            int n = in.readInt();
            datasets = Math.max(1, n);
            for (int d = 0; d < n; d++) {
                long examples = in.readLong();
                if (a.examplesBySplit != null && a.examplesBySplit.length == n) {
                    a.examplesBySplit[d] = examples;
                }
            }
            int w = in.readInt();
            weighted = w > 0;
            for (int d = 0; d < w; d++) {
                double weight = in.readDouble();
                if (a.weightBySplit != null && a.weightBySplit.length == w) {
                    a.weightBySplit[d] = weight;
                }
            }
        }
        boolean sameDatasets =
                datasets == schema.options().statisticsDatasets()
                        && weighted == (a.weightBySplit != null);
        if (!sameDatasets && a.weightBySplit != null) {
            java.util.Arrays.fill(a.weightBySplit, 0);
        }
        if (!sameDatasets && a.examplesBySplit != null) {
            java.util.Arrays.fill(a.examplesBySplit, 0);
        }
        expect(in.readInt(), a.stats.length, "features");
        for (FeatureStats s : a.stats) {
            readStats(in, s, version);
            if (version >= 3) {
                readTfdv(in, s, version, version >= 4 ? datasets : 1, sameDatasets);
            }
        }
        expect(in.readInt(), a.rollUps.length, "paths");
        for (int p = 0; p < a.rollUps.length; p++) {
            if (in.readBoolean()) {
                a.rollUps[p] = new RollUp[WindowAccumulator.ROLLED_UP.length];
                for (int k = 0; k < a.rollUps[p].length; k++) {
                    if (in.readBoolean()) {
                        a.rollUps[p][k] = readRollUp(in, a.newRollUp());
                    }
                }
            }
        }
        ByteKeyTable names = new ByteKeyTable(Integer.MAX_VALUE);
        readTable(in, names);
        for (int id = 0; id < names.size(); id++) {
            RollUp u = readRollUp(in, a.newRollUp());
            RollUp target =
                    a.unknown(
                            names.pool(),
                            names.keyStart(id),
                            names.keyEnd(id) - names.keyStart(id),
                            names.count(id));
            if (target != null) {
                target.merge(
                        u, org.tensorflow.metadata.v0.AnomalyInfo.Type.SCHEMA_NEW_COLUMN_VALUE);
            }
        }
        a.unknownNames.addOverflow(names.overflow());
        if (in.available() != 0) {
            throw new IOException(in.available() + " unexpected bytes after the window state");
        }
        return a;
    }

    private static void expect(int got, int want, String what) throws IOException {
        if (got != want) {
            throw new IOException("window state has " + got + " " + what + ", schema has " + want);
        }
    }

    private static void writeStats(DataOutputStream out, FeatureStats s) throws IOException {
        out.writeLong(s.present);
        out.writeLong(s.minValues);
        out.writeLong(s.maxValues);
        out.writeLong(s.totValues);
        for (long k : s.kinds) {
            out.writeLong(k);
        }
        out.writeDouble(s.numMin);
        out.writeDouble(s.numMax);
        out.writeLong(s.inDomain);
        out.writeLong(s.outDomain);
        if (s.values != null) {
            writeTable(out, s.values);
        }
        if (s.offDomain != null) {
            writeTable(out, s.offDomain);
        }
        if (s.histogram != null) {
            ValueHistogram h = s.histogram;
            out.writeLong(h.nan);
            out.writeLong(h.posInf);
            out.writeLong(h.negInf);
            out.writeDouble(h.finiteMin);
            out.writeDouble(h.finiteMax);
            int nonZero = 0;
            for (long c : h.counts) {
                nonZero += c != 0 ? 1 : 0;
            }
            out.writeInt(nonZero);
            for (int b = 0; b < h.counts.length; b++) {
                if (h.counts[b] != 0) {
                    out.writeInt(b);
                    out.writeLong(h.counts[b]);
                }
            }
        }
    }

    private static void writeTfdv(DataOutputStream out, FeatureStats s) throws IOException {
        if (s.tfdv == null) {
            out.writeInt(-1);
            return;
        }
        for (FeatureAccumulator t : s.tfdv) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            t.write(new DataOutputStream(bytes));
            out.writeInt(bytes.size());
            bytes.writeTo(out);
        }
    }

    /**
     * A feature's TFDV statistics, {@code datasets} of them: read when kept for as many data splits
     * ({@code same}), skipped when the job keeps none or another number.
     */
    private static void readTfdv(
            DataInputStream in, FeatureStats s, int version, int datasets, boolean same)
            throws IOException {
        for (int d = 0; d < datasets; d++) {
            int len = in.readInt();
            if (len < 0) {
                return; // written without statistics
            }
            if (len > in.available()) {
                throw new IOException("feature statistics of " + len + " bytes in a shorter state");
            }
            byte[] blob = in.readNBytes(len);
            if (s.tfdv != null && same) {
                s.tfdv[d].read(new DataInputStream(new ByteArrayInputStream(blob)), version >= 4);
            }
        }
    }

    private static void readStats(DataInputStream in, FeatureStats s, int version)
            throws IOException {
        s.present = in.readLong();
        s.minValues = in.readLong();
        s.maxValues = in.readLong();
        s.totValues = in.readLong();
        for (int k = 0; k < s.kinds.length; k++) {
            s.kinds[k] = in.readLong();
        }
        s.numMin = in.readDouble();
        s.numMax = in.readDouble();
        s.inDomain = in.readLong();
        s.outDomain = in.readLong();
        if (s.values != null) {
            readTable(in, s.values);
        }
        if (s.offDomain != null) {
            readTable(in, s.offDomain);
        }
        if (s.histogram != null) {
            ValueHistogram h = s.histogram;
            h.nan = in.readLong();
            h.posInf = in.readLong();
            h.negInf = in.readLong();
            if (version >= 2) {
                h.finiteMin = in.readDouble();
                h.finiteMax = in.readDouble();
            }
            int n = in.readInt();
            for (int i = 0; i < n; i++) {
                int b = in.readInt();
                if (b < 0 || b >= h.counts.length) {
                    throw new IOException("histogram bucket " + b + " out of range");
                }
                h.counts[b] = in.readLong();
            }
            if (version == 1) {
                h.boundsFromBuckets();
            }
        }
    }

    private static void writeTable(DataOutputStream out, ByteKeyTable t) throws IOException {
        out.writeInt(t.size());
        out.writeLong(t.overflow());
        for (int id = 0; id < t.size(); id++) {
            out.writeInt(t.keyEnd(id) - t.keyStart(id));
            out.write(t.pool(), t.keyStart(id), t.keyEnd(id) - t.keyStart(id));
            out.writeLong(t.count(id));
        }
    }

    private static void readTable(DataInputStream in, ByteKeyTable t) throws IOException {
        int n = in.readInt();
        long overflow = in.readLong();
        if (n < 0 || n > in.available()) {
            throw new IOException("table size " + n + " exceeds the remaining bytes");
        }
        for (int i = 0; i < n; i++) {
            int len = in.readInt();
            if (len < 0 || len > in.available()) {
                throw new IOException("key length " + len + " exceeds the remaining bytes");
            }
            byte[] key = in.readNBytes(len);
            t.add(key, 0, len, in.readLong());
        }
        t.addOverflow(overflow);
    }

    private static void writeRollUp(DataOutputStream out, RollUp u) throws IOException {
        out.writeLong(u.records);
        out.writeLong(u.firstSeen);
        out.writeLong(u.lastSeen);
        out.writeInt(u.variant);
        out.writeLong(u.n1);
        out.writeLong(u.n2);
        out.writeDouble(u.d1);
        out.writeDouble(u.d2);
        writeTable(out, u.samples);
        out.writeInt(u.refs);
        for (int k = 0; k < u.refs; k++) {
            out.writeUTF(u.refSource[k]);
            out.writeInt(u.refPartition[k]);
            out.writeLong(u.refOffset[k]);
            out.writeLong(u.refEventTime[k]);
        }
    }

    private static RollUp readRollUp(DataInputStream in, RollUp u) throws IOException {
        u.records = in.readLong();
        u.firstSeen = in.readLong();
        u.lastSeen = in.readLong();
        u.variant = in.readInt();
        u.n1 = in.readLong();
        u.n2 = in.readLong();
        u.d1 = in.readDouble();
        u.d2 = in.readDouble();
        readTable(in, u.samples);
        int refs = in.readInt();
        if (refs < 0 || refs > u.refSource.length) {
            throw new IOException(
                    refs + " example refs exceed maxExampleRefs " + u.refSource.length);
        }
        u.refs = refs;
        for (int k = 0; k < refs; k++) {
            u.refSource[k] = in.readUTF();
            u.refPartition[k] = in.readInt();
            u.refOffset[k] = in.readLong();
            u.refEventTime[k] = in.readLong();
        }
        return u;
    }
}
