package io.tfstream.parse;

/**
 * The Examples of a batch of converted records ({@link RecordDecoder}), record by record as the
 * batch: those written during the parse, the others converted when first asked for (a dead letter's
 * own parse, validation reading a row again, the records an output carries). Valid as long as the
 * parser that made it is not used from another thread.
 */
public final class ConvertedExamples implements SerializedRecords {
    private final SerializedRecords inputs;
    private final RecordDecoder decoder;
    private final ExampleBuilder builder;
    private final byte[][] examples;

    public ConvertedExamples(
            SerializedRecords inputs, RecordDecoder decoder, ExampleBuilder builder) {
        this.inputs = inputs;
        this.decoder = decoder;
        this.builder = builder;
        this.examples = new byte[inputs.size()][];
    }

    public void set(int i, byte[] example) {
        examples[i] = example;
    }

    /**
     * The Example of record {@code i} (the caller's to keep, not to change).
     *
     * @throws IllegalStateException when the record does not convert
     */
    public byte[] example(int i) {
        byte[] e = examples[i];
        if (e == null) {
            String why =
                    decoder.decode(inputs.buffer(i), inputs.offset(i), inputs.length(i), builder);
            if (why != null) {
                throw new IllegalStateException("record " + i + " does not convert: " + why);
            }
            e = examples[i] = builder.toBytes();
        }
        return e;
    }

    @Override
    public int size() {
        return inputs.size();
    }

    @Override
    public byte[] buffer(int i) {
        return example(i);
    }

    @Override
    public int offset(int i) {
        return 0;
    }

    @Override
    public int length(int i) {
        return example(i).length;
    }

    @Override
    public String name(int i) {
        return inputs.name(i);
    }
}
