package io.tfstream.parse.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.tensor.Int64Buffer;
import java.io.ByteArrayOutputStream;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The packed int64 list decoder (word-at-a-time for varints of up to eight bytes) agrees with
 * decoding one varint after another with {@link WireCursor#readVarint64()}: same values, same
 * count, malformed exactly when a varint runs past the field or is longer than ten bytes, at any
 * distance from the end of the buffer.
 */
class PackedVarintDecodingTest {

    @Test
    void agreesWithVarintByVarintDecoding() throws Exception {
        SplittableRandom rnd = new SplittableRandom(5);
        int malformed = 0;
        for (int t = 0; t < 100_000; t++) {
            byte[] payload = randomVarints(rnd);
            // int64_list { packed value } with the payload, then 0..9 bytes of trailing slack
            ByteArrayOutputStream list = new ByteArrayOutputStream();
            list.write(0x0a);
            writeVarint(list, payload.length);
            list.write(payload, 0, payload.length);
            ByteArrayOutputStream f = new ByteArrayOutputStream();
            writeVarint(f, list.size());
            list.writeTo(f);
            int slack = rnd.nextInt(10);
            for (int i = 0; i < slack; i++) {
                f.write(rnd.nextInt(256));
            }
            byte[] buf = f.toByteArray();
            int end = buf.length - slack;

            WireCursor c = new WireCursor();
            c.reset(buf, 0, end);
            Int64Buffer out = new Int64Buffer(4);
            int n = FeatureListDecoder.int64List(c, out, FeatureListDecoder.NO_CAP, 1 << 20);

            long[] expected = reference(payload);
            if (expected == null) {
                malformed++;
                assertEquals(FeatureListDecoder.MALFORMED, n);
                continue;
            }
            assertEquals(expected.length, n);
            assertEquals(expected.length, out.size());
            for (int i = 0; i < n; i++) {
                assertEquals(expected[i], out.get(i));
            }
        }
        assertTrue(
                malformed > 1_000 && malformed < 90_000, "both outcomes exercised: " + malformed);
    }

    /** Varints of 1 to 11 bytes, sometimes cut short at the end. */
    private static byte[] randomVarints(SplittableRandom rnd) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int count = rnd.nextInt(12);
        for (int i = 0; i < count; i++) {
            int len = rnd.nextInt(20) == 0 ? 11 : 1 + rnd.nextInt(10);
            for (int j = 0; j < len; j++) {
                b.write(j < len - 1 ? 0x80 | rnd.nextInt(128) : rnd.nextInt(128));
            }
        }
        byte[] out = b.toByteArray();
        if (out.length > 0 && rnd.nextInt(10) == 0) {
            out[out.length - 1] |= (byte) 0x80; // the last varint does not end in the field
        }
        return out;
    }

    /** The values of the payload decoded one by one, or null if a varint fails. */
    private static long[] reference(byte[] payload) {
        WireCursor c = new WireCursor();
        c.reset(payload, 0, payload.length);
        Int64Buffer values = new Int64Buffer(4);
        while (!c.atEnd()) {
            if (!c.readVarint64()) {
                return null;
            }
            values.add(c.value);
        }
        long[] v = new long[values.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = values.get(i);
        }
        return v;
    }

    private static void writeVarint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7fL) != 0) {
            out.write((int) (v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.write((int) v);
    }
}
