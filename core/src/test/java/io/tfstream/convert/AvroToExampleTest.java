package io.tfstream.convert;

import static io.tfstream.convert.JsonToExampleTest.example;
import static io.tfstream.testkit.ProtoFeatures.bytes;
import static io.tfstream.testkit.ProtoFeatures.floats;
import static io.tfstream.testkit.ProtoFeatures.int64s;
import static io.tfstream.testkit.ProtoFeatures.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.spec.DType;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;

/** The Avro rows of the mapping table (docs/conversion.md), accepted, refused and rejected. */
class AvroToExampleTest {
    static final String SCHEMA =
            """
            {"type": "record", "name": "R", "fields": [
              {"name": "i_int", "type": "int"},
              {"name": "i_long", "type": "long"},
              {"name": "i_bool", "type": "boolean"},
              {"name": "i_ts", "type": {"type": "long", "logicalType": "timestamp-millis"}},
              {"name": "i_date", "type": {"type": "int", "logicalType": "date"}},
              {"name": "f_float", "type": "float"},
              {"name": "f_double", "type": "double"},
              {"name": "s_str", "type": "string"},
              {"name": "s_bytes", "type": "bytes"},
              {"name": "s_fixed", "type": {"type": "fixed", "name": "F3", "size": 3}},
              {"name": "s_enum", "type": {"type": "enum", "name": "E", "symbols": ["RED", "GREEN"]}},
              {"name": "l_arr", "type": {"type": "array", "items": "long"}},
              {"name": "n_opt", "type": ["null", "long"]},
              {"name": "u_mixed", "type": ["null", "long", "string", "double"]},
              {"name": "extra", "type": {"type": "map", "values": "string"}},
              {"name": "nested", "type": {"type": "record", "name": "N", "fields": [
                {"name": "id", "type": "long"}, {"name": "other", "type": "string"}]}}
            ]}
            """;

    static final Schema WRITER = new Schema.Parser().parse(SCHEMA);

    static ConvertFeatures features(boolean withNested) {
        Map<String, DType> f = new TreeMap<>();
        for (String n :
                List.of(
                        "i_int", "i_long", "i_bool", "i_ts", "i_date", "l_arr", "n_opt",
                        "u_mixed")) {
            f.put(n, DType.INT64);
        }
        f.put("f_float", DType.FLOAT32);
        f.put("f_double", DType.FLOAT32);
        for (String n : List.of("s_str", "s_bytes", "s_fixed", "s_enum")) {
            f.put(n, DType.STRING);
        }
        if (withNested) {
            f.put("nested.id", DType.INT64);
        }
        return ConvertFeatures.of(f);
    }

    static GenericRecord record() {
        GenericRecord r = new GenericData.Record(WRITER);
        r.put("i_int", -3);
        r.put("i_long", Long.MAX_VALUE);
        r.put("i_bool", true);
        r.put("i_ts", 1_700_000_000_123L);
        r.put("i_date", 19_000);
        r.put("f_float", 0.5f);
        r.put("f_double", 2.25d);
        r.put("s_str", "héllo");
        r.put("s_bytes", ByteBuffer.wrap(new byte[] {0, (byte) 0xFF}));
        r.put(
                "s_fixed",
                new GenericData.Fixed(WRITER.getField("s_fixed").schema(), new byte[] {1, 2, 3}));
        r.put("s_enum", new GenericData.EnumSymbol(WRITER.getField("s_enum").schema(), "GREEN"));
        r.put("l_arr", List.of(1L, 2L, 3L));
        r.put("n_opt", null);
        r.put("u_mixed", 9L);
        r.put("extra", Map.of("k", "v"));
        GenericRecord n = new GenericData.Record(WRITER.getField("nested").schema());
        n.put("id", 42L);
        n.put("other", "x");
        r.put("nested", n);
        return r;
    }

    static byte[] encode(GenericRecord r) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder e = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(r.getSchema()).write(r, e);
        e.flush();
        return out.toByteArray();
    }

    static Example convert(ExampleConverter c, byte[] in) throws Exception {
        return Example.parseFrom(c.convert(in, 0, in.length));
    }

    static Example expected() {
        return example(
                "i_int", int64s(-3),
                "i_long", int64s(Long.MAX_VALUE),
                "i_bool", int64s(1),
                "i_ts", int64s(1_700_000_000_123L),
                "i_date", int64s(19_000),
                "f_float", floats(0.5f),
                "f_double", floats(2.25f),
                "s_str", strings("héllo"),
                "s_bytes", bytes(new byte[] {0, (byte) 0xFF}),
                "s_fixed", bytes(new byte[] {1, 2, 3}),
                "s_enum", strings("GREEN"),
                "l_arr", int64s(1, 2, 3),
                "u_mixed", int64s(9));
    }

    @Test
    void convertsEveryTypeOfTheTable() throws Exception {
        AvroToExample c = new AvroToExample(WRITER, features(false), ConvertOptions.defaults());
        assertEquals(expected(), convert(c, encode(record())));
        assertEquals(2, c.ignoredFields()); // extra, nested
    }

    @Test
    void emptyArrayIsAnEmptyListAndNullBranchAbsent() throws Exception {
        AvroToExample c = new AvroToExample(WRITER, features(false), ConvertOptions.defaults());
        GenericRecord r = record();
        r.put("l_arr", List.of());
        r.put("n_opt", 5L);
        r.put("u_mixed", null);
        Example e = convert(c, encode(r));
        assertEquals(int64s(), e.getFeatures().getFeatureOrThrow("l_arr"));
        assertEquals(int64s(5), e.getFeatures().getFeatureOrThrow("n_opt"));
        assertTrue(!e.getFeatures().containsFeature("u_mixed"));
    }

    @Test
    void flattensNestedRecordsWhenAsked() throws Exception {
        AvroToExample c =
                new AvroToExample(WRITER, features(true), new ConvertOptions(false, true, null));
        Example e = convert(c, encode(record()));
        assertEquals(int64s(42), e.getFeatures().getFeatureOrThrow("nested.id"));
        assertEquals(2, c.ignoredFields()); // extra, nested.other
        AvroSchemaRejectedException refused =
                assertThrows(
                        AvroSchemaRejectedException.class,
                        () -> new AvroToExample(WRITER, features(true), ConvertOptions.defaults()));
        assertTrue(refused.getMessage().contains("'nested'"), refused.getMessage());
    }

    @Test
    void unionBranchesThatDoNotFitAreDeadLetters() throws Exception {
        AvroToExample c = new AvroToExample(WRITER, features(false), ConvertOptions.defaults());
        for (Object v : List.of("abc", 1.5d)) {
            GenericRecord r = record();
            r.put("u_mixed", v);
            byte[] in = encode(r);
            ConversionException e = assertThrows(ConversionException.class, () -> convert(c, in));
            assertEquals("u_mixed", e.path());
            assertTrue(e.getMessage().contains("does not fit INT feature"), e.getMessage());
        }
    }

    @Test
    void bytesThatDoNotDecodeAreDeadLetters() throws Exception {
        AvroToExample c = new AvroToExample(WRITER, features(false), ConvertOptions.defaults());
        byte[] in = encode(record());
        for (int cut : new int[] {1, 10, in.length - 1}) {
            byte[] truncated = Arrays.copyOf(in, cut);
            ConversionException e =
                    assertThrows(ConversionException.class, () -> convert(c, truncated));
            assertTrue(e.getMessage().contains("Avro does not decode"), e.getMessage());
        }
        byte[] longer = Arrays.copyOf(in, in.length + 1);
        assertThrows(ConversionException.class, () -> convert(c, longer));
    }

    @Test
    void acceptsTheConfluentFramingAndChecksTheId() throws Exception {
        byte[] plain = encode(record());
        byte[] framed = new byte[plain.length + 5];
        framed[4] = 7; // magic 0, id 7
        System.arraycopy(plain, 0, framed, 5, plain.length);
        assertEquals(
                expected(),
                convert(
                        new AvroToExample(WRITER, features(false), ConvertOptions.defaults()),
                        framed));
        assertEquals(
                expected(),
                convert(
                        new AvroToExample(
                                WRITER, features(false), new ConvertOptions(false, false, 7)),
                        framed));
        AvroToExample eight =
                new AvroToExample(WRITER, features(false), new ConvertOptions(false, false, 8));
        ConversionException e =
                assertThrows(ConversionException.class, () -> convert(eight, framed));
        assertTrue(
                e.getMessage().contains("schema id 7, not source.avro.schema-id 8"),
                e.getMessage());
        assertThrows(ConversionException.class, () -> convert(eight, plain));
    }

    @Test
    void refusesAtStartWhatCanNeverConvert() {
        String decimal =
                """
                {"type": "record", "name": "D", "fields": [{"name": "price", "type":
                  {"type": "bytes", "logicalType": "decimal", "precision": 5, "scale": 2}}]}
                """;
        AvroSchemaRejectedException e =
                assertThrows(
                        AvroSchemaRejectedException.class,
                        () ->
                                AvroToExample.of(
                                        decimal,
                                        ConvertFeatures.of(Map.of("price", DType.STRING)),
                                        ConvertOptions.defaults()));
        assertTrue(e.getMessage().contains("'price' has logical type decimal"), e.getMessage());
        String micros =
                """
                {"type": "record", "name": "T", "fields": [{"name": "t", "type":
                  ["null", {"type": "long", "logicalType": "timestamp-micros"}]}]}
                """;
        e =
                assertThrows(
                        AvroSchemaRejectedException.class,
                        () ->
                                AvroToExample.of(
                                        micros,
                                        ConvertFeatures.of(Map.of("t", DType.INT64)),
                                        ConvertOptions.defaults()));
        assertTrue(
                e.getMessage().contains("'t' has logical type timestamp-micros"), e.getMessage());
        String str =
                """
                {"type": "record", "name": "S", "fields": [{"name": "n", "type": "string"}]}
                """;
        e =
                assertThrows(
                        AvroSchemaRejectedException.class,
                        () ->
                                AvroToExample.of(
                                        str,
                                        ConvertFeatures.of(Map.of("n", DType.INT64)),
                                        ConvertOptions.defaults()));
        assertTrue(e.getMessage().contains("'n' of type string can never be"), e.getMessage());
    }

    @Test
    void aRecordOrNestedListWhereAListIsExpectedIsRefusedAtStart() {
        String record =
                """
                {"type": "record", "name": "A", "fields": [{"name": "x", "type":
                  {"type": "record", "name": "B", "fields": [{"name": "y", "type": "long"}]}}]}
                """;
        AvroSchemaRejectedException e =
                assertThrows(
                        AvroSchemaRejectedException.class,
                        () ->
                                AvroToExample.of(
                                        record,
                                        ConvertFeatures.of(Map.of("x", DType.INT64)),
                                        ConvertOptions.defaults()));
        assertTrue(e.getMessage().contains("'x' of type record can never be"), e.getMessage());
        String nested =
                """
                {"type": "record", "name": "A", "fields": [{"name": "x", "type":
                  {"type": "array", "items": {"type": "array", "items": "long"}}}]}
                """;
        e =
                assertThrows(
                        AvroSchemaRejectedException.class,
                        () ->
                                AvroToExample.of(
                                        nested,
                                        ConvertFeatures.of(Map.of("x", DType.INT64)),
                                        ConvertOptions.defaults()));
        assertTrue(e.getMessage().contains("array<array<long>>"), e.getMessage());
    }

    @Test
    void aNullInsideAListIsADeadLetterWithItsIndex() throws Exception {
        Schema s =
                new Schema.Parser()
                        .parse(
                                """
                                {"type": "record", "name": "A", "fields": [{"name": "x", "type":
                                  {"type": "array", "items": ["null", "long"]}}]}
                                """);
        GenericRecord r = new GenericData.Record(s);
        r.put("x", Arrays.asList(1L, null, 3L));
        byte[] in = encode(r);
        AvroToExample c =
                new AvroToExample(
                        s, ConvertFeatures.of(Map.of("x", DType.INT64)), ConvertOptions.defaults());
        ConversionException e = assertThrows(ConversionException.class, () -> convert(c, in));
        assertEquals("x[1]", e.path());
        assertTrue(e.getMessage().contains("null inside the list"), e.getMessage());
        r.put("x", Arrays.asList(1L, 2L));
        assertEquals(example("x", int64s(1, 2)), convert(c, encode(r)));
    }

    @Test
    void deeplyNestedDataOfARecursiveSchemaIsADeadLetter() throws Exception {
        Schema s =
                new Schema.Parser()
                        .parse(
                                """
                                {"type": "record", "name": "L", "fields": [
                                  {"name": "v", "type": "long"},
                                  {"name": "next", "type": ["null", "L"]}]}
                                """);
        // v = 0 and branch 1 (another L), 100 000 times: each level is two bytes.
        byte[] in = new byte[200_002];
        for (int i = 0; i < 200_000; i += 2) {
            in[i] = 0;
            in[i + 1] = 2;
        }
        AvroToExample c =
                new AvroToExample(
                        s, ConvertFeatures.of(Map.of("v", DType.INT64)), ConvertOptions.defaults());
        ConversionException e = assertThrows(ConversionException.class, () -> convert(c, in));
        assertTrue(e.getMessage().contains("nested deeper than"), e.getMessage());
    }
}
