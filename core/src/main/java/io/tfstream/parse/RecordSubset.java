package io.tfstream.parse;

/**
 * A view of some records of a batch, in the order of {@code pick[0..n)}; names are kept so that
 * TensorFlow's messages still print the record's own name.
 */
final class RecordSubset implements SerializedRecords {
    private final SerializedRecords all;
    private final int[] pick;
    private final int n;

    private RecordSubset(SerializedRecords all, int[] pick, int n) {
        this.all = all;
        this.pick = pick;
        this.n = n;
    }

    static SerializedRecords of(SerializedRecords all, int[] pick, int n) {
        return new RecordSubset(all, pick, n);
    }

    static SerializedRecords single(SerializedRecords all, int index) {
        return new RecordSubset(all, new int[] {index}, 1);
    }

    @Override
    public int size() {
        return n;
    }

    @Override
    public byte[] buffer(int i) {
        return all.buffer(pick[i]);
    }

    @Override
    public int offset(int i) {
        return all.offset(pick[i]);
    }

    @Override
    public int length(int i) {
        return all.length(pick[i]);
    }

    @Override
    public String name(int i) {
        return all.name(pick[i]);
    }
}
