package io.tfstream.parse.sequence;

import io.tfstream.parse.wire.WireCursor;
import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.Float32Buffer;
import io.tfstream.tensor.Int64Buffer;

/** The growing flat values of one output tensor, of one dtype, sized from a counting pass. */
final class ValueSink {
    private final DType dtype;
    private final Int64Buffer int64s;
    private final Float32Buffer floats;
    private final BytesBuffer bytes;

    ValueSink(DType dtype, int capacity) {
        this.dtype = dtype;
        this.int64s = dtype == DType.INT64 ? new Int64Buffer(capacity) : null;
        this.floats = dtype == DType.FLOAT32 ? new Float32Buffer(capacity) : null;
        this.bytes =
                dtype == DType.STRING
                        ? new BytesBuffer(capacity, (int) Math.min(capacity * 8L, 1 << 20))
                        : null;
    }

    int read(WireCursor c, int maxBytesPerValue) {
        return SequenceValueReader.read(c, dtype, int64s, floats, bytes, maxBytesPerValue);
    }

    /** Appends {@code n} padding values: 0, 0.0 or the empty string. */
    void pad(long n) {
        for (long i = 0; i < n; i++) {
            switch (dtype) {
                case INT64:
                    int64s.add(0);
                    break;
                case FLOAT32:
                    floats.add(0f);
                    break;
                default:
                    bytes.reserveBytes(0);
            }
        }
    }

    void add(DefaultValue d) {
        for (int i = 0; i < d.size(); i++) {
            switch (dtype) {
                case INT64:
                    int64s.add(d.int64(i));
                    break;
                case FLOAT32:
                    floats.add(d.float32(i));
                    break;
                default:
                    byte[] b = d.bytesAt(i);
                    bytes.add(b, 0, b.length);
            }
        }
    }

    int size() {
        switch (dtype) {
            case INT64:
                return int64s.size();
            case FLOAT32:
                return floats.size();
            default:
                return bytes.size();
        }
    }

    Column column() {
        return Column.of(dtype, int64s, floats, bytes);
    }
}
