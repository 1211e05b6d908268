package io.tfstream.convert;

import static io.tfstream.testkit.ProtoFeatures.bytes;
import static io.tfstream.testkit.ProtoFeatures.floats;
import static io.tfstream.testkit.ProtoFeatures.int64s;
import static io.tfstream.testkit.ProtoFeatures.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.spec.DType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;

/** The JSON rows of the mapping table (docs/conversion.md), accepted and refused. */
class JsonToExampleTest {
    static final ConvertFeatures FEATURES =
            ConvertFeatures.of(
                    Map.of(
                            "i", DType.INT64,
                            "f", DType.FLOAT32,
                            "s", DType.STRING,
                            "u.id", DType.INT64));

    static Example example(Object... nameAndFeature) {
        Example.Builder e = Example.newBuilder();
        for (int k = 0; k < nameAndFeature.length; k += 2) {
            e.getFeaturesBuilder()
                    .putFeature((String) nameAndFeature[k], (Feature) nameAndFeature[k + 1]);
        }
        return e.build();
    }

    static Example convert(ExampleConverter c, String json) throws Exception {
        byte[] in = json.getBytes(StandardCharsets.UTF_8);
        return Example.parseFrom(c.convert(in, 0, in.length));
    }

    static Stream<Arguments> accepted() {
        return Stream.of(
                Arguments.of("{\"i\": 5}", example("i", int64s(5))),
                Arguments.of("{\"i\": -9223372036854775808}", example("i", int64s(Long.MIN_VALUE))),
                Arguments.of("{\"i\": true}", example("i", int64s(1))),
                Arguments.of("{\"i\": false}", example("i", int64s(0))),
                Arguments.of("{\"i\": [1, 2, true]}", example("i", int64s(1, 2, 1))),
                Arguments.of("{\"i\": []}", example("i", int64s())),
                Arguments.of("{\"i\": null}", example()),
                Arguments.of("{}", example()),
                Arguments.of("{\"f\": 1}", example("f", floats(1f))),
                Arguments.of("{\"f\": 1.5e3}", example("f", floats(1500f))),
                Arguments.of("{\"f\": [0.25, -2]}", example("f", floats(0.25f, -2f))),
                Arguments.of("{\"s\": \"h\\u00e9llo\"}", example("s", strings("héllo"))),
                Arguments.of(
                        "{\"s\": [\"a\", \"\"]}",
                        example("s", bytes(new byte[] {'a'}, new byte[0]))),
                Arguments.of(
                        "{\"i\": 1, \"f\": 2.5, \"s\": \"x\"}",
                        example("i", int64s(1), "f", floats(2.5f), "s", strings("x"))));
    }

    @ParameterizedTest
    @MethodSource("accepted")
    void convertsTheRowsOfTheTable(String json, Example expected) throws Exception {
        assertEquals(
                expected, convert(new JsonToExample(FEATURES, ConvertOptions.defaults()), json));
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("{\"i\": \"abc\"}", "i", "JSON string \"abc\" does not fit"),
                Arguments.of("{\"i\": 1.5}", "i", "JSON number 1.5 does not fit"),
                Arguments.of("{\"i\": {\"a\": 1}}", "i", "a JSON object does not fit"),
                Arguments.of("{\"i\": [1, [2]]}", "i[1]", "a JSON array does not fit inside"),
                Arguments.of("{\"i\": [1, null]}", "i[1]", "JSON null does not fit inside"),
                Arguments.of("{\"i\": 9223372036854775808}", "i", "is out of the int64 range"),
                Arguments.of("{\"f\": \"1\"}", "f", "does not fit (FLOAT feature 'f')"),
                Arguments.of("{\"f\": true}", "f", "JSON true does not fit"),
                Arguments.of("{\"s\": 5}", "s", "does not fit (BYTES feature 's')"),
                Arguments.of("{\"i\": 1, \"i\": 2}", "i", "appears twice"),
                Arguments.of("{\"u\": {\"id\": 7}}", "u", "source.convert.flatten: true"),
                Arguments.of("{\"i\": 1", "i", "invalid JSON"),
                Arguments.of("{\"s\": \"a\", 3}", "s", "invalid JSON"),
                Arguments.of("[1, 2]", "$", "not a JSON object"),
                Arguments.of("true", "$", "not a JSON object (a JSON literal)"),
                Arguments.of("not json", "$", "invalid JSON: an invalid literal"),
                Arguments.of("hello", "$", "invalid JSON: an unexpected character"),
                Arguments.of("{\"u\": {\"id\": 7}}", "u", "(tfstream convert: --flatten)"),
                Arguments.of("{} {}", "$", "more JSON after the object"),
                Arguments.of("", "$", "not a JSON object"),
                Arguments.of("{\"s\": \"\\ud800\"}", "s", "invalid JSON: a high surrogate"),
                Arguments.of("{\"s\": \"a\u0001\"}", "s", "invalid JSON: a control character"),
                Arguments.of("{\"i\": 01}", "i", "invalid JSON"),
                Arguments.of("{\"i\": -}", "i", "invalid JSON"),
                Arguments.of("{\"x\": [1, {\"y\": tru}]}", "x", "invalid JSON"),
                Arguments.of("{\"i\": 1} \u0000", "$", "more JSON after the object"));
    }

    @ParameterizedTest
    @MethodSource("refused")
    void refusesWithTheFieldPath(String json, String path, String message) {
        ConversionException e = refusal(json);
        assertEquals(path, e.path(), e.getMessage());
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertTrue(e.getMessage().startsWith("field " + path + ": "), e.getMessage());
    }

    private static ConversionException refusal(String json) {
        return assertThrows(
                ConversionException.class,
                () -> convert(new JsonToExample(FEATURES, ConvertOptions.defaults()), json));
    }

    /** A refusal quotes at most 64 characters of what it refuses, however long the input. */
    @Test
    void refusalsQuoteTheInputCut() {
        String digits = "9".repeat(10_000_000);
        for (String json :
                List.of(
                        "{\"i\": " + digits + "}",
                        "{\"i\": 1." + digits + "}",
                        "{\"s\": " + digits + "}",
                        "{\"i\": \"" + digits + "\"}")) {
            ConversionException e = refusal(json);
            assertTrue(e.getMessage().length() < 200, e.getMessage());
            assertTrue(e.getMessage().matches(".*\\(1000000[0-9] characters\\).*"), e.getMessage());
        }
    }

    @Test
    void countsTheFieldsOutsideTheSchema() throws Exception {
        JsonToExample c = new JsonToExample(FEATURES, ConvertOptions.defaults());
        assertEquals(
                example("i", int64s(1)),
                convert(c, "{\"x\": 1, \"i\": 1, \"y\": {\"z\": [1, {}]}, \"w\": null}"));
        assertEquals(3, c.ignoredFields());
        convert(c, "{\"i\": 2}");
        assertEquals(0, c.ignoredFields());
    }

    @Test
    void flattensNestedObjectsWhenAsked() throws Exception {
        JsonToExample c = new JsonToExample(FEATURES, new ConvertOptions(false, true, null));
        assertEquals(
                example("u.id", int64s(7), "i", int64s(1)),
                convert(c, "{\"u\": {\"id\": 7, \"name\": \"n\"}, \"i\": 1, \"v\": {}}"));
        assertEquals(1, c.ignoredFields());
        assertEquals(example(), convert(c, "{\"u\": null}"));
    }

    @Test
    void deepNestingIsADeadLetterNotAStackOverflow() {
        String deep = "{\"a\": ".repeat(100_000) + "1" + "}".repeat(100_000);
        for (boolean flatten : new boolean[] {false, true}) {
            JsonToExample c = new JsonToExample(FEATURES, new ConvertOptions(false, flatten, null));
            ConversionException e = assertThrows(ConversionException.class, () -> convert(c, deep));
            assertTrue(e.getMessage().contains("deeper than"), e.getMessage());
        }
    }

    @Test
    void readsBase64StringsWhenAsked() throws Exception {
        JsonToExample c = new JsonToExample(FEATURES, new ConvertOptions(true, false, null));
        assertEquals(
                example("s", bytes(new byte[] {0, 1, (byte) 0xFF})),
                convert(c, "{\"s\": \"AAH/\"}"));
        ConversionException e =
                assertThrows(
                        ConversionException.class, () -> convert(c, "{\"s\": [\"AA\", \"!!\"]}"));
        assertEquals("s[1]", e.path());
        assertTrue(e.getMessage().contains("is not base64"), e.getMessage());
    }
}
