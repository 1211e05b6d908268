package io.tfstream.validation;

import io.tfstream.parse.FeatureEntryWalker;
import io.tfstream.parse.wire.FeatureValues;
import java.util.Arrays;
import org.tensorflow.metadata.v0.AnomalyInfo.Type;

/**
 * Tier R: validates one serialized {@code tf.train.Example} or {@code SequenceExample} straight
 * from its wire bytes against a {@link ValidationSchema}, as TFDV's {@code validate_instance} does
 * for a one-row batch (statistics of the record, then {@code Schema::FindChanges}), with the
 * window-only reasons left to {@link WindowEvaluator} and the decisions of the package
 * documentation. Records are read with the parser's wire rules ({@link FeatureEntryWalker}, {@link
 * FeatureValues}); no {@code Example} object is built.
 *
 * <p>Not thread-safe: one instance per task. Once buffers have grown to the largest record seen,
 * validating a record allocates nothing, except for {@code float_domain} checks of bytes values.
 */
public final class RecordValidator implements FeatureEntryWalker.Visitor {
    private final ValidationSchema schema;
    private final FeatureRule[] rules;
    private final FeatureEntryWalker walker;
    private final RecordFeatures features;
    private final int listBase;
    private final long[] scratch = new long[1];
    private int[] unknownSection = new int[8];
    private int[] unknownStart = new int[8];
    private int[] unknownLen = new int[8];
    private int unknownCount;
    private byte[] record;

    public RecordValidator(ValidationSchema schema) {
        this.schema = schema;
        this.rules = schema.rules();
        this.walker =
                new FeatureEntryWalker(
                        schema.contextNames(), schema.listNames(), schema.options().parseLimits());
        this.features =
                new RecordFeatures(rules.length, new FeatureValues(schema.options().parseLimits()));
        this.listBase = schema.contextCount();
    }

    public ValidationSchema schema() {
        return schema;
    }

    /** What the record validated last holds per feature, for the window accumulator. */
    public RecordFeatures features() {
        return features;
    }

    /** Validates a serialized {@code Example} {@code buf[off, off+len)} into {@code out}. */
    public RecordResult validateExample(byte[] buf, int off, int len, RecordResult out) {
        return validate(buf, off, len, out, false);
    }

    /**
     * Validates a serialized {@code SequenceExample} {@code buf[off, off+len)} into {@code out}.
     */
    public RecordResult validateSequenceExample(byte[] buf, int off, int len, RecordResult out) {
        return validate(buf, off, len, out, true);
    }

    private RecordResult validate(byte[] buf, int off, int len, RecordResult out, boolean seq) {
        out.reset();
        features.next();
        unknownCount = 0;
        record = buf;
        FeatureEntryWalker.Status st =
                seq
                        ? walker.walkSequenceExample(buf, off, len, this)
                        : walker.walkExample(buf, off, len, this);
        if (st != FeatureEntryWalker.Status.OK) {
            out.fail(
                    st == FeatureEntryWalker.Status.MALFORMED
                            ? RecordResult.Status.MALFORMED
                            : RecordResult.Status.LIMIT_EXCEEDED);
            record = null;
            return out;
        }
        for (FeatureRule r : rules) {
            if (r == schema.sequenceStruct()) {
                continue;
            }
            if (features.seen(r.index)) {
                int rc = decode(r, buf);
                if (rc < 0) {
                    out.fail(
                            rc == FeatureValues.MALFORMED
                                    ? RecordResult.Status.MALFORMED
                                    : RecordResult.Status.LIMIT_EXCEEDED);
                    record = null;
                    return out;
                }
            }
            if (r.skipped) {
                continue;
            }
            if (features.present(r.index)) {
                checkPresent(r, out);
            } else if (r.requiredPerRecord(schema.options().tfdvRecordPresence())) {
                out.add(r.index, Type.SCHEMA_MISSING_COLUMN);
            }
        }
        for (SparseRule s : schema.composites()) {
            CompositeChecks.check(s, features, out);
        }
        newColumns(buf, out);
        record = null;
        return out;
    }

    @Override
    public void entry(
            int section, int keyId, byte[] buf, int keyStart, int keyLen, int start, int end) {
        if (keyId >= 0) {
            features.seen(
                    section == FeatureEntryWalker.CONTEXT ? keyId : listBase + keyId, start, end);
            return;
        }
        if (unknownCount == unknownStart.length) {
            int n = unknownCount * 2;
            unknownSection = Arrays.copyOf(unknownSection, n);
            unknownStart = Arrays.copyOf(unknownStart, n);
            unknownLen = Arrays.copyOf(unknownLen, n);
        }
        unknownSection[unknownCount] = section;
        unknownStart[unknownCount] = keyStart;
        unknownLen[unknownCount] = keyLen;
        unknownCount++;
    }

    /** Decodes the last entry of rule {@code r}; negative on a malformed or oversized feature. */
    private int decode(FeatureRule r, byte[] buf) {
        RecordFeatures f = features;
        FeatureValues v = f.values;
        int i = r.index;
        f.fromI[i] = v.int64s().size();
        f.fromF[i] = v.floats().size();
        f.fromB[i] = v.bytes().size();
        f.mixedKind[i] = 0;
        int rc;
        if (r.nestLevel == 1) {
            rc = v.add(buf, f.entryStart[i], f.entryEnd[i]);
            if (rc > FeatureValues.KIND_NONE) {
                f.kind[i] = rc;
                f.count[i] = v.lastCount();
                f.markPresent(i);
            }
        } else {
            rc = v.addList(buf, f.entryStart[i], f.entryEnd[i]);
            if (rc >= 0) {
                listShape(r, rc);
                f.markPresent(i);
            }
        }
        f.toI[i] = v.int64s().size();
        f.toF[i] = v.floats().size();
        f.toB[i] = v.bytes().size();
        return rc;
    }

    private void listShape(FeatureRule r, int length) {
        RecordFeatures f = features;
        FeatureValues v = f.values;
        int i = r.index;
        int want = ShapeChecks.expectedKind(r.type);
        int kind = FeatureValues.KIND_NONE;
        int min = length == 0 ? 0 : Integer.MAX_VALUE;
        int max = 0;
        f.stepFrom[i] = f.steps;
        for (int k = 0; k < length; k++) {
            int fk = v.listKind(k);
            f.step(fk, v.listCount(k));
            if (kind == FeatureValues.KIND_NONE) {
                kind = fk;
            }
            if (fk != FeatureValues.KIND_NONE && fk != want && f.mixedKind[i] == 0) {
                f.mixedKind[i] = fk;
            }
            min = Math.min(min, v.listCount(k));
            max = Math.max(max, v.listCount(k));
        }
        f.stepTo[i] = f.steps;
        f.kind[i] = kind;
        f.count[i] = length;
        f.innerMin[i] = min;
        f.innerMax[i] = max;
    }

    /** The checks of {@code Schema::UpdateFeatureInternal} for a feature the record has. */
    private void checkPresent(FeatureRule r, RecordResult out) {
        if (!r.inEnvironment) {
            out.set(out.add(r.index, Type.SCHEMA_NEW_COLUMN), AnomalyText.ENV_VARIANT, 0, 0, 0, 0);
        }
        ShapeChecks.valueCounts(r, features, out);
        ShapeChecks.shape(r, features, out);
        ShapeChecks.type(r, features, out);
        switch (r.domainKind) {
            case INT:
                NumericDomainChecks.intDomain(r, features, out, scratch);
                break;
            case FLOAT:
                NumericDomainChecks.floatDomain(r, features, out);
                break;
            case STRING:
                StringDomainChecks.stringDomain(
                        r, features, out, schema.options().maxSamplesPerAnomaly());
                break;
            case BOOL:
                StringDomainChecks.boolDomain(r, features, out);
                break;
            default:
                break;
        }
    }

    /** SCHEMA_NEW_COLUMN once per distinct unknown key; unknown lists collapse without a struct. */
    private void newColumns(byte[] buf, RecordResult out) {
        boolean listsCollapsed = false;
        FeatureRule seq = schema.sequenceStruct();
        for (int u = 0; u < unknownCount; u++) {
            int section = unknownSection[u];
            if (section == FeatureEntryWalker.FEATURE_LISTS) {
                if (seq != null && seq.skipped) {
                    continue;
                }
                if (seq == null) {
                    if (!listsCollapsed) {
                        out.addUnknown(buf, 0, 0, Type.SCHEMA_NEW_COLUMN, section);
                        listsCollapsed = true;
                    }
                    continue;
                }
            }
            if (!seenBefore(u)) {
                out.addUnknown(
                        buf, unknownStart[u], unknownLen[u], Type.SCHEMA_NEW_COLUMN, section);
            }
        }
    }

    private boolean seenBefore(int u) {
        for (int k = 0; k < u; k++) {
            if (unknownSection[k] == unknownSection[u]
                    && Arrays.equals(
                            record,
                            unknownStart[k],
                            unknownStart[k] + unknownLen[k],
                            record,
                            unknownStart[u],
                            unknownStart[u] + unknownLen[u])) {
                return true;
            }
        }
        return false;
    }
}
