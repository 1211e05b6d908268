package io.tfstream.payload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.SerializedRecords;
import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.parse.example.ParsedBatch;
import io.tfstream.parse.sequence.ParsedSequenceBatch;
import io.tfstream.parse.sequence.SequenceExampleBatchParser;
import io.tfstream.proto.v1.TensorBatch;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.SparseFeature;
import io.tfstream.tensor.Tensor;
import io.tfstream.testing.WireEdgeCaseGenerator;
import io.tfstream.testing.sequence.NestedRaggedRecords;
import io.tfstream.testing.sequence.RandomSequenceExamples;
import io.tfstream.testkit.ProtoFeatures;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;
import org.tensorflow.example.Features;
import org.tensorflow.framework.DataType;
import org.tensorflow.framework.TensorProto;

/**
 * {@link TensorBatchCodec}: every kind of parsed output survives encode → bytes → decode unchanged,
 * and the tensors have the names, dtypes, shapes and little-endian content of the contract.
 */
class TensorBatchCodecTest {
    private static TensorBatch wire(TensorBatch.Builder b) throws Exception {
        return TensorBatch.parseFrom(b.build().toByteArray());
    }

    @Test
    void randomExampleBatchesRoundTrip() throws Exception {
        WireEdgeCaseGenerator gen = new WireEdgeCaseGenerator(17);
        int batches = 0;
        for (int round = 0; round < 300; round++) {
            FeatureSpecs spec = gen.randomSpec();
            ExampleBatchParser parser;
            try {
                parser = ExampleBatchParser.create(spec, ParseLimits.none());
            } catch (IllegalArgumentException rejectedSpec) {
                continue;
            }
            ParsedBatch parsed;
            try {
                parsed = parser.parse(SerializedRecords.of(gen.batch(spec, round % 9, 0)));
            } catch (ExampleParseException e) {
                continue;
            }
            TensorBatch m = wire(TensorBatchCodec.encode(parsed));
            assertEquals(parsed.rows(), m.getRows());
            assertEquals(parsed.features(), TensorBatchCodec.decode(m, ""), "round " + round);
            batches++;
        }
        assertTrue(batches > 150, "batches checked: " + batches);
    }

    @Test
    void randomSequenceBatchesRoundTripUnderTheirPrefixes() throws Exception {
        RandomSequenceExamples gen = new RandomSequenceExamples(5);
        for (int round = 0; round < 100; round++) {
            SequenceFeatureSpecs spec = gen.spec();
            List<byte[]> records = new ArrayList<>();
            for (int i = 0; i < 1 + round % 5; i++) {
                records.add(gen.record(spec));
            }
            ParsedSequenceBatch parsed =
                    SequenceExampleBatchParser.create(spec, ParseLimits.none())
                            .parse(SerializedRecords.of(records));
            TensorBatch m = wire(TensorBatchCodec.encode(parsed));
            assertEquals(parsed.context(), TensorBatchCodec.decode(m, TensorBatchCodec.CONTEXT));
            assertEquals(
                    parsed.featureLists(),
                    TensorBatchCodec.decode(m, TensorBatchCodec.FEATURE_LIST));
            assertEquals(
                    Map.copyOf(parsed.featureListLengths()),
                    Map.copyOf(TensorBatchCodec.decode(m, TensorBatchCodec.FEATURE_LIST_LENGTHS)));
        }
        ParsedSequenceBatch nested =
                SequenceExampleBatchParser.create(NestedRaggedRecords.specs(), ParseLimits.none())
                        .parse(
                                SerializedRecords.of(
                                        List.of(
                                                NestedRaggedRecords.EX0,
                                                NestedRaggedRecords.EX1,
                                                NestedRaggedRecords.EX2)));
        TensorBatch m = wire(TensorBatchCodec.encode(nested));
        assertEquals(
                nested.featureLists(), TensorBatchCodec.decode(m, TensorBatchCodec.FEATURE_LIST));
        assertEquals(nested.context(), TensorBatchCodec.decode(m, TensorBatchCodec.CONTEXT));
    }

    @Test
    void namesDtypesShapesAndContentFollowTheContract() throws Exception {
        FeatureSpecs spec =
                FeatureSpecs.of(
                        Map.<String, FeatureSpec>of(
                                "sp",
                                new SparseFeature(
                                        List.of("idx"), "val", DType.FLOAT32, List.of(5L), false),
                                "r",
                                new RaggedFeature(
                                        DType.INT64,
                                        "v",
                                        List.of(new Partition.UniformRowLength(2)),
                                        RowSplitsDType.INT32)));
        byte[] r0 =
                Example.newBuilder()
                        .setFeatures(
                                Features.newBuilder()
                                        .putFeature("val", ProtoFeatures.floats(1.5f))
                                        .putFeature("idx", ProtoFeatures.int64s(3))
                                        .putFeature("v", ProtoFeatures.int64s(1, 2, 3, 4)))
                        .build()
                        .toByteArray();
        byte[] r1 =
                Example.newBuilder()
                        .setFeatures(
                                Features.newBuilder()
                                        .putFeature("val", ProtoFeatures.floats(-2f))
                                        .putFeature("idx", ProtoFeatures.int64s(0))
                                        .putFeature("v", ProtoFeatures.int64s()))
                        .build()
                        .toByteArray();
        ParsedBatch parsed =
                ExampleBatchParser.create(spec).parse(SerializedRecords.of(List.of(r0, r1)));
        TensorBatch m = wire(TensorBatchCodec.encode(parsed));
        assertEquals(
                List.of("r/row_splits", "r/values", "sp/dense_shape", "sp/indices", "sp/values"),
                m.getTensorsMap().keySet().stream().sorted().toList());
        // uniform_row_length 2 is the values' inner dimension: [[1, 2], [3, 4]] under splits [0, 2,
        // 2]
        assertEquals(2, m.getTensorsOrThrow("r/values").getTensorShape().getDim(1).getSize());
        TensorProto splits = m.getTensorsOrThrow("r/row_splits");
        assertEquals(DataType.DT_INT32, splits.getDtype());
        assertEquals(le32(0, 2, 2), splits.getTensorContent());
        TensorProto indices = m.getTensorsOrThrow("sp/indices");
        assertEquals(DataType.DT_INT64, indices.getDtype());
        assertEquals(2, indices.getTensorShape().getDim(0).getSize());
        assertEquals(2, indices.getTensorShape().getDim(1).getSize());
        assertEquals(le64(0, 3, 1, 0), indices.getTensorContent());
        TensorProto values = m.getTensorsOrThrow("sp/values");
        assertEquals(DataType.DT_FLOAT, values.getDtype());
        ByteBuffer f =
                ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putFloat(1.5f).putFloat(-2f);
        assertEquals(ByteString.copyFrom(f.array()), values.getTensorContent());
        assertEquals(le64(2, 5), m.getTensorsOrThrow("sp/dense_shape").getTensorContent());
        SortedMap<String, Tensor> back = TensorBatchCodec.decode(m, "");
        assertEquals(parsed.features(), back);
    }

    @Test
    void contentThatDoesNotMatchItsShapeIsRefused() {
        TensorBatch m =
                TensorBatch.newBuilder()
                        .putTensors(
                                "x",
                                TensorProto.newBuilder()
                                        .setDtype(DataType.DT_INT64)
                                        .setTensorShape(
                                                org.tensorflow.framework.TensorShapeProto
                                                        .newBuilder()
                                                        .addDim(
                                                                org.tensorflow.framework
                                                                        .TensorShapeProto.Dim
                                                                        .newBuilder()
                                                                        .setSize(2)))
                                        .setTensorContent(le64(1))
                                        .build())
                        .build();
        assertEquals(
                "tensor 'x' has 8 content bytes, its shape needs 16",
                assertThrows(IllegalArgumentException.class, () -> TensorBatchCodec.decode(m, ""))
                        .getMessage());
    }

    private static ByteString le64(long... v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (long x : v) {
            b.putLong(x);
        }
        return ByteString.copyFrom(b.array());
    }

    private static ByteString le32(int... v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int x : v) {
            b.putInt(x);
        }
        return ByteString.copyFrom(b.array());
    }

    /**
     * A payload is input: a tensor declaring a huge or negative shape is refused before anything is
     * allocated, naming the tensor (a 2^40-element int64 tensor in a few bytes would otherwise ask
     * for 8 TiB).
     */
    @Test
    void aHugeOrNegativeDeclaredShapeIsRefusedBeforeAllocating() {
        for (long[] dims :
                new long[][] {{1L << 40}, {1L << 20, 1L << 20, 1L << 20}, {-1}, {1 << 28}}) {
            org.tensorflow.framework.TensorShapeProto.Builder shape =
                    org.tensorflow.framework.TensorShapeProto.newBuilder();
            for (long d : dims) {
                shape.addDim(org.tensorflow.framework.TensorShapeProto.Dim.newBuilder().setSize(d));
            }
            for (DataType dtype : new DataType[] {DataType.DT_INT64, DataType.DT_FLOAT}) {
                TensorBatch m =
                        TensorBatch.newBuilder()
                                .putTensors(
                                        "x",
                                        TensorProto.newBuilder()
                                                .setDtype(dtype)
                                                .setTensorShape(shape)
                                                .setTensorContent(ByteString.copyFrom(new byte[8]))
                                                .build())
                                .build();
                IllegalArgumentException e =
                        assertThrows(
                                IllegalArgumentException.class,
                                () -> TensorBatchCodec.decode(m, ""));
                // 2^28 elements fit an array but not the payload's decoding budget
                assertTrue(
                        e.getMessage().startsWith("tensor 'x'")
                                || e.getMessage().endsWith("(the decoding budget)"),
                        e.getMessage());
            }
        }
    }

    /**
     * A payload of a few hundred bytes whose tensors declare gigabytes in total is refused by the
     * decoding budget before anything is allocated, each tensor within an array's reach.
     */
    @Test
    void aPayloadDeclaringGigabytesInTotalIsRefusedBeforeAllocating() {
        TensorBatch.Builder b = TensorBatch.newBuilder();
        for (int i = 0; i < 8; i++) {
            b.putTensors(
                    "f" + i,
                    TensorProto.newBuilder()
                            .setDtype(DataType.DT_INT64)
                            .setTensorShape(
                                    org.tensorflow.framework.TensorShapeProto.newBuilder()
                                            .addDim(
                                                    org.tensorflow.framework.TensorShapeProto.Dim
                                                            .newBuilder()
                                                            .setSize(1L << 26)))
                            .setTensorContent(ByteString.copyFrom(new byte[8]))
                            .build());
        }
        TensorBatch message = b.build();
        assertTrue(message.getSerializedSize() < 400, "bytes " + message.getSerializedSize());
        String msg =
                assertThrows(
                                IllegalArgumentException.class,
                                () -> TensorBatchCodec.decode(message, ""))
                        .getMessage();
        assertTrue(msg.contains("bytes in total (the decoding budget)"), msg);
        // Allowed more, the same payload fails on its first tensor's content instead.
        String content =
                assertThrows(
                                IllegalArgumentException.class,
                                () -> TensorBatchCodec.decode(message, "", 1L << 33))
                        .getMessage();
        assertTrue(content.contains("content bytes, its shape needs"), content);
        assertEquals(64L << 20, TensorBatchCodec.defaultMaxTotalBytes(1000));
        assertEquals(1024L << 20, TensorBatchCodec.defaultMaxTotalBytes(1 << 20));
    }
}
