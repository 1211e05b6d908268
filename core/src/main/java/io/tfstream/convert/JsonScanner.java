package io.tfstream.convert;

import java.nio.charset.StandardCharsets;

/**
 * A strict JSON reader over UTF-8 bytes for {@link JsonToExample}: tokens of RFC 8259 read in place
 * without objects per token. Strings without escapes stay in the input ({@link #start()}, {@link
 * #length()}); escaped ones are decoded into a reused buffer. Numbers are checked against the JSON
 * grammar and read as int64 or float32 (correctly rounded). Every error is a {@link
 * ConversionException} at the current field's path with the byte offset.
 */
final class JsonScanner {
    private static final int MAX_DEPTH = 1000;

    private byte[] buf;
    private int pos;
    private int limit;
    private int origin;
    private String at = ConversionException.RECORD;
    // The last string: in buf (escaped == false) or in text.
    private byte[] text = new byte[64];
    private boolean escaped;
    private int start;
    private int length;
    // The last number's extent and kind.
    private int numStart;
    private int numEnd;
    private boolean integral;
    private boolean negative;
    private long intValue;
    private boolean intOverflow;
    private long mantissa;
    private int significant;
    private int power10;

    void wrap(byte[] b, int off, int len) {
        buf = b;
        pos = off;
        origin = off;
        limit = off + len;
        at = ConversionException.RECORD;
    }

    void at(String path) {
        at = path;
    }

    String at() {
        return at;
    }

    /** The next non-whitespace byte, not consumed; -1 at the end. */
    int peek() {
        while (pos < limit) {
            byte c = buf[pos];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return c;
            }
            pos++;
        }
        return -1;
    }

    void skipByte() {
        pos++;
    }

    void expect(char c) throws ConversionException {
        if (peek() != c) {
            throw invalid("expected '" + c + "'");
        }
        pos++;
    }

    /**
     * Consumes the string whose opening quote is next when it is exactly {@code key} (given without
     * escapes: no quote, backslash or control byte in it), else nothing; true when consumed. {@code
     * word} is {@link #quotedWord} of a key below 8 bytes.
     */
    boolean skipString(byte[] key, long word) {
        int n = key.length;
        int p = pos;
        if (n < 8 && p + 9 <= limit) {
            // one word: the key and its closing quote, the bytes after them masked off
            long x = (long) LONGS.get(buf, p + 1);
            if ((x & quotedMask(n)) != word) {
                return false;
            }
            pos = p + n + 2;
            return true;
        }
        if (p + n + 1 >= limit || buf[p + n + 1] != '"') {
            return false;
        }
        if (!java.util.Arrays.equals(buf, p + 1, p + 1 + n, key, 0, n)) {
            return false;
        }
        pos = p + n + 2;
        return true;
    }

    /** The mask of the first {@code n + 1} bytes of a word: a key below 8 bytes and its quote. */
    static long quotedMask(int n) {
        return n == 7 ? -1L : (1L << (8 * (n + 1))) - 1;
    }

    /** {@code key} (below 8 bytes) and a closing quote as a little-endian word. */
    static long quotedWord(byte[] key) {
        long w = 0;
        for (int i = key.length - 1; i >= 0; i--) {
            w = (w << 8) | (key[i] & 0xFF);
        }
        return w | ((long) '"' << (8 * key.length));
    }

    /** Reads a string whose opening quote is next. */
    void readString() throws ConversionException {
        pos++; // the quote
        int s = pos;
        // Eight bytes at a time up to the first byte the loop below must look at: a quote, a
        // backslash, a control byte or a non-ASCII byte (only bytes after such a byte can be
        // flagged wrongly, through borrows).
        while (pos + 8 <= limit) {
            long x = (long) LONGS.get(buf, pos);
            long q = x ^ 0x2222222222222222L;
            long bs = x ^ 0x5C5C5C5C5C5C5C5CL;
            long flags =
                    ((q - 0x0101010101010101L) & ~q)
                            | ((bs - 0x0101010101010101L) & ~bs)
                            | ((x - 0x2020202020202020L) & ~x)
                            | x;
            flags &= 0x8080808080808080L;
            if (flags != 0) {
                pos += Long.numberOfTrailingZeros(flags) >>> 3;
                break;
            }
            pos += 8;
        }
        while (pos < limit) {
            int c = buf[pos];
            if (c == '"') {
                escaped = false;
                start = s;
                length = pos - s;
                pos++;
                return;
            }
            if (c == '\\' || (c >= 0 && c < 0x20)) {
                break;
            }
            if (c < 0) {
                validateUtf8();
                continue;
            }
            pos++;
        }
        if (pos >= limit) {
            throw invalid("a string without its closing quote");
        }
        slowString(s);
    }

    private void slowString(int s) throws ConversionException {
        int n = pos - s;
        ensureText(n + 16);
        System.arraycopy(buf, s, text, 0, n);
        while (true) {
            if (pos >= limit) {
                throw invalid("a string without its closing quote");
            }
            int c = buf[pos];
            if (c == '"') {
                pos++;
                break;
            }
            if (c >= 0 && c < 0x20) {
                throw invalid("a control character in a string");
            }
            ensureText(n + 4);
            if (c != '\\') {
                int from = pos;
                if (c < 0) {
                    validateUtf8();
                } else {
                    pos++;
                }
                ensureText(n + (pos - from));
                System.arraycopy(buf, from, text, n, pos - from);
                n += pos - from;
                continue;
            }
            if (pos + 1 >= limit) {
                throw invalid("a string without its closing quote");
            }
            int e = buf[pos + 1];
            pos += 2;
            int decoded =
                    switch (e) {
                        case '"' -> '"';
                        case '\\' -> '\\';
                        case '/' -> '/';
                        case 'b' -> '\b';
                        case 'f' -> '\f';
                        case 'n' -> '\n';
                        case 'r' -> '\r';
                        case 't' -> '\t';
                        case 'u' -> -1;
                        default -> throw invalid("an invalid escape \\" + (char) (e & 0xFF));
                    };
            if (decoded >= 0) {
                text[n++] = (byte) decoded;
                continue;
            }
            int cp = hex4();
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (pos + 6 <= limit && buf[pos] == '\\' && buf[pos + 1] == 'u') {
                    pos += 2;
                    int low = hex4();
                    if (low < 0xDC00 || low > 0xDFFF) {
                        throw invalid("a high surrogate without its low surrogate");
                    }
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                } else {
                    throw invalid("a high surrogate without its low surrogate");
                }
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                throw invalid("a low surrogate without its high surrogate");
            }
            n = putCodePoint(cp, n);
        }
        escaped = true;
        start = 0;
        length = n;
    }

    private int hex4() throws ConversionException {
        if (pos + 4 > limit) {
            throw invalid("a \\u escape cut short");
        }
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int d = Character.digit(buf[pos + i], 16);
            if (d < 0) {
                throw invalid("a \\u escape with a non-hex digit");
            }
            v = v << 4 | d;
        }
        pos += 4;
        return v;
    }

    private int putCodePoint(int cp, int n) {
        ensureText(n + 4);
        if (cp < 0x80) {
            text[n++] = (byte) cp;
        } else if (cp < 0x800) {
            text[n++] = (byte) (0xC0 | cp >> 6);
            text[n++] = (byte) (0x80 | cp & 0x3F);
        } else if (cp < 0x10000) {
            text[n++] = (byte) (0xE0 | cp >> 12);
            text[n++] = (byte) (0x80 | cp >> 6 & 0x3F);
            text[n++] = (byte) (0x80 | cp & 0x3F);
        } else {
            text[n++] = (byte) (0xF0 | cp >> 18);
            text[n++] = (byte) (0x80 | cp >> 12 & 0x3F);
            text[n++] = (byte) (0x80 | cp >> 6 & 0x3F);
            text[n++] = (byte) (0x80 | cp & 0x3F);
        }
        return n;
    }

    /** Consumes one well-formed multi-byte UTF-8 sequence at pos (no overlongs, no surrogates). */
    private void validateUtf8() throws ConversionException {
        int b0 = buf[pos] & 0xFF;
        int need;
        int min;
        if (b0 >= 0xC2 && b0 <= 0xDF) {
            need = 1;
            min = 0x80;
        } else if (b0 >= 0xE0 && b0 <= 0xEF) {
            need = 2;
            min = 0x800;
        } else if (b0 >= 0xF0 && b0 <= 0xF4) {
            need = 3;
            min = 0x10000;
        } else {
            throw invalid("invalid UTF-8");
        }
        if (pos + need >= limit) {
            throw invalid("invalid UTF-8");
        }
        int cp = b0 & (0x3F >> need);
        for (int i = 1; i <= need; i++) {
            int b = buf[pos + i] & 0xFF;
            if ((b & 0xC0) != 0x80) {
                throw invalid("invalid UTF-8");
            }
            cp = cp << 6 | (b & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            throw invalid("invalid UTF-8");
        }
        pos += need + 1;
    }

    private void ensureText(int n) {
        if (text.length < n) {
            text = java.util.Arrays.copyOf(text, Math.max(n, text.length * 2));
        }
    }

    /** The bytes of the last string: {@link #stringBytes()} from {@link #start()}. */
    byte[] stringBytes() {
        return escaped ? text : buf;
    }

    int start() {
        return start;
    }

    int length() {
        return length;
    }

    /** The last string as Java text (for names with escapes and for messages). */
    String string() {
        return new String(stringBytes(), start, length, StandardCharsets.UTF_8);
    }

    /**
     * Reads a number whose first byte ('-' or a digit) is next; see {@link #integral()}. One pass:
     * the grammar is checked while the int64 value (accumulated negatively, so that {@code
     * Long.MIN_VALUE} fits) and the first 15 significant digits with their power of ten are
     * gathered for {@link #longValue} and {@link #floatValue}.
     */
    void readNumber() throws ConversionException {
        readNumber(INT_VALUE | FLOAT_VALUE);
    }

    /** {@link #longValue} of the next number wanted. */
    static final int INT_VALUE = 1;

    /** {@link #floatValue} of the next number wanted. */
    static final int FLOAT_VALUE = 2;

    /**
     * {@link #readNumber()} gathering only the values in {@code want} ({@link #INT_VALUE}, {@link
     * #FLOAT_VALUE}, or 0 for the text alone): a feature needs one of them, not both.
     */
    void readNumber(int want) throws ConversionException {
        boolean wantInt = (want & INT_VALUE) != 0;
        boolean wantFloat = (want & FLOAT_VALUE) != 0;
        byte[] b = buf;
        int lim = limit;
        int p = pos;
        int s = p;
        boolean neg = p < lim && b[p] == '-';
        if (neg) {
            p++;
        }
        int digits = p;
        long v = 0;
        boolean overflow = false;
        long m = 0;
        int sig = 0;
        int exp10 = 0;
        if (p < lim && b[p] == '0') {
            p++;
        } else {
            // Eight digits at a time while no overflow is possible (18 digits) and the float's
            // 15 significant digits are not full; the loop below takes the rest one by one.
            while (p + 8 <= lim) {
                long x = (long) LONGS.get(b, p);
                int k = digitRun(x);
                int n = p - digits + k;
                if (k == 0 || n > 18 || (wantFloat && n > 15)) {
                    break;
                }
                long chunk = eightDigits(x, k);
                v = v * POW10_LONG[k] - chunk; // negative, as below
                m = m * POW10_LONG[k] + chunk;
                sig = n;
                p += k;
                if (k < 8) {
                    break;
                }
            }
            if (!wantFloat) {
                m = 0;
                sig = 0;
            }
            while (p < lim) {
                int d = b[p] - '0';
                if (d < 0 || d > 9) {
                    break;
                }
                if (wantInt) {
                    if (v < LONG_MUL_MIN) {
                        overflow = true;
                    } else {
                        v *= 10;
                        overflow |= v < Long.MIN_VALUE + d;
                        v -= d;
                    }
                }
                if (wantFloat) {
                    if (sig < 15) {
                        m = m * 10 + d;
                    } else {
                        exp10++;
                    }
                    sig++;
                }
                p++;
            }
        }
        if (p == digits) {
            pos = p;
            throw invalid("a number without digits");
        }
        boolean isInt = true;
        if (p < lim && b[p] == '.') {
            p++;
            int f = p;
            while (p + 8 <= lim) {
                long x = (long) LONGS.get(b, p);
                int k = digitRun(x);
                if (k == 0) {
                    break;
                }
                if (wantFloat) {
                    long chunk = eightDigits(x, k);
                    int chunkSig = sig > 0 ? k : decimalDigits(chunk);
                    if (sig + chunkSig > 15) {
                        break;
                    }
                    m = m * POW10_LONG[k] + chunk;
                    sig += chunkSig;
                    exp10 -= k;
                }
                p += k;
                if (k < 8) {
                    break;
                }
            }
            while (p < lim) {
                int d = b[p] - '0';
                if (d < 0 || d > 9) {
                    break;
                }
                if (!wantFloat) {
                    // the grammar only
                } else if (sig == 0 && d == 0) {
                    exp10--;
                } else if (sig < 15) {
                    m = m * 10 + d;
                    sig++;
                    exp10--;
                } else {
                    sig++;
                }
                p++;
            }
            if (p == f) {
                pos = p;
                throw invalid("a number without digits after '.'");
            }
            isInt = false;
        }
        if (p < lim && (b[p] == 'e' || b[p] == 'E')) {
            p++;
            boolean eneg = false;
            if (p < lim && (b[p] == '+' || b[p] == '-')) {
                eneg = b[p] == '-';
                p++;
            }
            int e = p;
            int x = 0;
            while (p < lim && b[p] >= '0' && b[p] <= '9') {
                x = Math.min(x * 10 + (b[p] - '0'), 100_000);
                p++;
            }
            if (p == e) {
                pos = p;
                throw invalid("a number without exponent digits");
            }
            exp10 += eneg ? -x : x;
            isInt = false;
        }
        pos = p;
        numStart = s;
        numEnd = p;
        integral = isInt;
        negative = neg;
        intValue = v;
        intOverflow = overflow;
        mantissa = m;
        significant = sig;
        power10 = exp10;
    }

    private static final long LONG_MUL_MIN = Long.MIN_VALUE / 10;

    private static final java.lang.invoke.VarHandle LONGS =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
                    long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /** 10^k for k up to 18, the powers a run of digits is scaled by. */
    private static final long[] POW10_LONG = new long[19];

    /** How many of the eight bytes of {@code x} (little-endian) are ASCII digits before another. */
    static int digitRun(long x) {
        // A digit's byte stays below 0x80 both plus 0x46 and minus 0x30; any other byte, and
        // only bytes after it through carries, gets its top bit set.
        long flags = ((x + 0x4646464646464646L) | (x - 0x3030303030303030L)) & 0x8080808080808080L;
        return flags == 0 ? 8 : Long.numberOfTrailingZeros(flags) >>> 3;
    }

    /** The value of the first {@code k} (1 to 8) bytes of {@code x}, ASCII digits, in order. */
    static long eightDigits(long x, int k) {
        if (k < 8) {
            // the k digits to the top, '0's below them: the same value as eight digits
            x = (x << (8 * (8 - k))) | (0x3030303030303030L >>> (8 * k));
        }
        x -= 0x3030303030303030L;
        x = (x * 10) + (x >>> 8); // pairs of digits
        return (((x & 0x000000FF000000FFL) * (100 + (1000000L << 32)))
                        + (((x >>> 16) & 0x000000FF000000FFL) * (1 + (10000L << 32))))
                >>> 32;
    }

    /** The number of decimal digits of {@code v} (0 for 0), v below 10^8. */
    private static int decimalDigits(long v) {
        int n = 0;
        while (n < 8 && v >= POW10_LONG[n]) {
            n++;
        }
        return n;
    }

    boolean integral() {
        return integral;
    }

    String numberText() {
        return new String(buf, numStart, numEnd - numStart, StandardCharsets.ISO_8859_1);
    }

    /**
     * The last integral number as int64 (read with {@link #INT_VALUE}); false when out of range.
     */
    boolean longValue(long[] out) {
        if (intOverflow || (!negative && intValue == Long.MIN_VALUE)) {
            return false;
        }
        out[0] = negative ? intValue : -intValue;
        return true;
    }

    /** The last number (read with {@link #FLOAT_VALUE}) as float32, correctly rounded. */
    float floatValue() {
        // Fast path: up to 15 significant digits and a small power of ten give the correctly
        // rounded double; rounding that to float is correct unless it sits on a float midpoint.
        long m = mantissa;
        if (m == 0 && significant == 0) {
            return negative ? -0f : 0f;
        }
        int exp10 = power10;
        if (significant > 15 || exp10 < -22 || exp10 > 22) {
            return Float.parseFloat(numberText());
        }
        double d = exp10 < 0 ? m / POW10[-exp10] : m * POW10[exp10];
        long bits = Double.doubleToRawLongBits(d);
        if ((bits & 0x1FFFFFFFL) == 0x10000000L) {
            return Float.parseFloat(numberText()); // exactly between two floats: decide from text
        }
        float f = (float) d;
        return negative ? -f : f;
    }

    private static final double[] POW10 = new double[23];

    static {
        double p = 1;
        for (int k = 0; k < POW10.length; k++) {
            POW10[k] = p;
            if (k < POW10_LONG.length) {
                POW10_LONG[k] = (long) p; // exact: every 10^k up to 10^22 is a double
            }
            p *= 10;
        }
    }

    /** Reads the literal {@code word} (true, false, null) whose first byte is next. */
    void readLiteral(String word) throws ConversionException {
        int n = word.length();
        if (limit - pos < n) {
            throw invalid("an invalid literal");
        }
        for (int k = 0; k < n; k++) {
            if (buf[pos + k] != word.charAt(k)) {
                throw invalid("an invalid literal");
            }
        }
        pos += n;
    }

    /** Skips one value of any kind, checking it; {@code depth} guards deep nesting. */
    void skipValue(int depth) throws ConversionException {
        if (depth > MAX_DEPTH) {
            throw invalid("nesting deeper than " + MAX_DEPTH);
        }
        int c = peek();
        switch (c) {
            case '{' -> {
                pos++;
                if (peek() == '}') {
                    pos++;
                    return;
                }
                while (true) {
                    if (peek() != '"') {
                        throw invalid("expected a field name");
                    }
                    readString();
                    expect(':');
                    skipValue(depth + 1);
                    int n = peek();
                    pos++;
                    if (n == '}') {
                        return;
                    }
                    if (n != ',') {
                        throw invalid("expected ',' or '}'");
                    }
                }
            }
            case '[' -> {
                pos++;
                if (peek() == ']') {
                    pos++;
                    return;
                }
                while (true) {
                    skipValue(depth + 1);
                    int n = peek();
                    pos++;
                    if (n == ']') {
                        return;
                    }
                    if (n != ',') {
                        throw invalid("expected ',' or ']'");
                    }
                }
            }
            case '"' -> readString();
            case 't' -> readLiteral("true");
            case 'f' -> readLiteral("false");
            case 'n' -> readLiteral("null");
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    readNumber(0);
                } else {
                    throw invalid(c < 0 ? "the record ends early" : "an unexpected character");
                }
            }
        }
    }

    ConversionException invalid(String what) {
        return new ConversionException(
                at, "invalid JSON: " + what + " at byte " + (Math.min(pos, limit) - origin));
    }
}
