package io.tfstream.shards;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.example.FloatList;
import org.tensorflow.example.Int64List;
import org.tensorflow.example.SequenceExample;

/**
 * {@link TfxSplits} against TFX's {@code _PartitionFn}: on random keys against the formula written
 * out again here ({@code int(sha256(key).hexdigest(), 16) % total}, then {@code bisect_right}), and
 * against Python itself (hashlib and bisect, and protobuf's deterministic serialization of the
 * partition feature) when the machine has python3 with protobuf.
 */
class TfxSplitsTest {
    @TempDir Path dir;

    /** The Python formula, step by step: the hex digest as a number, modulo, bisect_right. */
    private static int reference(List<TfxSplits.Split> splits, byte[] key) throws Exception {
        String hex = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key));
        long total = 0;
        List<Long> buckets = new ArrayList<>();
        for (TfxSplits.Split s : splits) {
            total += s.hashBuckets();
            buckets.add(total);
        }
        long bucket = new BigInteger(hex, 16).mod(BigInteger.valueOf(total)).longValue();
        int lo = 0;
        int hi = buckets.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (bucket < buckets.get(mid)) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    @Test
    void theSplitOfAKeyIsTfxsOnRandomKeysAndConfigurations() throws Exception {
        Random rnd = new Random(7);
        for (String spec :
                List.of("train:2,eval:1", "a:1", "train:8,eval:1,test:1", "x:97,y:3,z:1000")) {
            TfxSplits splits = TfxSplits.parse(spec);
            int[] seen = new int[splits.splits().size()];
            for (int i = 0; i < 5000; i++) {
                byte[] key = new byte[rnd.nextInt(200)];
                rnd.nextBytes(key);
                int split = splits.indexOf(key);
                assertEquals(reference(splits.splits(), key), split, spec);
                seen[split]++;
            }
            for (int count : seen) {
                assertTrue(count > 0, spec + ": every split gets records");
            }
        }
        TfxSplits tfxDefault = TfxSplits.parse("train:2,eval:1");
        int train = 0;
        for (int i = 0; i < 30_000; i++) {
            if (tfxDefault.indexOf(("record-" + i).getBytes(StandardCharsets.UTF_8)) == 0) {
                train++;
            }
        }
        assertTrue(Math.abs(train - 20_000) < 600, "about 2/3 train: " + train);
    }

    @Test
    void badSpecificationsAreNamed() {
        for (String[] c :
                new String[][] {
                    {"", "no splits"},
                    {"train", "split 'train': expected name:buckets"},
                    {"train:0", "hash buckets must be a positive integer"},
                    {"train:x", "hash buckets must be a positive integer"},
                    {"train:1,train:2", "split 'train' is named twice"},
                    {"a/b:1", "split 'a/b': a name of letters"},
                    {".x:1", "split '.x': a name of letters"}
                }) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> TfxSplits.parse(c[0]));
            assertTrue(e.getMessage().contains(c[1]), c[0] + ": " + e.getMessage());
        }
    }

    @Test
    void thePartitionFeatureIsReserializedAndRefusedAsTfxRefusesIt() throws Exception {
        Feature ids = Feature.newBuilder().setInt64List(Int64List.newBuilder().addValue(3)).build();
        // the same list, not packed and with a second value in another field entry: the bytes in
        // the record differ, the key is the feature serialized again
        byte[] unpacked = unpackedInt64Feature(3, 5);
        byte[] record = exampleWithRawFeature("user", unpacked);
        Feature parsed = Feature.parseFrom(unpacked);
        assertEquals(List.of(3L, 5L), parsed.getInt64List().getValueList());
        assertArrayEquals(parsed.toByteArray(), TfxSplits.featureKey(record, false, "user"));
        assertTrue(parsed.toByteArray().length < unpacked.length, "packed again");

        SequenceExample seq =
                SequenceExample.newBuilder()
                        .setContext(Features.newBuilder().putFeature("user", ids))
                        .build();
        assertArrayEquals(ids.toByteArray(), TfxSplits.featureKey(seq.toByteArray(), true, "user"));

        Example floats =
                Example.newBuilder()
                        .setFeatures(
                                Features.newBuilder()
                                        .putFeature(
                                                "f",
                                                Feature.newBuilder()
                                                        .setFloatList(
                                                                FloatList.newBuilder().addValue(1f))
                                                        .build())
                                        .putFeature("empty", Feature.getDefaultInstance()))
                        .build();
        assertEquals(
                "Feature name `user` does not exist.",
                assertThrows(
                                TfxSplits.SplitKeyException.class,
                                () -> TfxSplits.featureKey(floats.toByteArray(), false, "user"))
                        .getMessage());
        assertEquals(
                "Partition feature does not contain any value.",
                assertThrows(
                                TfxSplits.SplitKeyException.class,
                                () -> TfxSplits.featureKey(floats.toByteArray(), false, "empty"))
                        .getMessage());
        assertEquals(
                "Only `bytes_list` and `int64_list` features are supported for partition.",
                assertThrows(
                                TfxSplits.SplitKeyException.class,
                                () -> TfxSplits.featureKey(floats.toByteArray(), false, "f"))
                        .getMessage());
        assertThrows(
                TfxSplits.SplitKeyException.class,
                () -> TfxSplits.featureKey(new byte[] {0x0a, 0x7f}, false, "user"));
    }

    /**
     * Python's own answer: hashlib, bisect and protobuf's deterministic serialization of the
     * partition feature (message classes built from the feature.proto descriptor), for records with
     * packed, unpacked and unknown-field encodings.
     */
    @Test
    void pythonAgrees() throws Exception {
        Assumptions.assumeTrue(python("import google.protobuf, hashlib, bisect"), "python3");
        Random rnd = new Random(11);
        TfxSplits splits = TfxSplits.parse("train:2,eval:1,test:3");
        StringBuilder lines = new StringBuilder();
        List<Integer> expected = new ArrayList<>();
        List<byte[]> featureKeys = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            byte[] key = new byte[rnd.nextInt(120)];
            rnd.nextBytes(key);
            lines.append("raw ").append(HexFormat.of().formatHex(key)).append('\n');
            expected.add(splits.indexOf(key));
        }
        for (int i = 0; i < 300; i++) {
            byte[] feature =
                    switch (i % 3) {
                        case 0 -> unpackedInt64Feature(rnd.nextInt(1000), -rnd.nextInt(5));
                        case 1 ->
                                Feature.newBuilder()
                                        .setBytesList(
                                                BytesList.newBuilder()
                                                        .addValue(
                                                                ByteString.copyFromUtf8(
                                                                        "user-" + i)))
                                        .build()
                                        .toByteArray();
                        default ->
                                withUnknownField(
                                        Feature.newBuilder()
                                                .setInt64List(Int64List.newBuilder().addValue(i))
                                                .build()
                                                .toByteArray());
                    };
            byte[] key = TfxSplits.featureKey(exampleWithRawFeature("u", feature), false, "u");
            featureKeys.add(key);
            lines.append("feature ").append(HexFormat.of().formatHex(feature)).append('\n');
            expected.add(splits.indexOf(key));
        }
        Path input = Files.writeString(dir.resolve("keys.txt"), lines.toString());
        Path script = Files.writeString(dir.resolve("splits.py"), PYTHON);
        Process p =
                new ProcessBuilder(PYTHON_BIN, script.toString(), input.toString(), "2,1,3")
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        assertEquals(0, p.exitValue(), out);
        String[] got = out.strip().split("\n");
        assertEquals(expected.size(), got.length, out);
        for (int i = 0; i < got.length; i++) {
            String[] parts = got[i].split(" ");
            assertEquals(expected.get(i), Integer.parseInt(parts[0]), "line " + i);
            if (i >= 600) {
                assertEquals(
                        HexFormat.of().formatHex(featureKeys.get(i - 600)),
                        parts[1],
                        "the re-serialized feature of line " + i);
            }
        }
    }

    /** The interpreter the Python client's tests use: $TFSTREAM_PYTHON, Debian's, or python3. */
    private static final String PYTHON_BIN =
            System.getenv("TFSTREAM_PYTHON") != null
                    ? System.getenv("TFSTREAM_PYTHON")
                    : Files.isExecutable(Path.of("/usr/bin/python3"))
                            ? "/usr/bin/python3"
                            : "python3";

    private static final String PYTHON =
            String.join(
                    "\n",
                    "import bisect, hashlib, sys",
                    "from google.protobuf import descriptor_pb2, descriptor_pool",
                    "from google.protobuf import message_factory",
                    "fd = descriptor_pb2.FileDescriptorProto(name='f.proto', package='t',"
                            + " syntax='proto3')",
                    "def msg(name, fields, oneof=None):",
                    "    m = fd.message_type.add(name=name)",
                    "    if oneof: m.oneof_decl.add(name=oneof)",
                    "    for n, num, typ, lab, tn in fields:",
                    "        f = m.field.add(name=n, number=num, type=typ, label=lab)",
                    "        if tn: f.type_name = tn",
                    "        if oneof: f.oneof_index = 0",
                    "F = descriptor_pb2.FieldDescriptorProto",
                    "msg('BytesList', [('value', 1, F.TYPE_BYTES, F.LABEL_REPEATED, None)])",
                    "msg('FloatList', [('value', 1, F.TYPE_FLOAT, F.LABEL_REPEATED, None)])",
                    "msg('Int64List', [('value', 1, F.TYPE_INT64, F.LABEL_REPEATED, None)])",
                    "msg('Feature', [('bytes_list', 1, F.TYPE_MESSAGE, F.LABEL_OPTIONAL,"
                            + " '.t.BytesList'), ('float_list', 2, F.TYPE_MESSAGE,"
                            + " F.LABEL_OPTIONAL, '.t.FloatList'), ('int64_list', 3,"
                            + " F.TYPE_MESSAGE, F.LABEL_OPTIONAL, '.t.Int64List')], 'kind')",
                    "pool = descriptor_pool.DescriptorPool()",
                    "pool.Add(fd)",
                    "desc = pool.FindMessageTypeByName('t.Feature')",
                    "if hasattr(message_factory, 'GetMessageClass'):",
                    "    Feature = message_factory.GetMessageClass(desc)",
                    "else:  # protobuf before 4.22",
                    "    Feature = message_factory.MessageFactory(pool).GetPrototype(desc)",
                    "buckets = []",
                    "for b in sys.argv[2].split(','):",
                    "    buckets.append((buckets[-1] if buckets else 0) + int(b))",
                    "for line in open(sys.argv[1]):",
                    "    kind, _, hexed = line.rstrip('\\n').partition(' ')",
                    "    data = bytes.fromhex(hexed)",
                    "    key = data if kind == 'raw' else Feature.FromString(data)"
                            + ".SerializeToString(deterministic=True)",
                    "    bucket = int(hashlib.sha256(key).hexdigest(), 16) % buckets[-1]",
                    "    print(bisect.bisect(buckets, bucket), key.hex())",
                    "");

    private static boolean python(String code) {
        try {
            Process p =
                    new ProcessBuilder(PYTHON_BIN, "-c", code).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(1, TimeUnit.MINUTES) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** A Feature whose int64_list holds {@code a} and {@code b} unpacked, in two list entries. */
    private static byte[] unpackedInt64Feature(long a, long b) throws IOException {
        ByteArrayOutputStream list = new ByteArrayOutputStream();
        CodedOutputStream c = CodedOutputStream.newInstance(list);
        c.writeInt64(1, a);
        c.flush();
        byte[] first = list.toByteArray();
        list.reset();
        c = CodedOutputStream.newInstance(list);
        c.writeInt64(1, b);
        c.flush();
        byte[] second = list.toByteArray();
        ByteArrayOutputStream feature = new ByteArrayOutputStream();
        c = CodedOutputStream.newInstance(feature);
        c.writeByteArray(3, first);
        c.writeByteArray(3, second); // a repeated message field entry: merged by parsers
        c.flush();
        return feature.toByteArray();
    }

    /** {@code feature} with an unknown varint field 9 appended. */
    private static byte[] withUnknownField(byte[] feature) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(feature);
        CodedOutputStream c = CodedOutputStream.newInstance(out);
        c.writeInt64(9, 42);
        c.flush();
        return out.toByteArray();
    }

    /** An Example whose feature map holds {@code name} with {@code feature}'s bytes as they are. */
    private static byte[] exampleWithRawFeature(String name, byte[] feature) throws IOException {
        ByteArrayOutputStream entry = new ByteArrayOutputStream();
        CodedOutputStream c = CodedOutputStream.newInstance(entry);
        c.writeString(1, name);
        c.writeByteArray(2, feature);
        c.flush();
        ByteArrayOutputStream features = new ByteArrayOutputStream();
        c = CodedOutputStream.newInstance(features);
        c.writeByteArray(1, entry.toByteArray());
        c.flush();
        ByteArrayOutputStream example = new ByteArrayOutputStream();
        c = CodedOutputStream.newInstance(example);
        c.writeByteArray(1, features.toByteArray());
        c.flush();
        return example.toByteArray();
    }
}
