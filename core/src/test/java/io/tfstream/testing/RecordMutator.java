package io.tfstream.testing;

import java.util.Arrays;
import java.util.Random;

/**
 * Small random byte-level mutations of serialized records (flip, set to a wire-significant value,
 * insert, delete, duplicate a slice, truncate), to reach the malformed-input paths of a parser.
 * Deterministic for a seed.
 */
public final class RecordMutator {
    private static final int[] INTERESTING = {0x00, 0x08, 0x0a, 0x0d, 0x12, 0x1a, 0x7f, 0x80, 0xff};

    private final Random rnd;

    public RecordMutator(long seed) {
        rnd = new Random(seed);
    }

    /** {@code record} with 1 to {@code maxMutations} mutations applied. */
    public byte[] mutate(byte[] record, int maxMutations) {
        byte[] r = record;
        for (int m = 1 + rnd.nextInt(maxMutations); m > 0; m--) {
            r = mutateOnce(r);
        }
        return r;
    }

    private byte[] mutateOnce(byte[] r) {
        if (r.length == 0) {
            return new byte[] {(byte) INTERESTING[rnd.nextInt(INTERESTING.length)]};
        }
        int at = rnd.nextInt(r.length);
        switch (rnd.nextInt(6)) {
            case 0:
                r = r.clone();
                r[at] ^= (byte) (1 << rnd.nextInt(8));
                return r;
            case 1:
                r = r.clone();
                r[at] = (byte) INTERESTING[rnd.nextInt(INTERESTING.length)];
                return r;
            case 2:
                byte[] ins = new byte[r.length + 1];
                System.arraycopy(r, 0, ins, 0, at);
                ins[at] = (byte) INTERESTING[rnd.nextInt(INTERESTING.length)];
                System.arraycopy(r, at, ins, at + 1, r.length - at);
                return ins;
            case 3:
                byte[] del = new byte[r.length - 1];
                System.arraycopy(r, 0, del, 0, at);
                System.arraycopy(r, at + 1, del, at, r.length - at - 1);
                return del;
            case 4:
                int len = 1 + rnd.nextInt(Math.min(8, r.length - at));
                byte[] dup = new byte[r.length + len];
                System.arraycopy(r, 0, dup, 0, at + len);
                System.arraycopy(r, at, dup, at + len, r.length - at);
                return dup;
            default:
                return Arrays.copyOf(r, at);
        }
    }
}
