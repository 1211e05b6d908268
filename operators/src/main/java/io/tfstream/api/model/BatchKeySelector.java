package io.tfstream.api.model;

import io.tfstream.parse.LenientBatchParser;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.ParsedRows;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.parse.sequence.ParsedSequenceBatch;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.SpecSource;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.spec.schema.FixedLenDefaults;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.tensor.Tensor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.java.functions.KeySelector;

/**
 * The grouping key of event-time window batches: the Kafka key (its bytes as ISO-8859-1 text, ""
 * for none), the source partition ({@code <topic>-<partition>}, or the file), or the first value of
 * one schema feature (a context feature for SequenceExamples; "" when absent or when the record
 * does not parse, so such records still reach the parse that dead-letters them). A feature key is
 * read with a one-feature projection of the spec, which skips every other feature's values.
 *
 * <p>{@link #keyBytes} turns a key back into bytes for the payloads' Kafka key: the Kafka key and a
 * bytes feature byte for byte, a number feature as its decimal text, a source partition as UTF-8.
 */
@PublicEvolving
public final class BatchKeySelector implements KeySelector<SourceRecord, String> {
    private static final long serialVersionUID = 1L;

    /** What the key is. */
    public enum Kind {
        KAFKA_KEY,
        SOURCE_PARTITION,
        FEATURE
    }

    private final Kind kind;
    private final String feature;

    /** The one-feature projection as SPEC.json (spec objects are not serializable). */
    private final String projection;

    private transient LenientBatchParser parser;
    private transient List<Object> ignored;

    private BatchKeySelector(Kind kind, String feature, String projection) {
        this.kind = kind;
        this.feature = feature;
        this.projection = projection;
    }

    public static BatchKeySelector kafkaKey() {
        return new BatchKeySelector(Kind.KAFKA_KEY, null, null);
    }

    public static BatchKeySelector sourcePartition() {
        return new BatchKeySelector(Kind.SOURCE_PARTITION, null, null);
    }

    /** The prefix of a feature key in {@link #of}'s text. */
    public static final String FEATURE_PREFIX = "feature:";

    /**
     * The kind {@code key} names as the job's {@code batch.key} writes it ({@code kafka_key},
     * {@code source_partition} or {@code feature:<name>}); null for any other text.
     */
    public static Kind kindOf(String key) {
        if (key.startsWith(FEATURE_PREFIX)) {
            return key.length() > FEATURE_PREFIX.length() ? Kind.FEATURE : null;
        }
        for (Kind k : Kind.values()) {
            if (k != Kind.FEATURE && k.name().toLowerCase(java.util.Locale.ROOT).equals(key)) {
                return k;
            }
        }
        return null;
    }

    /**
     * The selector {@code key} names ({@link #kindOf}), a feature's checked against {@code spec}.
     *
     * @throws IllegalArgumentException for an unknown kind or a feature not in {@code spec}
     */
    public static BatchKeySelector of(String key, ParseSpec spec) {
        Kind kind = kindOf(key);
        if (kind == null) {
            throw new IllegalArgumentException(
                    "'" + key + "' is none of kafka_key, source_partition or feature:<name>");
        }
        switch (kind) {
            case KAFKA_KEY:
                return kafkaKey();
            case SOURCE_PARTITION:
                return sourcePartition();
            default:
                return feature(key.substring(FEATURE_PREFIX.length()), spec);
        }
    }

    /** Keyed by {@code feature} of {@code spec} (an Example feature or a context feature). */
    public static BatchKeySelector feature(String feature, ParseSpec spec) {
        Objects.requireNonNull(feature, "feature");
        FeatureSpecs features =
                spec instanceof SequenceFeatureSpecs s ? s.context() : (FeatureSpecs) spec;
        FeatureSpec f = features.features().get(feature);
        if (f == null) {
            throw new IllegalArgumentException(
                    "no "
                            + (spec.isSequence() ? "context " : "")
                            + "feature '"
                            + feature
                            + "' in the schema");
        }
        FeatureSpecs one = FeatureSpecs.of(Map.of(feature, f));
        ParseSpec projection =
                spec instanceof SequenceFeatureSpecs
                        ? new SequenceFeatureSpecs(one, FeatureSpecs.of(Map.of()))
                        : one;
        return new BatchKeySelector(Kind.FEATURE, feature, SpecJsonWriter.write(projection));
    }

    /** The feature the records are keyed by, or null when not {@link Kind#FEATURE}. */
    public String feature() {
        return kind == Kind.FEATURE ? feature : null;
    }

    /** {@code key} (a value of {@link #getKey}) as bytes: see the class comment. */
    public byte[] keyBytes(String key) {
        // Kafka keys and feature values were read as ISO-8859-1 (one char per byte); file paths and
        // topic names are text.
        return key.getBytes(
                kind == Kind.SOURCE_PARTITION
                        ? StandardCharsets.UTF_8
                        : StandardCharsets.ISO_8859_1);
    }

    @Override
    public String getKey(SourceRecord r) {
        switch (kind) {
            case KAFKA_KEY:
                return r.key() == null ? "" : new String(r.key(), StandardCharsets.ISO_8859_1);
            case SOURCE_PARTITION:
                return r.fromFile() ? r.topic() : r.topic() + "-" + r.partition();
            default:
                return featureKey(r);
        }
    }

    private String featureKey(SourceRecord r) {
        if (parser == null) {
            try {
                parser =
                        LenientBatchParser.create(
                                SpecSource.parse(
                                        projection.getBytes(StandardCharsets.UTF_8),
                                        "spec.json",
                                        FixedLenDefaults.NONE),
                                ParseLimits.defaults());
            } catch (Exception e) {
                throw new IllegalStateException("the key feature's spec does not load", e);
            }
            ignored = new ArrayList<>();
        }
        ignored.clear();
        ParsedRows rows = parser.parse(RecordBatch.of(List.of(r.value())), ignored::add);
        if (rows.rows() == 0) {
            return "";
        }
        Tensor t =
                rows instanceof ParsedBatch b
                        ? b.features().get(feature)
                        : ((ParsedSequenceBatch) rows).context().get(feature);
        Column values =
                t instanceof DenseTensor d
                        ? d.values()
                        : t instanceof SparseTensor s ? s.values() : ((RaggedTensor) t).values();
        if (values.size() == 0) {
            return "";
        }
        switch (values.dtype()) {
            case INT64:
                return Long.toString(values.int64Array()[0]);
            case FLOAT32:
                return Float.toString(values.float32Array()[0]);
            default:
                return new String(
                        values.bytesData(),
                        values.bytesStart(0),
                        values.bytesLength(0),
                        StandardCharsets.ISO_8859_1);
        }
    }
}
