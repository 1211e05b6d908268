package io.tfstream.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The sketch buffer's radix sort against a stable comparison sort; chunked column I/O. */
class DoubleSortAndColumnsTest {
    /**
     * Values of every kind a buffer holds: widened floats, wide doubles, signs, ties, infinities.
     */
    private static double[] values(Random r, int n) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] =
                    switch (r.nextInt(7)) {
                        case 0 -> (float) r.nextGaussian();
                        case 1 -> r.nextGaussian() * 1e300;
                        case 2 -> r.nextInt(5) - 2; // ties, zero
                        case 3 ->
                                r.nextBoolean()
                                        ? Double.POSITIVE_INFINITY
                                        : Double.NEGATIVE_INFINITY;
                        case 4 -> r.nextLong();
                        case 5 -> Double.MIN_VALUE * (r.nextBoolean() ? 1 : -1);
                        default -> -r.nextDouble();
                    };
        }
        return v;
    }

    @Test
    void sortsAsACompareSortAndCarriesWeightsStably() {
        Random r = new Random(7);
        for (int n : new int[] {0, 1, 2, 255, 256, 257, 1024, 11402, 40000}) {
            double[] v = values(r, n);
            double[] w = new double[n];
            for (int i = 0; i < n; i++) {
                w[i] = i; // the original position: a stable sort keeps ties in it
            }
            Integer[] idx = IntStream.range(0, n).boxed().toArray(Integer[]::new);
            double[] orig = v.clone();
            Arrays.sort(idx, Comparator.comparingDouble(i -> orig[i])); // stable
            double[] wantV = new double[n];
            double[] wantW = new double[n];
            for (int i = 0; i < n; i++) {
                wantV[i] = orig[idx[i]];
                wantW[i] = idx[i];
            }
            DoubleSort.sort(v, w, n);
            assertArrayEquals(wantV, v, "values, n=" + n);
            assertArrayEquals(wantW, w, "weights, n=" + n);

            double[] u = orig.clone();
            DoubleSort.sort(u, null, n);
            double[] sorted = orig.clone();
            Arrays.sort(sorted);
            assertArrayEquals(sorted, u, "unweighted, n=" + n);
        }
    }

    @Test
    void keysOrderAsTheDoublesAndRoundTrip() {
        double[] v = {
            Double.NEGATIVE_INFINITY,
            -1e300,
            -1,
            -Double.MIN_VALUE,
            -0.0,
            0.0,
            Double.MIN_VALUE,
            1,
            1e300,
            Double.POSITIVE_INFINITY
        };
        for (int i = 0; i < v.length; i++) {
            assertArrayEquals(
                    new double[] {v[i]}, new double[] {DoubleSort.value(DoubleSort.key(v[i]))});
            if (i > 0) {
                org.junit.jupiter.api.Assertions.assertTrue(
                        Long.compareUnsigned(DoubleSort.key(v[i - 1]), DoubleSort.key(v[i])) < 0);
            }
        }
    }

    /** The chunked columns write exactly what a writeDouble loop writes, and read it back. */
    @Test
    void columnsAreTheBytesOfAWriteDoubleLoop() throws Exception {
        Random r = new Random(11);
        for (int n : new int[] {0, 1, 255, 256, 257, 5000}) {
            double[] a = values(r, n);
            double[] b = values(r, n);
            ByteArrayOutputStream loop = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(loop)) {
                for (int i = 0; i < n; i++) {
                    out.writeDouble(a[i]);
                    out.writeDouble(b[i]);
                }
            }
            ByteArrayOutputStream bulk = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bulk)) {
                DoubleColumns.write(out, n, a, b);
            }
            assertArrayEquals(loop.toByteArray(), bulk.toByteArray(), "n=" + n);
            double[] ra = new double[n + 3];
            double[] rb = new double[n + 3];
            DoubleColumns.read(
                    new DataInputStream(new ByteArrayInputStream(bulk.toByteArray())),
                    3,
                    n,
                    ra,
                    rb);
            assertArrayEquals(a, Arrays.copyOfRange(ra, 3, n + 3));
            assertArrayEquals(b, Arrays.copyOfRange(rb, 3, n + 3));
        }
    }
}
