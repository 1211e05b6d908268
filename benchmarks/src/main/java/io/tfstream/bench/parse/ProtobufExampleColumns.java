package io.tfstream.bench.parse;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Float32Buffer;
import io.tfstream.tensor.Int64Buffer;
import java.util.List;
import java.util.Map;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;

/**
 * The protobuf-java baseline: {@code Example.parseFrom} per record, then the values of every
 * requested feature copied into the same flat primitive columns the parser outputs (dense values,
 * VarLen values with sparse indices, ragged values with row splits). Error handling is limited to
 * what the benchmark inputs need.
 */
final class ProtobufExampleColumns {
    private final String[] names;
    private final DType[] dtypes;
    private final int[] stride; // values per row for FixedLen, 0 for VarLen / Ragged
    private final boolean[] sparse;

    ProtobufExampleColumns(FeatureSpecs specs) {
        int n = specs.size();
        names = new String[n];
        dtypes = new DType[n];
        stride = new int[n];
        sparse = new boolean[n];
        int i = 0;
        for (Map.Entry<String, FeatureSpec> e : specs.features().entrySet()) {
            names[i] = e.getKey();
            dtypes[i] = e.getValue().dtype();
            if (e.getValue() instanceof FixedLenFeature f) {
                stride[i] = (int) f.numElements();
            }
            sparse[i] = e.getValue() instanceof VarLenFeature;
            i++;
        }
    }

    /** Parses {@code records}; returns a value that depends on every output (for the blackhole). */
    long parse(List<byte[]> records) throws InvalidProtocolBufferException {
        int rows = records.size();
        int k = names.length;
        Int64Buffer[] longs = new Int64Buffer[k];
        Float32Buffer[] floats = new Float32Buffer[k];
        BytesBuffer[] bytes = new BytesBuffer[k];
        int[][] ends = new int[k][];
        for (int j = 0; j < k; j++) {
            int hint = Math.max(stride[j] * rows, 16);
            switch (dtypes[j]) {
                case INT64:
                    longs[j] = new Int64Buffer(hint);
                    break;
                case FLOAT32:
                    floats[j] = new Float32Buffer(hint);
                    break;
                default:
                    bytes[j] = new BytesBuffer(hint, hint * 8);
            }
            if (stride[j] == 0) {
                ends[j] = new int[rows + 1];
            }
        }
        for (int r = 0; r < rows; r++) {
            Map<String, Feature> map =
                    Example.parseFrom(records.get(r)).getFeatures().getFeatureMap();
            for (int j = 0; j < k; j++) {
                Feature f = map.get(names[j]);
                int n = f == null ? 0 : append(f, longs[j], floats[j], bytes[j]);
                if (stride[j] == 0) {
                    ends[j][r + 1] = ends[j][r] + n;
                } else if (n != stride[j]) {
                    throw new IllegalStateException(names[j] + " has " + n + " values");
                }
            }
        }
        long check = 0;
        for (int j = 0; j < k; j++) {
            if (sparse[j]) {
                check += sparseIndices(ends[j], rows).length;
            } else if (stride[j] == 0) {
                long[] splits = new long[rows + 1];
                for (int r = 0; r <= rows; r++) {
                    splits[r] = ends[j][r];
                }
                check += splits[rows];
            }
            check += longs[j] != null ? longs[j].size() : 0;
            check += floats[j] != null ? floats[j].size() : 0;
            check += bytes[j] != null ? bytes[j].size() : 0;
        }
        return check;
    }

    private static int append(Feature f, Int64Buffer longs, Float32Buffer floats, BytesBuffer b) {
        switch (f.getKindCase()) {
            case INT64_LIST:
                Int64List l = f.getInt64List();
                for (int i = 0; i < l.getValueCount(); i++) {
                    longs.add(l.getValue(i));
                }
                return l.getValueCount();
            case FLOAT_LIST:
                FloatList fl = f.getFloatList();
                for (int i = 0; i < fl.getValueCount(); i++) {
                    floats.add(fl.getValue(i));
                }
                return fl.getValueCount();
            case BYTES_LIST:
                return appendBytes(f, b);
            default:
                return 0;
        }
    }

    /** Copies the strings of a bytes feature into {@code b}; returns their count. */
    static int appendBytes(Feature f, BytesBuffer b) {
        List<ByteString> bl = f.getBytesList().getValueList();
        for (ByteString s : bl) {
            int at = b.reserveBytes(s.size());
            s.copyTo(b.data(), at);
        }
        return bl.size();
    }

    private static long[] sparseIndices(int[] ends, int rows) {
        long[] indices = new long[ends[rows] * 2];
        int k = 0;
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < ends[r + 1] - ends[r]; j++) {
                indices[k++] = r;
                indices[k++] = j;
            }
        }
        return indices;
    }
}
