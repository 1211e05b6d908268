package io.tfstream.spec.json;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.Shapes;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/** Typed reads of SPEC.json values; errors name the field and show the offending value. */
final class JsonValues {
    private JsonValues() {}

    static String string(JsonNode n, String field) {
        if (!n.isTextual()) {
            throw new IllegalArgumentException(field + " must be a string; got " + n);
        }
        return n.textValue();
    }

    static boolean bool(JsonNode n, String field) {
        if (n == null || n.isNull()) {
            return false;
        }
        if (!n.isBoolean()) {
            throw new IllegalArgumentException(field + " must be true or false; got " + n);
        }
        return n.booleanValue();
    }

    static long int64(JsonNode n, String field) {
        if (!n.isIntegralNumber() || !n.canConvertToLong()) {
            throw new IllegalArgumentException(field + " must be an int64 integer; got " + n);
        }
        return n.longValue();
    }

    static List<Long> longs(JsonNode n, String field) {
        if (!n.isArray()) {
            throw new IllegalArgumentException(field + " must be a list of integers; got " + n);
        }
        List<Long> out = new ArrayList<>(n.size());
        for (JsonNode v : n) {
            out.add(int64(v, field + " element"));
        }
        return out;
    }

    static List<String> strings(JsonNode n, String field) {
        if (!n.isArray()) {
            throw new IllegalArgumentException(field + " must be a list of strings; got " + n);
        }
        List<String> out = new ArrayList<>(n.size());
        for (JsonNode v : n) {
            out.add(string(v, field + " element"));
        }
        return out;
    }

    /**
     * A default of {@code prod(shape)} values: a scalar, or a nested or flat list of exactly that
     * many values (Python reshapes {@code default_value} to the shape).
     */
    static Optional<DefaultValue> defaultValue(JsonNode n, DType dtype, List<Long> shape) {
        if (n == null || n.isNull()) {
            return Optional.empty();
        }
        for (long d : shape) {
            if (d < 0) {
                throw new IllegalArgumentException(
                        "All dimensions of shape need to be known but received "
                                + Shapes.format(shape));
            }
        }
        List<JsonNode> leaves = new ArrayList<>();
        flatten(n, leaves);
        long expected = Shapes.numElements(shape);
        if (leaves.size() != expected) {
            throw new IllegalArgumentException(
                    "default has "
                            + leaves.size()
                            + " values but shape "
                            + Shapes.format(shape)
                            + " needs "
                            + expected);
        }
        switch (dtype) {
            case INT64:
                long[] longs = new long[leaves.size()];
                for (int i = 0; i < longs.length; i++) {
                    longs[i] = int64(leaves.get(i), "default value");
                }
                return Optional.of(DefaultValue.ofInt64(longs));
            case FLOAT32:
                float[] floats = new float[leaves.size()];
                for (int i = 0; i < floats.length; i++) {
                    floats[i] = float32(leaves.get(i));
                }
                return Optional.of(DefaultValue.ofFloat32(floats));
            default:
                byte[][] bytes = new byte[leaves.size()][];
                for (int i = 0; i < bytes.length; i++) {
                    bytes[i] = bytes(leaves.get(i));
                }
                return Optional.of(DefaultValue.ofBytes(bytes));
        }
    }

    private static void flatten(JsonNode n, List<JsonNode> out) {
        if (n.isArray()) {
            for (JsonNode v : n) {
                flatten(v, out);
            }
        } else {
            out.add(n);
        }
    }

    static float float32(JsonNode n) {
        if (n.isTextual()) {
            switch (n.textValue()) {
                case "NaN":
                    return Float.NaN;
                case "Infinity":
                    return Float.POSITIVE_INFINITY;
                case "-Infinity":
                    return Float.NEGATIVE_INFINITY;
                default:
                    break;
            }
        }
        if (!n.isNumber()) {
            throw new IllegalArgumentException(
                    "float32 default value must be a number, \"NaN\", \"Infinity\" or"
                            + " \"-Infinity\"; got "
                            + n);
        }
        float f =
                n.isDouble()
                        ? (float) n.doubleValue()
                        : Float.parseFloat(n.decimalValue().toString());
        if (Float.isInfinite(f)) {
            throw new IllegalArgumentException(
                    "float32 default value " + n + " is outside the float32 range");
        }
        return f;
    }

    static byte[] bytes(JsonNode n) {
        if (n.isTextual()) {
            try {
                var buf =
                        StandardCharsets.UTF_8
                                .newEncoder()
                                .onMalformedInput(CodingErrorAction.REPORT)
                                .onUnmappableCharacter(CodingErrorAction.REPORT)
                                .encode(CharBuffer.wrap(n.textValue()));
                byte[] out = new byte[buf.remaining()];
                buf.get(out);
                return out;
            } catch (CharacterCodingException e) {
                throw new IllegalArgumentException(
                        "string default value " + n + " is not valid Unicode (lone surrogate)");
            }
        }
        if (n.isObject() && n.size() == 1 && n.has("base64") && n.get("base64").isTextual()) {
            try {
                return Base64.getDecoder().decode(n.get("base64").textValue());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "string default value " + n + " is not valid base64: " + e.getMessage());
            }
        }
        throw new IllegalArgumentException(
                "string default value must be a JSON string or {\"base64\": \"...\"}; got " + n);
    }
}
