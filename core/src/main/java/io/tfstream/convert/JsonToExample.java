package io.tfstream.convert;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.tfstream.spec.DType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * One UTF-8 JSON object → the schema's {@code tf.train.Example}, with Jackson's streaming parser
 * (no tree, no reflection). Per feature type: INT takes JSON integers in the int64 range and
 * booleans (1/0); FLOAT takes JSON numbers; BYTES takes strings as UTF-8 (or base64 with {@link
 * ConvertOptions#jsonBase64}). An array of such values is the list; {@code null} leaves the feature
 * absent; {@code []} is an empty list. A nested object is refused where it holds schema features,
 * unless {@link ConvertOptions#flatten} names its fields {@code parent.child}. Fields that name no
 * feature are skipped and counted. Unlike TFX's {@code dict_to_example}, the schema decides the
 * types, not the values.
 */
public final class JsonToExample implements ExampleConverter {
    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    private final ConvertFeatures features;
    private final ConvertOptions options;
    private final ExampleBuilder builder;
    private final Base64.Decoder base64 = Base64.getDecoder();
    private int ignored;

    public JsonToExample(ConvertFeatures features, ConvertOptions options) {
        this.features = features;
        this.options = options;
        this.builder = new ExampleBuilder(features);
    }

    @Override
    public int ignoredFields() {
        return ignored;
    }

    @Override
    public byte[] convert(byte[] in, int off, int len) throws ConversionException {
        builder.reset();
        ignored = 0;
        String path = ConversionException.RECORD;
        try (JsonParser p = FACTORY.createParser(in, off, len)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new ConversionException(
                        path, "the record is not a JSON object (" + describe(p) + ")");
            }
            object(p, null);
            JsonToken after = p.nextToken();
            if (after != null) {
                throw new ConversionException(
                        path, "more JSON after the object (" + describe(p) + ")");
            }
        } catch (StreamConstraintsException e) {
            throw new ConversionException(pathOf(e.getProcessor()), e.getOriginalMessage(), e);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new ConversionException(
                    pathOf(e.getProcessor()), "invalid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new ConversionException(path, "invalid JSON: " + e.getMessage(), e);
        }
        return builder.toBytes();
    }

    /** The fields of an object whose START_OBJECT was read; {@code prefix} null at top level. */
    private void object(JsonParser p, String prefix) throws IOException, ConversionException {
        String name;
        while ((name = p.nextFieldName()) != null) {
            String path = prefix == null ? name : prefix + '.' + name;
            JsonToken t = p.nextToken();
            int slot = features.slot(path);
            if (slot < 0) {
                if (t == JsonToken.START_OBJECT && options.flatten()) {
                    object(p, path);
                } else if (t == JsonToken.START_OBJECT && features.isPrefix(path)) {
                    throw new ConversionException(
                            path,
                            "a nested object holding schema features; set"
                                    + " source.convert.flatten: true to read them as "
                                    + path
                                    + ".<field>");
                } else {
                    ignored++;
                    p.skipChildren();
                }
                continue;
            }
            if (t == JsonToken.VALUE_NULL) {
                continue; // absent, as a missing field
            }
            if (!builder.start(slot)) {
                throw new ConversionException(path, "the field appears twice");
            }
            if (t == JsonToken.START_ARRAY) {
                int i = 0;
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                    value(p, e, slot, path, i++);
                }
            } else {
                value(p, t, slot, path, -1);
            }
        }
    }

    /** One scalar {@code t} into {@code slot}; {@code index} >= 0 inside an array. */
    private void value(JsonParser p, JsonToken t, int slot, String path, int index)
            throws IOException, ConversionException {
        DType type = builder.type(slot);
        switch (type) {
            case INT64 -> {
                if (t == JsonToken.VALUE_NUMBER_INT) {
                    if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                        throw misfit(p, path, index, type, "is out of the int64 range");
                    }
                    builder.addInt(slot, p.getLongValue());
                    return;
                }
                if (t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE) {
                    builder.addInt(slot, t == JsonToken.VALUE_TRUE ? 1 : 0);
                    return;
                }
            }
            case FLOAT32 -> {
                if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
                    builder.addFloat(slot, p.getFloatValue());
                    return;
                }
            }
            case STRING -> {
                if (t == JsonToken.VALUE_STRING) {
                    if (options.jsonBase64()) {
                        byte[] b;
                        try {
                            b = base64.decode(p.getText());
                        } catch (IllegalArgumentException e) {
                            throw misfit(p, path, index, type, "is not base64: " + e.getMessage());
                        }
                        builder.addBytes(slot, b, 0, b.length);
                    } else {
                        byte[] b = p.getText().getBytes(StandardCharsets.UTF_8);
                        builder.addBytes(slot, b, 0, b.length);
                    }
                    return;
                }
            }
        }
        String where = index >= 0 ? " inside the list" : "";
        throw misfit(p, path, index, type, "does not fit" + where);
    }

    private static ConversionException misfit(
            JsonParser p, String path, int index, DType type, String what) throws IOException {
        return new ConversionException(
                index >= 0 ? path + "[" + index + "]" : path,
                describe(p)
                        + " "
                        + what
                        + " ("
                        + ConvertFeatures.kind(type)
                        + " feature '"
                        + path
                        + "')");
    }

    /** The current token as an error names it: {@code JSON string "abc"}, {@code an object}. */
    private static String describe(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == null) {
            return "no value";
        }
        return switch (t) {
            case START_OBJECT -> "a JSON object";
            case START_ARRAY -> "a JSON array";
            case VALUE_STRING -> "JSON string " + quote(p.getText());
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "JSON number " + clip(p.getText());
            case VALUE_TRUE, VALUE_FALSE -> "JSON " + p.getText();
            case VALUE_NULL -> "JSON null";
            default -> "JSON " + t;
        };
    }

    private static String quote(String s) {
        return "\"" + clip(s) + "\"";
    }

    private static String clip(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }

    private static String pathOf(Object processor) {
        if (processor instanceof JsonParser p) {
            String name =
                    p.getParsingContext() == null ? null : p.getParsingContext().getCurrentName();
            return name == null ? ConversionException.RECORD : name;
        }
        return ConversionException.RECORD;
    }
}
