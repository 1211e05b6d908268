package io.tfstream.convert;

import io.tfstream.parse.ExampleBuilder;

/** What the JSON and Avro converters share: the Example written through {@link #convertInto}. */
abstract class BuildingConverter implements ExampleConverter {
    private final ExampleBuilder example;

    /** Fields of the record being converted that name no feature. */
    int ignored;

    BuildingConverter(ConvertFeatures features) {
        this.example = features.exampleBuilder();
    }

    @Override
    public final byte[] convert(byte[] in, int off, int len) throws ConversionException {
        convertInto(in, off, len, example);
        return example.toBytes();
    }

    @Override
    public final int ignoredFields() {
        return ignored;
    }
}
