package io.tfstream.parse.example;

import io.tfstream.parse.wire.KeyColumn;
import io.tfstream.parse.wire.RawKey;
import io.tfstream.spec.DType;
import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Float32Buffer;
import io.tfstream.tensor.Int64Buffer;
import java.util.HashMap;
import java.util.Map;

/**
 * A read-only view of the per-key columns of an {@link ExampleBatchParser}'s last parse, before
 * they became tensors: for each requested key and row whether the record had the key ({@link
 * #PRESENT}, {@link #NO_KIND} for a {@code Feature{}} without values, {@link #ABSENT}) and where
 * its values are in the key's buffer. Rows are those of the returned batch, in order.
 *
 * <p>Only rows the parser's one-pass path read alone are described: an {@link #irregular} row
 * (repeated keys, a dense key with a {@code Feature{}} entry, anything the kernel's last-wins pass
 * had to settle) has values as TensorFlow resolved them but no row state; callers that need to know
 * exactly what the record held read such rows from their bytes. Valid until the parser's next
 * parse.
 */
public final class RawColumns {
    public static final byte ABSENT = 0;
    public static final byte PRESENT = 1;
    public static final byte NO_KIND = 2;

    private final KeyColumn[] columns;
    private final Map<String, Integer> byName = new HashMap<>();
    private int rows;
    private boolean[] irregular;
    private boolean[] unrequested;

    RawColumns(KeyColumn[] columns) {
        this.columns = columns;
        for (int c = 0; c < columns.length; c++) {
            byName.put(columns[c].key.name, c);
        }
    }

    void set(int rows, boolean[] irregular, boolean[] unrequested) {
        this.rows = rows;
        this.irregular = irregular;
        this.unrequested = unrequested;
    }

    public int rows() {
        return rows;
    }

    /** The column of key {@code name}, or -1 when the spec does not request it. */
    public int column(String name) {
        Integer c = byName.get(name);
        return c == null ? -1 : c;
    }

    public DType dtype(int column) {
        return columns[column].key.dtype;
    }

    /**
     * Whether the key's rows hold a fixed number of values ({@link #stride}), defaults included.
     */
    public boolean fixed(int column) {
        return columns[column].key.kind == RawKey.Kind.DENSE_FIXED;
    }

    /** Values per row of a {@link #fixed} column. */
    public int stride(int column) {
        return columns[column].key.stride;
    }

    /** Whether row {@code row} was not read by the one-pass path alone (see the class comment). */
    public boolean irregular(int row) {
        return irregular[row];
    }

    /** Whether row {@code row}'s record has keys the spec does not request. */
    public boolean unrequested(int row) {
        return unrequested[row];
    }

    /** {@link #ABSENT}, {@link #PRESENT} or {@link #NO_KIND}; meaningless for irregular rows. */
    public byte state(int column, int row) {
        return columns[column].rowState[row];
    }

    /** The per-row states of {@code column} (index = row), for tight loops; do not modify. */
    public byte[] states(int column) {
        return columns[column].rowState;
    }

    /**
     * The cumulative value count at the end of every row of a variable-length column ({@code
     * ends[row]} to {@code ends[row + 1]} are the row's values); do not modify.
     */
    public int[] ends(int column) {
        return columns[column].ends;
    }

    /** The first value of row {@code row} in the column's buffer. */
    public int from(int column, int row) {
        KeyColumn c = columns[column];
        return c.key.kind == RawKey.Kind.DENSE_FIXED ? row * c.key.stride : c.ends[row];
    }

    /** One past the last value of row {@code row}. */
    public int to(int column, int row) {
        KeyColumn c = columns[column];
        return c.key.kind == RawKey.Kind.DENSE_FIXED ? (row + 1) * c.key.stride : c.ends[row + 1];
    }

    public Int64Buffer int64s(int column) {
        return columns[column].int64s;
    }

    public Float32Buffer floats(int column) {
        return columns[column].floats;
    }

    public BytesBuffer bytes(int column) {
        return columns[column].bytes;
    }
}
