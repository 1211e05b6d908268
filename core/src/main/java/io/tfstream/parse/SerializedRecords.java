package io.tfstream.parse;

/**
 * A batch of serialized records, each a slice {@code buffer(i)[offset(i), offset(i)+length(i))}.
 * Optional example names play the role of {@code parse_example}'s {@code names} argument.
 */
public interface SerializedRecords {
    /** A view of {@code records} (not copied; the list and arrays must not change meanwhile). */
    static SerializedRecords of(java.util.List<byte[]> records) {
        return new SerializedRecords() {
            @Override
            public int size() {
                return records.size();
            }

            @Override
            public byte[] buffer(int i) {
                return records.get(i);
            }

            @Override
            public int offset(int i) {
                return 0;
            }

            @Override
            public int length(int i) {
                return records.get(i).length;
            }
        };
    }

    int size();

    byte[] buffer(int i);

    int offset(int i);

    int length(int i);

    /** The name TensorFlow prints for record {@code i}: its name, or {@code <unknown>}. */
    default String name(int i) {
        return "<unknown>";
    }

    /** Total bytes of all records. */
    default long totalBytes() {
        long n = 0;
        for (int i = 0; i < size(); i++) {
            n += length(i);
        }
        return n;
    }
}
