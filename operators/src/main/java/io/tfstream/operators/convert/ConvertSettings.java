package io.tfstream.operators.convert;

import io.tfstream.api.model.DeadLetterGuard;
import io.tfstream.convert.ConvertFeatures;
import io.tfstream.convert.ConvertOptions;
import io.tfstream.convert.ConverterDecoder;
import io.tfstream.convert.ExampleConverter;
import io.tfstream.convert.ExampleConverters;
import io.tfstream.convert.InputFormat;
import io.tfstream.spec.ParseSpec;
import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * What the convert operator needs, small and serializable: the input format, the features to write
 * (names and types), the conversion options, the Avro writer schema as {@code .avsc} text (parsed
 * on the task) and the dead-letter guard.
 */
@Internal
public record ConvertSettings(
        InputFormat format,
        ConvertFeatures features,
        ConvertOptions options,
        String avroSchemaJson,
        DeadLetterGuard guard)
        implements Serializable {

    public ConvertSettings {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(features, "features");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(guard, "guard");
        if (format == InputFormat.EXAMPLE) {
            throw new IllegalArgumentException("source.format example needs no conversion");
        }
        if (format == InputFormat.AVRO && avroSchemaJson == null) {
            throw new IllegalArgumentException("Avro input needs its writer schema");
        }
    }

    /** A new converter (refuses an Avro schema that cannot convert, naming the field). */
    public ExampleConverter converter() {
        return ExampleConverters.create(format, features, options, avroSchemaJson);
    }

    /**
     * A new decoder of records straight into the parse of {@code spec}'s Examples (the features of
     * {@code spec}, which may be a schema taken up after these settings were made).
     *
     * @throws IllegalArgumentException when records cannot convert to {@code spec}'s Examples
     */
    public ConverterDecoder decoder(ParseSpec spec) {
        ConvertFeatures f = ConvertFeatures.of(spec);
        return new ConverterDecoder(
                ExampleConverters.create(format, f, options, avroSchemaJson), f);
    }

    /**
     * Why records cannot convert to {@code next}'s Examples (an Avro writer field whose type no
     * longer fits its feature, a refused logical type, a SequenceExample schema), or null.
     */
    public String problem(ParseSpec next) {
        try {
            decoder(next);
            return null;
        } catch (IllegalArgumentException e) {
            return "source.format "
                    + format.name().toLowerCase(java.util.Locale.ROOT)
                    + " cannot convert to it: "
                    + e.getMessage();
        }
    }
}
