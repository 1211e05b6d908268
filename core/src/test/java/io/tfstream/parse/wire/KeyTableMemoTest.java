package io.tfstream.parse.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Looking a key up by its entry position gives the same id as hashing it, whatever the earlier
 * records held at that position: same key, another key of the same length differing in one byte,
 * requested or not, short or long (pooled) keys, keys at the very end of the buffer, more distinct
 * long keys than the pool holds, positions past the remembered range.
 */
class KeyTableMemoTest {

    @Test
    void positionLookupAgreesWithHashing() {
        SplittableRandom rnd = new SplittableRandom(3);
        List<String> requested = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            requested.add(randomKey(rnd));
        }
        KeyTable table = new KeyTable(requested);
        List<byte[]> vocabulary = new ArrayList<>();
        for (String k : requested) {
            vocabulary.add(k.getBytes(StandardCharsets.UTF_8));
        }
        for (int i = 0; i < 60; i++) {
            vocabulary.add(randomKey(rnd).getBytes(StandardCharsets.UTF_8));
        }
        for (int record = 0; record < 20_000; record++) {
            int entries = 1 + rnd.nextInt(rnd.nextInt(50) == 0 ? KeyTable.MEMO_POSITIONS + 50 : 40);
            for (int pos = 0; pos < entries; pos++) {
                byte[] key = pick(rnd, vocabulary, pos);
                // the key at an offset, sometimes flush with the end of its buffer
                int before = rnd.nextInt(4);
                int after = rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(9);
                byte[] buf = new byte[before + key.length + after];
                rnd.nextBytes(buf);
                System.arraycopy(key, 0, buf, before, key.length);
                int expected = table.find(buf, before, key.length);
                assertEquals(expected, table.findAt(pos, buf, before, key.length));
            }
        }
    }

    /** Mostly the same key per position; sometimes another one, a near miss or a fresh long key. */
    private static byte[] pick(SplittableRandom rnd, List<byte[]> vocabulary, int pos) {
        int r = rnd.nextInt(10);
        if (r < 6) {
            return vocabulary.get(pos % vocabulary.size());
        } else if (r < 8) {
            return vocabulary.get(rnd.nextInt(vocabulary.size()));
        } else if (r < 9) {
            byte[] k = vocabulary.get(pos % vocabulary.size()).clone();
            if (k.length > 0) {
                k[rnd.nextInt(k.length)] ^= (byte) (1 + rnd.nextInt(255));
            }
            return k;
        }
        byte[] k = new byte[9 + rnd.nextInt(300)];
        rnd.nextBytes(k);
        return k;
    }

    private static String randomKey(SplittableRandom rnd) {
        int len = rnd.nextInt(4) == 0 ? 9 + rnd.nextInt(30) : rnd.nextInt(9);
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < len; i++) {
            s.append((char) ('a' + rnd.nextInt(3)));
        }
        return s.toString() + "_" + rnd.nextInt(1000);
    }
}
