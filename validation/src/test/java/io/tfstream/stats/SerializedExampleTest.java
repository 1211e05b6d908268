package io.tfstream.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;

/**
 * {@link ExampleStatistics#addSerialized} counts every record as {@link ExampleStatistics#add} of
 * the message protobuf parses from the same bytes: random records in protobuf's own encoding (read
 * from the wire), and hand-made encodings protobuf also accepts (unpacked lists, unknown fields, a
 * name twice, a list twice, two kinds in one feature, the features field twice, no key), damaged
 * bytes and names that are not UTF-8 (parsed by protobuf, or refused by both).
 */
class SerializedExampleTest {
    private static final StatsOptions OPTIONS = StatsOptions.DEFAULTS.withSketchTopValues(true);

    /** The statistics of {@code records} both ways, equal, also weighted and lenient. */
    private static void assertSameBothWays(List<byte[]> records) throws IOException {
        for (String weight : new String[] {null, "w"}) {
            ExampleStatistics wire = ExampleStatistics.lenient(OPTIONS, weight, Map.of());
            ExampleStatistics parsed = ExampleStatistics.lenient(OPTIONS, weight, Map.of());
            for (byte[] r : records) {
                boolean wireRefused = false;
                boolean parseRefused = false;
                try {
                    wire.addSerialized(r);
                } catch (InvalidProtocolBufferException e) {
                    wireRefused = true;
                }
                try {
                    parsed.add(Example.parseFrom(r));
                } catch (InvalidProtocolBufferException e) {
                    parseRefused = true;
                }
                assertEquals(parseRefused, wireRefused, "refused alike");
            }
            assertEquals(parsed.build("d"), wire.build("d"), "weight " + weight);
        }
    }

    @Test
    void randomRecordsCountAlikeAndAreReadFromTheWire() throws IOException {
        Random random = new Random(11);
        List<byte[]> records = new ArrayList<>();
        SerializedExample scanner = new SerializedExample();
        for (int i = 0; i < 2000; i++) {
            Features.Builder f = Features.newBuilder();
            int features = random.nextInt(6);
            for (int k = 0; k < features; k++) {
                String name = "f" + random.nextInt(8);
                Feature.Builder v = Feature.newBuilder();
                switch (name.hashCode() % 4) {
                    case 0 -> {
                        Int64List.Builder l = Int64List.newBuilder();
                        for (int n = random.nextInt(4); n > 0; n--) {
                            l.addValue(
                                    random.nextInt(5) == 0
                                            ? -random.nextLong()
                                            : random.nextInt(100));
                        }
                        v.setInt64List(l);
                    }
                    case 1 -> {
                        FloatList.Builder l = FloatList.newBuilder();
                        for (int n = random.nextInt(4); n > 0; n--) {
                            l.addValue(
                                    random.nextInt(9) == 0 ? Float.NaN : random.nextFloat() * 10);
                        }
                        v.setFloatList(l);
                    }
                    case 2 -> {
                        BytesList.Builder l = BytesList.newBuilder();
                        for (int n = random.nextInt(3); n > 0; n--) {
                            l.addValue(ByteString.copyFromUtf8("v" + random.nextInt(6)));
                        }
                        v.setBytesList(l);
                    }
                    default -> {} // a feature without a kind
                }
                f.putFeature(name, v.build());
            }
            if (random.nextInt(4) > 0) {
                f.putFeature(
                        "w",
                        random.nextBoolean()
                                ? Feature.newBuilder()
                                        .setFloatList(FloatList.newBuilder().addValue(1.5f))
                                        .build()
                                : Feature.newBuilder()
                                        .setInt64List(Int64List.newBuilder().addValue(2))
                                        .build());
            }
            byte[] bytes = Example.newBuilder().setFeatures(f).build().toByteArray();
            assertTrue(scanner.scan(bytes), "protobuf's own encoding is read from the wire");
            records.add(bytes);
        }
        assertSameBothWays(records);
    }

    @Test
    void encodingsProtobufAlsoAcceptsCountAlike() throws IOException {
        byte[] packedInts = list(3, packed(1, 2, 300));
        byte[] unpackedInts = list(3, concat(varintField(1, 7), varintField(1, -1)));
        byte[] unpackedFloats = list(2, concat(fixed32Field(1, 2.5f), fixed32Field(1, -1f)));
        byte[] packedFloats = list(2, lengthField(1, floats(0.5f, 4f)));
        byte[] strings = list(1, concat(lengthField(1, utf8("a")), lengthField(1, utf8("bb"))));
        byte[] unknownInList = list(3, concat(varintField(9, 5), packed(4)));
        List<byte[]> records = new ArrayList<>();
        SerializedExample scanner = new SerializedExample();
        // read from the wire
        for (byte[] feature : List.of(packedInts, unpackedInts, unpackedFloats, packedFloats)) {
            records.add(
                    example(entry("x", feature), entry("w", list(2, lengthField(1, floats(2f))))));
        }
        records.add(example(entry("s", strings), entry("x", unknownInList)));
        records.add(concat(example(entry("a", packedInts)), example(entry("b", strings))));
        records.add(
                example(
                        entry(
                                "w",
                                list(3, concat(lengthField(1, new byte[0]), varintField(1, 4))))));
        records.add(example(entry("e", new byte[0]))); // a feature without a kind
        records.add(concat(example(entry("x", packedInts)), varintField(7, 1))); // unknown field
        for (byte[] r : records) {
            assertTrue(scanner.scan(r), "read from the wire");
        }
        // parsed by protobuf instead
        List<byte[]> parsed =
                List.of(
                        example(entry("x", packedInts), entry("x", packedFloats)), // a name twice
                        concat(example(entry("x", packedInts)), example(entry("x", strings))),
                        example(entry("x", concat(packedInts, unpackedInts))), // a list twice
                        example(entry("x", concat(packedInts, packedFloats))), // two kinds
                        example(entry("x", concat(packedFloats, packedInts, unpackedFloats))),
                        example(
                                lengthField(
                                        1, lengthField(2, packedInts))), // an entry without a key
                        example(
                                lengthField(
                                        1, lengthField(1, utf8("k")))), // an entry without a value
                        example(entry("x", list(2, lengthField(1, new byte[] {1, 2, 3})))),
                        example(
                                lengthField(
                                        1,
                                        concat(
                                                lengthField(1, new byte[] {(byte) 0xff}),
                                                lengthField(2, packedInts)))), // not UTF-8
                        new byte[] {10, 5, 10, 3}, // truncated
                        new byte[] {(byte) 0x80}); // a broken varint
        for (byte[] r : parsed) {
            assertFalse(scanner.scan(r) && readable(scanner), "parsed by protobuf");
        }
        records.addAll(parsed);
        assertSameBothWays(records);
    }

    private static boolean readable(SerializedExample s) {
        for (int i = 0; i < s.count; i++) {
            if (s.kinds[i] != FeatureAccumulator.NONE && s.values(i) < 0) {
                return false;
            }
        }
        return true;
    }

    private static byte[] example(byte[]... entries) throws IOException {
        return lengthField(1, concat(entries));
    }

    private static byte[] entry(String key, byte[] feature) throws IOException {
        return lengthField(1, concat(lengthField(1, utf8(key)), lengthField(2, feature)));
    }

    /** A Feature holding list field {@code field} (1 bytes, 2 float, 3 int64) of {@code body}. */
    private static byte[] list(int field, byte[] body) throws IOException {
        return lengthField(field, body);
    }

    private static byte[] packed(long... values) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        for (long v : values) {
            out.writeInt64NoTag(v);
        }
        out.flush();
        return lengthField(1, bytes.toByteArray());
    }

    private static byte[] floats(float... values) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        for (float v : values) {
            out.writeFloatNoTag(v);
        }
        out.flush();
        return bytes.toByteArray();
    }

    private static byte[] lengthField(int field, byte[] body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        out.writeByteArray(field, body);
        out.flush();
        return bytes.toByteArray();
    }

    private static byte[] varintField(int field, long v) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        out.writeInt64(field, v);
        out.flush();
        return bytes.toByteArray();
    }

    private static byte[] fixed32Field(int field, float v) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        out.writeFloat(field, v);
        out.flush();
        return bytes.toByteArray();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
