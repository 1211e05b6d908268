package io.tfstream.proto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.TextFormat;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.tensorflow.framework.DataType;
import org.tensorflow.framework.TensorProto;
import org.tensorflow.framework.TensorShapeProto;
import org.tensorflow.metadata.v0.FeatureType;
import org.tensorflow.metadata.v0.LifecycleStage;
import org.tensorflow.metadata.v0.Schema;
import org.tensorflow.metadata.v0.TensorRepresentation;

/** TFX schemas in text format parse with the generated TFMD classes, fields and presence intact. */
class SchemaTextFormatTest {

    private static Schema load(String resource) throws IOException {
        try (InputStream in = SchemaTextFormatTest.class.getResourceAsStream("/" + resource)) {
            Schema.Builder b = Schema.newBuilder();
            TextFormat.getParser().merge(new String(in.readAllBytes(), StandardCharsets.UTF_8), b);
            return b.build();
        }
    }

    @Test
    void tfxSchemaParses() throws IOException {
        Schema s = load("seed000-sequence-schema.pbtxt");
        assertEquals(4, s.getFeatureCount());
        var intFeature = s.getFeature(0);
        assertEquals(FeatureType.INT, intFeature.getType());
        assertEquals(1.0, intFeature.getPresence().getMinFraction());
        assertEquals(1, intFeature.getValueCount().getMax());

        var index = s.getFeature(1);
        assertTrue(index.getIntDomain().hasMin(), "proto2 presence of int_domain.min kept");
        assertEquals(9, index.getIntDomain().getMax());
        assertEquals(LifecycleStage.PRODUCTION, s.getFeature(2).getLifecycleStage());

        var seq = s.getFeature(3);
        assertEquals("##SEQUENCE##", seq.getName());
        assertEquals(FeatureType.STRUCT, seq.getType());
        assertEquals("string_feature", seq.getStructDomain().getFeature(0).getName());

        assertTrue(s.getSparseFeature(0).getIsSorted());
        assertTrue(s.hasRepresentVariableLengthAsRagged());
        assertFalse(s.getRepresentVariableLengthAsRagged());
        assertEquals("my_domain", s.getStringDomain(0).getName());

        var group = s.getTensorRepresentationGroupMap().get("");
        TensorRepresentation seqRep = group.getTensorRepresentationMap().get("seq_string_feature");
        assertEquals(
                TensorRepresentation.RowPartitionDType.INT32,
                seqRep.getRaggedTensor().getRowPartitionDtype());
        assertEquals(2, seqRep.getRaggedTensor().getFeaturePath().getStepCount());
        TensorRepresentation dense = group.getTensorRepresentationMap().get("dense");
        assertEquals(-1, dense.getDenseTensor().getDefaultValue().getIntValue());
    }

    @Test
    void schemaFieldNumbersMatchUpstream() {
        assertEquals(1, Schema.FEATURE_FIELD_NUMBER);
        assertEquals(6, Schema.SPARSE_FEATURE_FIELD_NUMBER);
        assertEquals(13, Schema.TENSOR_REPRESENTATION_GROUP_FIELD_NUMBER);
        assertEquals(14, Schema.REPRESENT_VARIABLE_LENGTH_AS_RAGGED_FIELD_NUMBER);
        assertEquals("tensorflow.metadata.v0.Schema", Schema.getDescriptor().getFullName());
    }

    @Test
    void tensorProtoTextFormatRoundTrips() throws IOException {
        TensorProto t =
                TensorProto.newBuilder()
                        .setDtype(DataType.DT_INT64)
                        .setTensorShape(
                                TensorShapeProto.newBuilder()
                                        .addDim(TensorShapeProto.Dim.newBuilder().setSize(2))
                                        .addDim(TensorShapeProto.Dim.newBuilder().setSize(3)))
                        .addAllInt64Val(java.util.List.of(1L, 2L, 3L, 4L, 5L, 6L))
                        .build();
        TensorProto.Builder back = TensorProto.newBuilder();
        TextFormat.getParser().merge(TextFormat.printer().printToString(t), back);
        assertEquals(t, back.build());
        assertEquals(9, DataType.DT_INT64.getNumber());
    }
}
