package io.tfstream.operators.convert;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.convert.ConvertFeatures;
import io.tfstream.convert.ExampleConverter;
import io.tfstream.convert.ExampleConverters;
import io.tfstream.spec.ParseSpec;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.MetricGroup;

/**
 * JSON or Avro conversion inside a batch-and-parse operator whose schema can change while the job
 * runs ({@code schema.update: poll}): a record is converted to the Example of the schema in force,
 * the one its batch is then parsed with, and the converter is rebuilt from the new spec at each
 * switch ({@link #switchTo}). Behaves as {@link ConvertFunction} otherwise: {@code
 * conversion_error} dead letters with the original bytes, the same metric names under {@code
 * tfstream} ({@code convertRecordsIn}, {@code converted}, {@code conversionErrors}, {@code
 * ignoredFields}), conversion errors counted by the dead-letter guard.
 */
@Internal
public final class LiveConversion {
    private final ConvertSettings settings;
    private final ConversionStep step;
    private ExampleConverter converter;

    /** The conversion to {@code spec}'s Examples, its metrics in {@code group}. */
    public LiveConversion(ConvertSettings settings, ParseSpec spec, MetricGroup group) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.converter = create(settings, spec);
        this.step = new ConversionStep(settings, group);
    }

    /**
     * Why records cannot convert to {@code next}'s Examples (an Avro writer field whose type no
     * longer fits its feature, a refused logical type, a SequenceExample schema), or null.
     */
    public static String problem(ConvertSettings settings, ParseSpec next) {
        try {
            create(settings, next);
            return null;
        } catch (IllegalArgumentException e) {
            return "source.format "
                    + settings.format().name().toLowerCase(Locale.ROOT)
                    + " cannot convert to it: "
                    + e.getMessage();
        }
    }

    private static ExampleConverter create(ConvertSettings s, ParseSpec spec) {
        return ExampleConverters.create(
                s.format(), ConvertFeatures.of(spec), s.options(), s.avroSchemaJson());
    }

    /** Converts the records after this call to {@code next}'s Examples ({@link #problem} null). */
    public void switchTo(ParseSpec next) {
        converter = create(settings, next);
    }

    /**
     * {@code r} with its value converted, or null when it does not convert: then its dead letter
     * went to {@code deadLetters}, naming {@code fingerprint}, the schema in force.
     *
     * @throws SuppressRestartsException when the dead-letter guard trips
     */
    public SourceRecord convert(
            SourceRecord r, String fingerprint, Consumer<DeadLetter> deadLetters, long now) {
        return step.convert(converter, r, fingerprint, deadLetters, now);
    }
}
