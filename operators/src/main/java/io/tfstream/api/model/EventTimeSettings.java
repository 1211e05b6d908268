package io.tfstream.api.model;

import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.VarLenFeature;
import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Where a record's event time comes from: the Kafka record timestamp, or the first value of an
 * int64 feature of the schema (a context feature for SequenceExamples) in epoch milliseconds or
 * seconds.
 *
 * @param source the source of event time
 * @param feature the int64 feature, for {@link Source#FEATURE}
 * @param unit the feature's unit, for {@link Source#FEATURE}
 */
@PublicEvolving
public record EventTimeSettings(Source source, String feature, Unit unit) implements Serializable {
    /** Largest event time accepted from a feature: 9999-12-31T23:59:59.999Z. */
    public static final long MAX_EPOCH_MILLIS = 253402300799999L;

    public EventTimeSettings {
        Objects.requireNonNull(source, "source");
        if (source == Source.FEATURE) {
            if (feature == null || feature.isEmpty()) {
                throw new IllegalArgumentException("event time from a feature needs its name");
            }
            Objects.requireNonNull(unit, "unit");
        }
    }

    /** Event time is the Kafka record timestamp. */
    public static EventTimeSettings kafkaTimestamp() {
        return new EventTimeSettings(Source.KAFKA_TIMESTAMP, null, null);
    }

    /** Event time is the first value of int64 feature {@code name}, in {@code unit}. */
    public static EventTimeSettings feature(String name, Unit unit) {
        return new EventTimeSettings(Source.FEATURE, name, unit);
    }

    /**
     * Why {@code spec} cannot give event time from {@code feature} (it must be an int64 FixedLen,
     * VarLen or Ragged feature, of the context for SequenceExamples), or null when it can.
     */
    public static String featureProblem(ParseSpec spec, String feature) {
        FeatureSpecs features =
                spec instanceof SequenceFeatureSpecs s ? s.context() : (FeatureSpecs) spec;
        FeatureSpec f = features.features().get(feature);
        DType dtype =
                f instanceof FixedLenFeature x
                        ? x.dtype()
                        : f instanceof VarLenFeature v
                                ? v.dtype()
                                : f instanceof RaggedFeature r ? r.dtype() : null;
        if (dtype == DType.INT64) {
            return null;
        }
        return f == null ? "it has no such feature" : "it is " + f;
    }

    /** The source of event time. */
    public enum Source {
        KAFKA_TIMESTAMP,
        FEATURE
    }

    /** The unit of an event-time feature. */
    public enum Unit {
        MILLIS(1),
        SECONDS(1000);

        private final long millis;

        Unit(long millis) {
            this.millis = millis;
        }

        /** The largest value accepted in this unit. */
        public long toEpochMillisLimit() {
            return MAX_EPOCH_MILLIS / millis;
        }

        /** The event time in epoch milliseconds, or -1 when {@code v} is out of range. */
        public long toEpochMillis(long v) {
            if (v < 0 || v > MAX_EPOCH_MILLIS / millis) {
                return -1;
            }
            return v * millis;
        }
    }
}
