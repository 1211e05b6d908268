package io.tfstream.proto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;
import org.tensorflow.example.SequenceExample;

/**
 * The byte strings printed by the TFRecord and tf.train.Example tutorial (seed 001), decoded and
 * re-encoded with the generated classes: they must be wire-identical to what Python's protobuf
 * produced.
 */
class SeedExampleWireTest {

    /** {@code serialize_example(False, 4, b'goat', 0.9876)} as printed by the tutorial. */
    private static final byte[] GOAT_EXAMPLE =
            py(
                    "\nR\n\u0011\n\bfeature0\u0012\u0005\u001a\u0003\n\u0001\u0000\n\u0011\n"
                            + "\bfeature1\u0012\u0005\u001a\u0003\n\u0001\u0004\n\u0014\n\bfeature2"
                            + "\u0012\b\n\u0006\n\u0004goat\n\u0014\n\bfeature3\u0012\b\u0012\u0006"
                            + "\n\u0004[\u00d3|?");

    /** {@code _float_feature(np.exp(1)).SerializeToString()}: {@code b'\x12\x06\n\x04T\xf8-@'}. */
    private static final byte[] E_FEATURE = py("\u0012\u0006\n\u0004T\u00f8-@");

    /** Python bytes literal with every char a byte (latin-1), as the tutorial prints them. */
    private static byte[] py(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static Feature int64(long v) {
        return Feature.newBuilder().setInt64List(Int64List.newBuilder().addValue(v)).build();
    }

    private static Example goat() {
        return Example.newBuilder()
                .setFeatures(
                        Features.newBuilder()
                                .putFeature("feature0", int64(0))
                                .putFeature("feature1", int64(4))
                                .putFeature(
                                        "feature2",
                                        Feature.newBuilder()
                                                .setBytesList(
                                                        BytesList.newBuilder()
                                                                .addValue(
                                                                        ByteString.copyFromUtf8(
                                                                                "goat")))
                                                .build())
                                .putFeature(
                                        "feature3",
                                        Feature.newBuilder()
                                                .setFloatList(
                                                        FloatList.newBuilder().addValue(0.9876f))
                                                .build()))
                .build();
    }

    @Test
    void seedExampleDecodesToTheTutorialFeatures() throws InvalidProtocolBufferException {
        Example e = Example.parseFrom(GOAT_EXAMPLE);
        var f = e.getFeatures().getFeatureMap();
        assertEquals(4, f.size());
        assertEquals(List.of(0L), f.get("feature0").getInt64List().getValueList());
        assertEquals(List.of(4L), f.get("feature1").getInt64List().getValueList());
        assertEquals("goat", f.get("feature2").getBytesList().getValue(0).toStringUtf8());
        assertEquals(0.9876f, f.get("feature3").getFloatList().getValue(0));
        assertEquals(Feature.KindCase.FLOAT_LIST, f.get("feature3").getKindCase());
    }

    @Test
    void ourEncodingIsByteIdenticalToPythons() {
        assertArrayEquals(GOAT_EXAMPLE, goat().toByteArray());
    }

    @Test
    void floatFeatureOfEDecodes() throws InvalidProtocolBufferException {
        Feature f = Feature.parseFrom(E_FEATURE);
        assertEquals(Feature.KindCase.FLOAT_LIST, f.getKindCase());
        assertEquals(1, f.getFloatList().getValueCount());
        assertEquals(2.7182817f, f.getFloatList().getValue(0));
        assertEquals((float) Math.E, f.getFloatList().getValue(0));
        assertArrayEquals(
                E_FEATURE,
                Feature.newBuilder()
                        .setFloatList(FloatList.newBuilder().addValue((float) Math.E))
                        .build()
                        .toByteArray());
    }

    @Test
    void anExampleIsAValidSequenceExampleWithContext() throws InvalidProtocolBufferException {
        SequenceExample s = SequenceExample.parseFrom(GOAT_EXAMPLE);
        assertEquals(goat().getFeatures(), s.getContext());
        assertTrue(s.getFeatureLists().getFeatureListMap().isEmpty());
    }

    @Test
    void fieldNumbersMatchUpstream() {
        assertEquals(1, Example.FEATURES_FIELD_NUMBER);
        assertEquals(1, SequenceExample.CONTEXT_FIELD_NUMBER);
        assertEquals(2, SequenceExample.FEATURE_LISTS_FIELD_NUMBER);
        assertEquals(1, Feature.BYTES_LIST_FIELD_NUMBER);
        assertEquals(2, Feature.FLOAT_LIST_FIELD_NUMBER);
        assertEquals(3, Feature.INT64_LIST_FIELD_NUMBER);
        assertEquals("tensorflow.Example", Example.getDescriptor().getFullName());
        assertTrue(
                FloatList.getDescriptor().findFieldByName("value").isPacked(),
                "FloatList.value is packed as upstream");
    }
}
