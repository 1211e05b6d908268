package io.tfstream.parse.composite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.parse.GoldenCases;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.parse.example.ParsedExample;
import io.tfstream.parse.example.SingleExampleParser;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.tensor.RaggedTensor;
import io.tfstream.tensor.Tensor;
import io.tfstream.testing.FeatureWire;
import io.tfstream.testing.NestedText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Properties of RaggedFeature partitions on random ragged shapes: every partition kind that encodes
 * the same shape (row_splits, row_lengths, row_starts, row_limits, value_rowids, at one or two
 * levels) gives the same tensor, in a batch and for a single example, and that tensor is the ragged
 * list the records were built from; a uniform row length equals row lengths of that constant.
 */
class RaggedPartitionPropertyTest {
    private static final List<String> KINDS =
            List.of("splits", "lengths", "starts", "limits", "rowids");

    private final Random rnd = new Random(31);

    /** One example: outer rows of middle rows of values. */
    private List<List<List<Long>>> example() {
        List<List<List<Long>>> outer = new ArrayList<>();
        long next = 0;
        for (int o = rnd.nextInt(4); o > 0; o--) {
            List<List<Long>> mid = new ArrayList<>();
            for (int m = rnd.nextInt(4); m > 0; m--) {
                List<Long> v = new ArrayList<>();
                for (int i = rnd.nextInt(4); i > 0; i--) {
                    v.add(next++);
                }
                mid.add(v);
            }
            outer.add(mid);
        }
        // value_rowids cannot express trailing empty rows: the last row of each level is filled.
        if (!outer.isEmpty()) {
            List<List<Long>> last = outer.get(outer.size() - 1);
            if (last.isEmpty()) {
                last.add(new ArrayList<>());
            }
            List<Long> lastMid = last.get(last.size() - 1);
            if (lastMid.isEmpty()) {
                lastMid.add(next);
            }
        }
        return outer;
    }

    private static long[] encode(String kind, List<Integer> lengths) {
        int n = lengths.size();
        switch (kind) {
            case "lengths":
                return lengths.stream().mapToLong(Integer::longValue).toArray();
            case "rowids":
                {
                    List<Long> ids = new ArrayList<>();
                    for (int r = 0; r < n; r++) {
                        for (int i = 0; i < lengths.get(r); i++) {
                            ids.add((long) r);
                        }
                    }
                    return ids.stream().mapToLong(Long::longValue).toArray();
                }
            default:
                long[] splits = new long[n + 1];
                for (int r = 0; r < n; r++) {
                    splits[r + 1] = splits[r] + lengths.get(r);
                }
                if (kind.equals("splits")) {
                    return splits;
                }
                return kind.equals("starts")
                        ? java.util.Arrays.copyOf(splits, n)
                        : java.util.Arrays.copyOfRange(splits, 1, n + 1);
        }
    }

    private static Partition partition(String kind, String key) {
        switch (kind) {
            case "splits":
                return new Partition.RowSplits(key);
            case "lengths":
                return new Partition.RowLengths(key);
            case "starts":
                return new Partition.RowStarts(key);
            case "limits":
                return new Partition.RowLimits(key);
            default:
                return new Partition.ValueRowIds(key);
        }
    }

    private static byte[] record(List<List<List<Long>>> ex) {
        List<byte[]> entries = new ArrayList<>();
        List<Integer> outerLen = new ArrayList<>();
        List<Integer> midLen = new ArrayList<>();
        List<Long> values = new ArrayList<>();
        for (List<List<Long>> mid : ex) {
            outerLen.add(mid.size());
            for (List<Long> v : mid) {
                midLen.add(v.size());
                values.addAll(v);
            }
        }
        entries.add(
                FeatureWire.entry(
                        "v",
                        FeatureWire.int64Feature(
                                values.stream().mapToLong(Long::longValue).toArray())));
        for (String k : KINDS) {
            entries.add(FeatureWire.entry("o_" + k, FeatureWire.int64Feature(encode(k, outerLen))));
            entries.add(FeatureWire.entry("i_" + k, FeatureWire.int64Feature(encode(k, midLen))));
        }
        return FeatureWire.example(entries);
    }

    private static FeatureSpecs specs(RowSplitsDType dtype) {
        Map<String, FeatureSpec> m = new LinkedHashMap<>();
        for (String o : KINDS) {
            m.put("one_" + o, rf(dtype, partition(o, "i_" + o)));
            for (String i : KINDS) {
                m.put(
                        "two_" + o + "_" + i,
                        rf(dtype, partition(o, "o_" + o), partition(i, "i_" + i)));
            }
        }
        return FeatureSpecs.of(m);
    }

    private static RaggedFeature rf(RowSplitsDType dtype, Partition... parts) {
        return new RaggedFeature(DType.INT64, "v", List.of(parts), dtype);
    }

    private static String python(Object nested) {
        return nested.toString().replace(" ", "");
    }

    @Test
    void everyEncodingOfOneShapeGivesOneTensor() throws Exception {
        for (int round = 0; round < 60; round++) {
            RowSplitsDType dtype = round % 2 == 0 ? RowSplitsDType.INT32 : RowSplitsDType.INT64;
            FeatureSpecs specs = specs(dtype);
            int size = rnd.nextInt(6);
            List<List<List<List<Long>>>> batch = new ArrayList<>();
            byte[][] recs = new byte[size][];
            for (int b = 0; b < size; b++) {
                batch.add(example());
                recs[b] = record(batch.get(b));
            }
            ParsedBatch parsed = GoldenCases.parse(specs, recs);
            checkAllEqual(parsed.features()::get, python(batch), flatten(batch));
            SingleExampleParser single = SingleExampleParser.create(specs, ParseLimits.none());
            for (int b = 0; b < size; b++) {
                ParsedExample p = single.parse(recs[b], 0, recs[b].length);
                List<List<Long>> mids = new ArrayList<>();
                batch.get(b).forEach(mids::addAll);
                checkAllEqual(p.features()::get, python(batch.get(b)), python(mids));
            }
        }
    }

    private static String flatten(List<List<List<List<Long>>>> batch) {
        List<List<List<Long>>> out = new ArrayList<>();
        for (List<List<List<Long>>> ex : batch) {
            List<List<Long>> mids = new ArrayList<>();
            ex.forEach(mids::addAll);
            out.add(mids);
        }
        return python(out);
    }

    private static void checkAllEqual(
            Function<String, Tensor> get, String twoLevels, String oneLevel) {
        Tensor ref2 = get.apply("two_splits_splits");
        Tensor ref1 = get.apply("one_splits");
        assertEquals(twoLevels, NestedText.of(ref2));
        assertEquals(oneLevel, NestedText.of(ref1));
        for (String o : KINDS) {
            assertEquals(ref1, get.apply("one_" + o), o);
            for (String i : KINDS) {
                assertEquals(ref2, get.apply("two_" + o + "_" + i), o + "/" + i);
            }
        }
    }

    @Test
    void uniformRowLengthEqualsConstantRowLengths() throws Exception {
        for (int round = 0; round < 40; round++) {
            long len = 1 + rnd.nextInt(3);
            int size = rnd.nextInt(5);
            byte[][] recs = new byte[size][];
            for (int b = 0; b < size; b++) {
                int rows = rnd.nextInt(4);
                long[] inner = new long[rows * (int) len];
                long[] values = new long[0];
                List<Long> vals = new ArrayList<>();
                for (int r = 0; r < inner.length; r++) {
                    inner[r] = rnd.nextInt(3);
                    for (int i = 0; i < inner[r]; i++) {
                        vals.add((long) vals.size());
                    }
                }
                values = vals.stream().mapToLong(Long::longValue).toArray();
                long[] constant = new long[rows];
                java.util.Arrays.fill(constant, len);
                long[] flat = new long[rows * (int) len];
                for (int i = 0; i < flat.length; i++) {
                    flat[i] = i;
                }
                recs[b] =
                        FeatureWire.example(
                                FeatureWire.entry("v", FeatureWire.int64Feature(values)),
                                FeatureWire.entry("w", FeatureWire.int64Feature(flat)),
                                FeatureWire.entry("inner", FeatureWire.int64Feature(inner)),
                                FeatureWire.entry("c", FeatureWire.int64Feature(constant)));
            }
            RowSplitsDType d = RowSplitsDType.INT64;
            FeatureSpecs s =
                    FeatureSpecs.of(
                            Map.of(
                                    "outer_uniform",
                                    rf(
                                            d,
                                            new Partition.UniformRowLength(len),
                                            new Partition.RowLengths("inner")),
                                    "outer_lengths",
                                    rf(
                                            d,
                                            new Partition.RowLengths("c"),
                                            new Partition.RowLengths("inner")),
                                    "inner_uniform",
                                    new RaggedFeature(
                                            DType.INT64,
                                            "w",
                                            List.of(new Partition.UniformRowLength(len)),
                                            d),
                                    "inner_lengths",
                                    new RaggedFeature(
                                            DType.INT64,
                                            "w",
                                            List.of(new Partition.RowLengths("c")),
                                            d)));
            ParsedBatch p = GoldenCases.parse(s, recs);
            assertEquals(p.feature("outer_lengths"), p.feature("outer_uniform"));
            assertEquals(
                    NestedText.of(p.feature("inner_lengths")),
                    NestedText.of(p.feature("inner_uniform")));
            RaggedTensor u = (RaggedTensor) p.feature("inner_uniform");
            assertEquals(1, u.rowSplits().size());
            assertEquals(len, u.valuesShape()[1]);
        }
    }
}
