package io.tfstream.parse;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.VarLenFeature;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.SparseTensor;
import io.tfstream.testing.FeatureWire;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Shorthands for writing TensorFlow's golden parse_example cases as Java. */
public final class GoldenCases {
    private GoldenCases() {}

    public static FeatureSpecs specs(Object... nameThenSpec) {
        Map<String, FeatureSpec> m = new LinkedHashMap<>();
        for (int i = 0; i < nameThenSpec.length; i += 2) {
            m.put((String) nameThenSpec[i], (FeatureSpec) nameThenSpec[i + 1]);
        }
        return FeatureSpecs.of(m);
    }

    public static VarLenFeature varLen(DType d) {
        return new VarLenFeature(d);
    }

    public static FixedLenFeature fixed(DType d, long... shape) {
        return FixedLenFeature.required(shape(shape), d);
    }

    public static FixedLenFeature fixed(DType d, DefaultValue dv, long... shape) {
        return FixedLenFeature.withDefault(shape(shape), d, dv);
    }

    public static FixedLenSequenceFeature seq(DType d, DefaultValue pad, long... shape) {
        return new FixedLenSequenceFeature(shape(shape), d, true, Optional.ofNullable(pad));
    }

    public static RaggedFeature ragged(DType d, String key, RowSplitsDType splits) {
        return new RaggedFeature(d, key, List.of(), splits);
    }

    public static List<Long> shape(long... dims) {
        Long[] l = new Long[dims.length];
        for (int i = 0; i < dims.length; i++) {
            l[i] = dims[i];
        }
        return List.of(l);
    }

    public static byte[] ex(byte[]... entries) {
        return FeatureWire.example(entries);
    }

    public static byte[] i64(String key, long... v) {
        return FeatureWire.entry(key, FeatureWire.int64Feature(v));
    }

    public static byte[] f32(String key, float... v) {
        return FeatureWire.entry(key, FeatureWire.floatFeature(v));
    }

    public static byte[] str(String key, String... v) {
        return FeatureWire.entry(key, FeatureWire.stringFeature(v));
    }

    /** {@code feature { key: k value { } }}: a Feature without kind. */
    public static byte[] none(String key) {
        return FeatureWire.entry(key, new byte[0]);
    }

    public static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    public static ParsedBatch parse(FeatureSpecs s, byte[]... records)
            throws ExampleParseException {
        return ExampleBatchParser.create(s, ParseLimits.none()).parse(RecordBatch.of(records));
    }

    public static String error(FeatureSpecs s, byte[]... records) {
        return assertThrows(ExampleParseException.class, () -> parse(s, records)).getMessage();
    }

    public static String errorNamed(FeatureSpecs s, String[] names, byte[]... records) {
        RecordBatch b = new RecordBatch();
        for (int i = 0; i < records.length; i++) {
            b.addNamed(records[i], 0, records[i].length, names[i]);
        }
        ExampleBatchParser p = ExampleBatchParser.create(s, ParseLimits.none());
        return assertThrows(ExampleParseException.class, () -> p.parse(b)).getMessage();
    }

    public static DenseTensor dense(long[] shape, Column values) {
        return new DenseTensor(shape, values);
    }

    public static SparseTensor sparse(long[][] indices, Column values, long... denseShape) {
        long[] flat = new long[indices.length * 2];
        for (int i = 0; i < indices.length; i++) {
            flat[2 * i] = indices[i][0];
            flat[2 * i + 1] = indices[i][1];
        }
        return new SparseTensor(flat, values, denseShape);
    }

    public static RaggedTensor raggedOf(Column values, RowSplitsDType d, long... splits) {
        return new RaggedTensor(values, new long[] {values.size()}, List.of(splits), d);
    }

    public static Column strings(String... s) {
        byte[][] b = new byte[s.length][];
        for (int i = 0; i < s.length; i++) {
            b[i] = s[i].getBytes(StandardCharsets.UTF_8);
        }
        return Column.strings(b);
    }

    public static long[] dims(long... d) {
        return d;
    }
}
