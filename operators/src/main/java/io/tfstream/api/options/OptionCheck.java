package io.tfstream.api.options;

import io.tfstream.text.Quoted;
import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.MemorySize;

/**
 * What an option's values must satisfy. {@link #check} fails with an {@link
 * IllegalArgumentException} of the form "invalid value 'v' for NAME: expected ...", NAME being how
 * the reader set the option.
 */
@FunctionalInterface
@PublicEvolving
public interface OptionCheck<T> {
    void check(T value, String name);

    /** The error for {@code value} of {@code name}. */
    static IllegalArgumentException invalid(Object value, String name, String expected) {
        return Quoted.invalidValue(value, name, expected);
    }

    /** A duration above zero. */
    static OptionCheck<Duration> positive() {
        return (d, name) -> {
            if (d.isNegative() || d.isZero()) {
                throw invalid(d, name, "a positive duration");
            }
        };
    }

    /** A duration of zero or more. */
    static OptionCheck<Duration> notNegative() {
        return (d, name) -> {
            if (d.isNegative()) {
                throw invalid(d, name, ">= 0");
            }
        };
    }

    /** A number of at least {@code min}. */
    static <N extends Number> OptionCheck<N> atLeast(long min) {
        return (n, name) -> {
            if (n.longValue() < min) {
                throw invalid(n, name, ">= " + min);
            }
        };
    }

    /** A number from {@code min} to {@code max}. */
    static <N extends Number> OptionCheck<N> between(long min, long max) {
        return (n, name) -> {
            if (n.longValue() < min || n.longValue() > max) {
                throw invalid(n, name, min + "-" + max);
            }
        };
    }

    /** A size of one byte or more. */
    static OptionCheck<MemorySize> oneByteOrMore() {
        return (m, name) -> {
            if (m.getBytes() < 1) {
                throw new IllegalArgumentException(
                        "invalid value for " + name + ": expected >= 1 byte");
            }
        };
    }

    /** A size that fits a Java array: 1 byte to 2 GiB. */
    static OptionCheck<MemorySize> arrayBytes() {
        return (m, name) -> {
            long b = m.getBytes();
            if (b < 1 || b > Integer.MAX_VALUE - 8) {
                throw invalid(m, name, "1 byte to 2 GiB");
            }
        };
    }

    /** One of {@code values}, a subset of an enum option's constants. */
    @SafeVarargs
    static <E extends Enum<E>> OptionCheck<E> oneOf(E... values) {
        java.util.List<E> accepted = new java.util.ArrayList<>();
        for (E v : values) {
            accepted.add(v);
        }
        return new OneOf<>(java.util.List.copyOf(accepted));
    }

    /** The check of {@link #oneOf}: the values an enum option accepts, for its help too. */
    final class OneOf<E extends Enum<E>> implements OptionCheck<E> {
        private final java.util.List<E> values;

        private OneOf(java.util.List<E> values) {
            this.values = values;
        }

        /** The accepted values, in order. */
        public java.util.List<E> values() {
            return values;
        }

        @Override
        public void check(E value, String name) {
            if (!values.contains(value)) {
                throw invalid(
                        value.name().toLowerCase(java.util.Locale.ROOT),
                        name,
                        "one of "
                                + values.stream()
                                        .map(v -> v.name().toLowerCase(java.util.Locale.ROOT))
                                        .collect(java.util.stream.Collectors.joining(", ")));
            }
        }
    }
}
