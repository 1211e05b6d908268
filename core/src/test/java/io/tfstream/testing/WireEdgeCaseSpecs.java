package io.tfstream.testing;

import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.Shapes;
import io.tfstream.spec.VarLenFeature;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * Random feature-spec dicts for {@link WireEdgeCaseGenerator}: scalar, vector, matrix and
 * zero-element shapes, with and without defaults, over keys that include the empty string and a
 * non-ASCII name. Narrower than the schema module's {@code RandomSpecs} (any spec the JSON codec
 * round-trips): only specs whose parse TensorFlow's kernel can be compared with on these records.
 */
final class WireEdgeCaseSpecs {
    private static final String[] SPEC_NAMES = {"a", "b", "c", "dd", "e_1", "", "k\u00e9y"};

    private final Random rnd;
    private final WireValues values;

    WireEdgeCaseSpecs(Random rnd, WireValues values) {
        this.rnd = rnd;
        this.values = values;
    }

    private FeatureSpec randomFeature() {
        DType dtype = DType.values()[rnd.nextInt(3)];
        switch (rnd.nextInt(4)) {
            case 0:
                List<Long> shape = randomShape(true);
                int n = (int) Shapes.numElements(shape);
                Optional<DefaultValue> d =
                        rnd.nextInt(3) == 0 || n == 0
                                ? Optional.empty()
                                : Optional.of(values.defaultOf(dtype, n));
                return new FixedLenFeature(shape, dtype, d);
            case 1:
                return new FixedLenSequenceFeature(
                        randomShape(false),
                        dtype,
                        true,
                        rnd.nextBoolean()
                                ? Optional.empty()
                                : Optional.of(values.defaultOf(dtype, 1)));
            case 2:
                return new VarLenFeature(dtype);
            default:
                return null; // a raw Ragged feature, named by the caller
        }
    }

    private List<Long> randomShape(boolean allowZero) {
        switch (rnd.nextInt(allowZero ? 6 : 3)) {
            case 0:
            case 3:
                return List.of();
            case 1:
                return List.of(2L);
            case 2:
                return List.of(1L, 2L);
            case 4:
                return List.of(1L);
            default:
                return List.of(0L);
        }
    }

    /** A spec of 1 to 5 FixedLen / FixedLenSequence / VarLen / raw Ragged features. */
    FeatureSpecs randomSpec() {
        Map<String, FeatureSpec> m = new LinkedHashMap<>();
        int n = 1 + rnd.nextInt(5);
        while (m.size() < n) {
            String name = SPEC_NAMES[rnd.nextInt(SPEC_NAMES.length)];
            if (m.containsKey(name)) {
                continue;
            }
            FeatureSpec f = randomFeature();
            if (f == null && name.isEmpty()) {
                continue; // RaggedFeature's value_key may not be empty
            }
            if (f == null) {
                f =
                        new RaggedFeature(
                                DType.values()[rnd.nextInt(3)],
                                name,
                                List.of(),
                                rnd.nextBoolean() ? RowSplitsDType.INT32 : RowSplitsDType.INT64);
            }
            m.put(name, f);
        }
        return FeatureSpecs.of(m);
    }
}
