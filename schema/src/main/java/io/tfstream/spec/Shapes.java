package io.tfstream.spec;

import java.util.List;

/** Helpers for fixed tensor shapes as TensorFlow prints and counts them. */
public final class Shapes {
    private Shapes() {}

    /** Number of elements of a fully known shape; 1 for the scalar shape {@code []}. */
    public static long numElements(List<Long> shape) {
        long n = 1;
        for (long d : shape) {
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    /** TensorShape debug form without spaces: {@code []}, {@code [2]}, {@code [1,2,1]}. */
    public static String format(List<Long> shape) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < shape.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(shape.get(i));
        }
        return sb.append(']').toString();
    }

    static List<Long> checkKnown(String what, List<Long> shape) {
        if (shape == null) {
            throw new IllegalArgumentException("Missing shape for " + what);
        }
        for (Long d : shape) {
            if (d == null || d < 0) {
                throw new IllegalArgumentException(
                        "All dimensions of shape for "
                                + what
                                + " need to be known but received "
                                + shape);
            }
        }
        List<Long> copy = List.copyOf(shape);
        numElementsChecked(what, copy);
        return copy;
    }

    private static void numElementsChecked(String what, List<Long> shape) {
        try {
            numElements(shape);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(
                    "Shape " + shape + " of " + what + " has more than 2**63 - 1 elements", e);
        }
    }
}
