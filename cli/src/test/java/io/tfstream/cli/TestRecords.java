package io.tfstream.cli;

import static io.tfstream.testkit.ProtoFeatures.int64s;

import com.google.protobuf.ByteString;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.TfRecordTestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.FeatureList;
import org.tensorflow.example.FeatureLists;
import org.tensorflow.example.Features;
import org.tensorflow.example.SequenceExample;

/** Small Examples and SequenceExamples, and TFRecord files of them, for the command tests. */
final class TestRecords {
    private TestRecords() {}

    /** {@code id: int64 [id], name: bytes [name]}. */
    static Example example(long id, String name) {
        return Example.newBuilder()
                .setFeatures(
                        Features.newBuilder()
                                .putFeature("id", int64s(id))
                                .putFeature(
                                        "name",
                                        Feature.newBuilder()
                                                .setBytesList(
                                                        BytesList.newBuilder()
                                                                .addValue(
                                                                        ByteString.copyFromUtf8(
                                                                                name)))
                                                .build()))
                .build();
    }

    /** Context {@code id: int64 [id]}, feature list {@code tokens} of {@code steps} int64 steps. */
    static SequenceExample sequence(long id, int steps) {
        FeatureList.Builder tokens = FeatureList.newBuilder();
        for (int s = 0; s < steps; s++) {
            tokens.addFeature(int64s(s));
        }
        return SequenceExample.newBuilder()
                .setContext(Features.newBuilder().putFeature("id", int64s(id)))
                .setFeatureLists(FeatureLists.newBuilder().putFeatureList("tokens", tokens.build()))
                .build();
    }

    /** The serialized {@code example(i, "n" + i)} for i in [0, n). */
    static List<byte[]> examples(int n) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(example(i, "n" + i).toByteArray());
        }
        return out;
    }

    /** The serialized {@code sequence(i, i + 1)} for i in [0, n). */
    static List<byte[]> sequences(int n) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(sequence(i, i + 1).toByteArray());
        }
        return out;
    }

    /** Writes {@code records} framed and compressed to {@code file}. */
    static Path write(Path file, List<byte[]> records, Compression c) throws IOException {
        Files.write(file, TfRecordTestData.write(records, c));
        return file;
    }

    /** The uncompressed file of {@code records} with one bit of record {@code k}'s data flipped. */
    static byte[] withFlippedDataBit(List<byte[]> records, int k) throws IOException {
        byte[] bytes = TfRecordTestData.write(records, Compression.NONE);
        bytes[(int) TfRecordTestData.offsets(records)[k] + 12 + 1] ^= 0x04;
        return bytes;
    }
}
