package io.tfstream.testkit;

import com.google.protobuf.ByteString;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Feature;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;

/** {@code tf.train.Feature} values built with protobuf-java, for tests that write Examples. */
public final class ProtoFeatures {
    private ProtoFeatures() {}

    public static Feature int64s(long... values) {
        Int64List.Builder b = Int64List.newBuilder();
        for (long v : values) {
            b.addValue(v);
        }
        return Feature.newBuilder().setInt64List(b).build();
    }

    public static Feature floats(float... values) {
        FloatList.Builder b = FloatList.newBuilder();
        for (float v : values) {
            b.addValue(v);
        }
        return Feature.newBuilder().setFloatList(b).build();
    }

    public static Feature strings(String... values) {
        BytesList.Builder b = BytesList.newBuilder();
        for (String v : values) {
            b.addValue(ByteString.copyFromUtf8(v));
        }
        return Feature.newBuilder().setBytesList(b).build();
    }

    public static Feature bytes(byte[]... values) {
        BytesList.Builder b = BytesList.newBuilder();
        for (byte[] v : values) {
            b.addValue(ByteString.copyFrom(v));
        }
        return Feature.newBuilder().setBytesList(b).build();
    }
}
