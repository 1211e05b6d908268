package io.tfstream.convert;

/** The converter of an {@link InputFormat}. */
public final class ExampleConverters {
    private ExampleConverters() {}

    /**
     * A new converter for {@code format} (not {@link InputFormat#EXAMPLE}); {@code avroSchemaJson}
     * is the writer schema's {@code .avsc} text, for Avro only.
     */
    public static ExampleConverter create(
            InputFormat format,
            ConvertFeatures features,
            ConvertOptions options,
            String avroSchemaJson) {
        return switch (format) {
            case JSON -> new JsonToExample(features, options);
            case AVRO -> AvroToExample.of(avroSchemaJson, features, options);
            case EXAMPLE -> throw new IllegalArgumentException("Examples need no conversion");
        };
    }
}
