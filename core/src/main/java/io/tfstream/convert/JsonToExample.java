package io.tfstream.convert;

import io.tfstream.parse.FeatureSink;
import io.tfstream.spec.DType;
import io.tfstream.text.Quoted;
import java.nio.charset.StandardCharsets;

/**
 * One UTF-8 JSON object → the schema's {@code tf.train.Example}, read in one pass over the bytes by
 * a strict {@link JsonScanner} (no tree, no token objects, field names matched as bytes). Per
 * feature type: INT takes JSON integers in the int64 range and booleans (1/0); FLOAT takes JSON
 * numbers (correctly rounded to float32); BYTES takes strings as UTF-8 (or base64 with {@link
 * ConvertOptions#jsonBase64}). An array of such values is the list; {@code null} leaves the feature
 * absent; {@code []} is an empty list. A nested object is refused where it holds schema features,
 * unless {@link ConvertOptions#flatten} names its fields {@code parent.child}. Fields that name no
 * feature are skipped (still checked as JSON) and counted. Unlike TFX's {@code dict_to_example},
 * the schema decides the types, not the values.
 */
public final class JsonToExample extends BuildingConverter {
    /** Nested objects read with {@code flatten}, at most this deep. */
    static final int MAX_FLATTEN_DEPTH = 64;

    private final ConvertFeatures features;
    private final ConvertOptions options;
    private FeatureSink sink; // of the record being converted
    private byte[] scratch = new byte[64];
    private final JsonScanner sc = new JsonScanner();
    private final FieldNames names;
    // The slot of the top-level field that followed slot s - 1 (index 0: the first field) in the
    // last record that had both: records of one topic keep their field order, also when fields
    // are missing, so a name is checked against this guess before it is looked up.
    private final int[] after;
    private final long[] number = new long[1];

    public JsonToExample(ConvertFeatures features, ConvertOptions options) {
        super(features);
        this.features = features;
        this.options = options;
        this.names = new FieldNames(features);
        this.after = new int[features.size() + 1];
        java.util.Arrays.fill(after, -1);
    }

    @Override
    public void convertInto(byte[] in, int off, int len, FeatureSink sink)
            throws ConversionException {
        this.sink = sink;
        sink.reset();
        ignored = 0;
        sc.wrap(in, off, len);
        int c = sc.peek();
        if (c != '{') {
            sc.at(ConversionException.RECORD);
            if (c == 't' || c == 'f' || c == 'n') {
                // "not json" is no literal: only a whole true, false or null is
                sc.readLiteral(c == 't' ? "true" : c == 'f' ? "false" : "null");
            } else if (c != -1 && c != '[' && c != '"' && c != '-' && (c < '0' || c > '9')) {
                throw sc.invalid("an unexpected character");
            }
            throw new ConversionException(
                    ConversionException.RECORD,
                    "the record is not a JSON object (" + ahead(c) + ")");
        }
        object(null, 0);
        sc.at(ConversionException.RECORD);
        if (sc.peek() != -1) {
            throw new ConversionException(
                    ConversionException.RECORD,
                    "more JSON after the object (" + ahead(sc.peek()) + ")");
        }
    }

    private static String ahead(int c) {
        return switch (c) {
            case -1 -> "no value";
            case '[' -> "a JSON array";
            case '{' -> "a JSON object";
            case '"' -> "a JSON string";
            case 't', 'f', 'n' -> "a JSON literal";
            default -> c == '-' || (c >= '0' && c <= '9') ? "a JSON number" : "not JSON";
        };
    }

    /** The fields of the object whose '{' is next; {@code prefix} null at top level. */
    private void object(String prefix, int depth) throws ConversionException {
        if (depth > MAX_FLATTEN_DEPTH) {
            throw sc.invalid("objects nested deeper than " + MAX_FLATTEN_DEPTH);
        }
        sc.skipByte();
        if (sc.peek() == '}') {
            sc.skipByte();
            return;
        }
        int previous = -1; // the slot of the last top-level field of a feature
        while (true) {
            if (sc.peek() != '"') {
                throw sc.invalid("expected a field name");
            }
            String path = null;
            int slot;
            int guess = prefix == null ? after[previous + 1] : -1;
            if (guess >= 0
                    && names.plain(guess)
                    && sc.skipString(names.key(guess), names.word(guess))) {
                slot = guess;
                previous = slot;
            } else if (prefix == null) {
                sc.readString();
                slot = names.slot(sc.stringBytes(), sc.start(), sc.length());
                if (slot >= 0) {
                    after[previous + 1] = slot;
                    previous = slot;
                }
            } else {
                sc.readString();
                path = prefix + '.' + sc.string();
                slot = features.slot(path);
            }
            if (slot < 0 && path == null) {
                path = sc.string();
            }
            sc.expect(':');
            int c = sc.peek();
            if (slot < 0) {
                sc.at(path);
                if (c == '{' && options.flatten()) {
                    object(path, depth + 1);
                } else if (c == '{' && features.isPrefix(path)) {
                    throw new ConversionException(
                            path,
                            "a nested object holding schema features; set"
                                    + " source.convert.flatten: true (tfstream convert: --flatten)"
                                    + " to read them as "
                                    + path
                                    + ".<field>");
                } else {
                    ignored++;
                    sc.skipValue(depth + 1);
                }
            } else {
                feature(slot, c);
            }
            int n = sc.peek();
            sc.skipByte();
            if (n == '}') {
                return;
            }
            if (n != ',') {
                throw sc.invalid(n == -1 ? "the object is not closed" : "expected ',' or '}'");
            }
        }
    }

    private void feature(int slot, int c) throws ConversionException {
        String name = features.name(slot);
        sc.at(name);
        if (c == 'n') {
            sc.readLiteral("null");
            return; // absent, as a missing field
        }
        if (!sink.start(slot)) {
            throw new ConversionException(name, "the field appears twice");
        }
        if (c != '[') {
            value(slot, c, -1);
            return;
        }
        sc.skipByte();
        if (sc.peek() == ']') {
            sc.skipByte();
            return;
        }
        for (int i = 0; ; i++) {
            value(slot, sc.peek(), i);
            int n = sc.peek();
            sc.skipByte();
            if (n == ']') {
                return;
            }
            if (n != ',') {
                throw sc.invalid("expected ',' or ']'");
            }
        }
    }

    /** One scalar starting with byte {@code c} into {@code slot}; {@code index} >= 0 in a list. */
    private void value(int slot, int c, int index) throws ConversionException {
        DType type = features.type(slot);
        boolean number = c == '-' || (c >= '0' && c <= '9');
        switch (type) {
            case INT64 -> {
                if (number) {
                    sc.readNumber(JsonScanner.INT_VALUE);
                    if (!sc.integral()) {
                        throw misfit(
                                slot,
                                index,
                                "JSON number " + Quoted.cut(sc.numberText()),
                                "does not fit");
                    }
                    if (!sc.longValue(this.number)) {
                        throw misfit(
                                slot,
                                index,
                                "JSON number " + Quoted.cut(sc.numberText()),
                                "is out of the int64 range");
                    }
                    sink.addInt64(slot, this.number[0]);
                    return;
                }
                if (c == 't' || c == 'f') {
                    sc.readLiteral(c == 't' ? "true" : "false");
                    sink.addInt64(slot, c == 't' ? 1 : 0);
                    return;
                }
            }
            case FLOAT32 -> {
                if (number) {
                    sc.readNumber(JsonScanner.FLOAT_VALUE);
                    sink.addFloat(slot, sc.floatValue());
                    return;
                }
            }
            case STRING -> {
                if (c == '"') {
                    sc.readString();
                    if (options.jsonBase64()) {
                        try {
                            addBase64(slot, sc.stringBytes(), sc.start(), sc.length());
                        } catch (IllegalArgumentException e) {
                            throw misfit(
                                    slot,
                                    index,
                                    "JSON string " + quote(sc.string()),
                                    "is not base64: " + e.getMessage());
                        }
                    } else {
                        sink.addBytes(slot, sc.stringBytes(), sc.start(), sc.length());
                    }
                    return;
                }
            }
        }
        String where = index >= 0 ? " inside the list" : "";
        throw misfit(slot, index, describe(c, number), "does not fit" + where);
    }

    /**
     * Appends the base64 text {@code b[off, off + len)} decoded ({@link Base64Bytes}) as one value.
     *
     * @throws IllegalArgumentException when the text is not base64
     */
    private void addBase64(int slot, byte[] b, int off, int len) {
        int max = Base64Bytes.maxDecoded(len);
        if (scratch.length < max) {
            scratch = new byte[Math.max(max, scratch.length * 2)];
        }
        sink.addBytes(slot, scratch, 0, Base64Bytes.decode(b, off, len, scratch, 0));
    }

    /** The value starting with {@code c}, read, as a message names it. */
    private String describe(int c, boolean number) throws ConversionException {
        if (number) {
            sc.readNumber(0);
            return "JSON number " + Quoted.cut(sc.numberText());
        }
        return switch (c) {
            case '{' -> "a JSON object";
            case '[' -> "a JSON array";
            case '"' -> {
                sc.readString();
                yield "JSON string " + quote(sc.string());
            }
            case 't' -> "JSON true";
            case 'f' -> "JSON false";
            case 'n' -> "JSON null";
            case -1 -> throw sc.invalid("the record ends early");
            default -> throw sc.invalid("an unexpected character");
        };
    }

    private ConversionException misfit(int slot, int index, String value, String what) {
        String name = features.name(slot);
        return new ConversionException(
                index >= 0 ? name + "[" + index + "]" : name,
                value
                        + " "
                        + what
                        + " ("
                        + ConvertFeatures.kind(features.type(slot))
                        + " feature '"
                        + name
                        + "')");
    }

    private static String quote(String s) {
        return "\"" + Quoted.cut(s) + "\"";
    }

    /** Feature names as UTF-8 bytes in an open-addressing table, matched without a String. */
    private static final class FieldNames {
        private final byte[][] keys;
        private final int[] slots;
        private final int mask;
        private final byte[][] bySlot;
        private final boolean[] plain;
        private final long[] words;

        FieldNames(ConvertFeatures f) {
            bySlot = new byte[f.size()][];
            plain = new boolean[f.size()];
            words = new long[f.size()];
            for (int s = 0; s < f.size(); s++) {
                bySlot[s] = f.name(s).getBytes(StandardCharsets.UTF_8);
                plain[s] = true;
                for (byte b : bySlot[s]) {
                    plain[s] &= b != '"' && b != '\\' && (b < 0 || b >= 0x20);
                }
                words[s] = bySlot[s].length < 8 ? JsonScanner.quotedWord(bySlot[s]) : 0;
            }
            int size = Integer.highestOneBit(Math.max(4, f.size() * 4) - 1) << 1;
            keys = new byte[size][];
            slots = new int[size];
            mask = size - 1;
            for (int s = 0; s < f.size(); s++) {
                byte[] k = f.name(s).getBytes(StandardCharsets.UTF_8);
                int h = hash(k, 0, k.length) & mask;
                while (keys[h] != null) {
                    h = (h + 1) & mask;
                }
                keys[h] = k;
                slots[h] = s;
            }
        }

        /** The UTF-8 name of {@code slot}. */
        byte[] key(int slot) {
            return bySlot[slot];
        }

        /** The name of {@code slot} and its closing quote as one word, for names below 8 bytes. */
        long word(int slot) {
            return words[slot];
        }

        /** Whether the name of {@code slot} is written in JSON as its bytes, without escapes. */
        boolean plain(int slot) {
            return plain[slot];
        }

        int slot(byte[] b, int off, int len) {
            int h = hash(b, off, len) & mask;
            while (true) {
                byte[] k = keys[h];
                if (k == null) {
                    return -1;
                }
                if (k.length == len && java.util.Arrays.equals(k, 0, len, b, off, off + len)) {
                    return slots[h];
                }
                h = (h + 1) & mask;
            }
        }

        private static int hash(byte[] b, int off, int len) {
            int h = len;
            for (int i = off; i < off + len; i++) {
                h = 31 * h + b[i];
            }
            return h ^ (h >>> 16);
        }
    }
}
