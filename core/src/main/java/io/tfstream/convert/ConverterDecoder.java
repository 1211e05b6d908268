package io.tfstream.convert;

import io.tfstream.parse.FeatureSink;
import io.tfstream.parse.RecordDecoder;
import io.tfstream.spec.DType;
import java.util.ArrayList;
import java.util.List;

/**
 * A converter as the parser's {@link RecordDecoder}: JSON or Avro values straight into the parse's
 * columns, a {@link ConversionException}'s message as the reason a record is rejected.
 */
public final class ConverterDecoder implements RecordDecoder {
    private final ExampleConverter converter;
    private final List<String> names;
    private final List<DType> types;

    public ConverterDecoder(ExampleConverter converter, ConvertFeatures features) {
        this.converter = converter;
        this.names = new ArrayList<>(features.size());
        this.types = new ArrayList<>(features.size());
        for (int s = 0; s < features.size(); s++) {
            names.add(features.name(s));
            types.add(features.type(s));
        }
    }

    /** The decoder of {@code format} ({@link ExampleConverters#create}). */
    public static ConverterDecoder create(
            InputFormat format,
            ConvertFeatures features,
            ConvertOptions options,
            String avroSchemaJson) {
        return new ConverterDecoder(
                ExampleConverters.create(format, features, options, avroSchemaJson), features);
    }

    @Override
    public List<String> featureNames() {
        return names;
    }

    @Override
    public List<DType> featureTypes() {
        return types;
    }

    @Override
    public String decode(byte[] in, int off, int len, FeatureSink sink) {
        try {
            converter.convertInto(in, off, len, sink);
            return null;
        } catch (ConversionException e) {
            return e.getMessage();
        }
    }

    @Override
    public int ignoredFields() {
        return converter.ignoredFields();
    }
}
