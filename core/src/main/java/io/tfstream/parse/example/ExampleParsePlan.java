package io.tfstream.parse.example;

import io.tfstream.parse.wire.RawKey;
import io.tfstream.spec.DType;
import io.tfstream.spec.DefaultValue;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.KeyOrder;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SparseFeature;
import io.tfstream.spec.VarLenFeature;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A feature-spec dict lowered to the raw keys of {@code ParseExampleV2}, exactly as Python's {@code
 * _ParseOpParams.from_features} does it: features in sorted key order, dense / sparse / ragged key
 * lists, the same validation and the same error texts.
 */
final class ExampleParsePlan {
    final FeatureSpecs specs;
    final List<RawKey> keys = new ArrayList<>();
    final List<RawKey> dense = new ArrayList<>();
    final List<RawKey> sparse = new ArrayList<>();
    final List<RawKey> ragged = new ArrayList<>();
    private final Map<String, RawKey> denseByName = new HashMap<>();
    private final Map<String, RawKey> sparseByName = new HashMap<>();
    private final Map<String, RawKey> raggedByName = new HashMap<>();

    private ExampleParsePlan(FeatureSpecs specs) {
        this.specs = specs;
    }

    /**
     * Lowers {@code specs}.
     *
     * @throws IllegalArgumentException with Python's ValueError text when TensorFlow rejects the
     *     spec
     */
    static ExampleParsePlan lower(FeatureSpecs specs) {
        if (specs.isEmpty()) {
            throw new IllegalArgumentException("Missing: features was {}.");
        }
        ExampleParsePlan p = new ExampleParsePlan(specs);
        for (Map.Entry<String, FeatureSpec> e : specs.features().entrySet()) {
            p.add(e.getKey(), e.getValue());
        }
        p.checkDisjoint();
        return p;
    }

    private void add(String name, FeatureSpec spec) {
        if (spec instanceof VarLenFeature v) {
            addSparse(name, v.dtype());
        } else if (spec instanceof SparseFeature s) {
            if (s.indexKeys().isEmpty()) {
                throw new IllegalArgumentException(
                        "Missing index_key for SparseFeature " + SpecText.of(s) + ".");
            }
            List<String> indexKeys = new ArrayList<>(s.indexKeys());
            indexKeys.sort(KeyOrder.CODE_POINT);
            for (String k : indexKeys) {
                addSparse(k, DType.INT64);
            }
            addSparse(s.valueKey(), s.dtype());
        } else if (spec instanceof FixedLenFeature f) {
            addDense(
                    new RawKey(
                            name,
                            RawKey.Kind.DENSE_FIXED,
                            f.dtype(),
                            f.shape(),
                            stride(name, f.numElements()),
                            f.defaultValue().orElse(null),
                            null));
        } else if (spec instanceof FixedLenSequenceFeature f) {
            if (!f.allowMissing()) {
                throw new IllegalArgumentException(
                        "Unsupported: FixedLenSequenceFeature requires allow_missing to be True.");
            }
            if (f.stepElements() == 0) {
                throw new IllegalArgumentException(
                        "FixedLenSequenceFeature "
                                + name
                                + " has zero values per step (shape "
                                + f.shape()
                                + "); TensorFlow's kernel cannot parse it");
            }
            DefaultValue pad = f.paddingValue();
            addDense(
                    new RawKey(
                            name,
                            RawKey.Kind.DENSE_VARLEN,
                            f.dtype(),
                            f.shape(),
                            stride(name, f.stepElements()),
                            pad,
                            null));
        } else if (spec instanceof RaggedFeature r) {
            addRagged(r.valueKey(), r.dtype(), r.rowSplitsDtype());
            for (Partition part : r.partitions()) {
                if (!(part instanceof Partition.UniformRowLength)) {
                    addRagged(part.key(), DType.INT64, r.rowSplitsDtype());
                }
            }
        } else {
            throw new IllegalArgumentException("Unsupported " + spec + ".");
        }
    }

    /** Values per example (or per step); a Java column holds at most 2^31 - 1 values. */
    private static int stride(String name, long elements) {
        if (elements > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "Feature "
                            + name
                            + " needs "
                            + elements
                            + " values per example, more than a column can hold ("
                            + Integer.MAX_VALUE
                            + ")");
        }
        return (int) elements;
    }

    private void addDense(RawKey k) {
        dense.add(k);
        keys.add(k);
        denseByName.put(k.name, k);
    }

    private void addSparse(String key, DType dtype) {
        RawKey existing = sparseByName.get(key);
        if (existing != null) {
            checkSameType(existing, dtype);
            return;
        }
        RawKey k = new RawKey(key, RawKey.Kind.SPARSE, dtype, null, 1, null, null);
        sparse.add(k);
        keys.add(k);
        sparseByName.put(key, k);
    }

    private void addRagged(String key, DType dtype, RowSplitsDType splits) {
        RawKey existing = raggedByName.get(key);
        if (existing != null) {
            checkSameType(existing, dtype);
            if (existing.splitsDtype != splits) {
                throw new IllegalArgumentException(
                        "Conflicting partition type "
                                + SpecText.splits(existing.splitsDtype)
                                + " vs "
                                + SpecText.splits(splits)
                                + " for feature "
                                + key
                                + ".");
            }
            return;
        }
        RawKey k = new RawKey(key, RawKey.Kind.RAGGED, dtype, null, 1, null, splits);
        ragged.add(k);
        keys.add(k);
        raggedByName.put(key, k);
    }

    private static void checkSameType(RawKey existing, DType dtype) {
        if (existing.dtype != dtype) {
            throw new IllegalArgumentException(
                    "Conflicting type "
                            + SpecText.dtype(existing.dtype)
                            + " vs "
                            + SpecText.dtype(dtype)
                            + " for feature "
                            + existing.name
                            + ".");
        }
    }

    RawKey dense(String name) {
        return denseByName.get(name);
    }

    RawKey sparse(String name) {
        return sparseByName.get(name);
    }

    RawKey ragged(String name) {
        return raggedByName.get(name);
    }

    private void checkDisjoint() {
        intersect("Dense and sparse", dense, sparse);
        intersect("Dense and ragged", dense, ragged);
        intersect("Ragged and sparse", ragged, sparse);
    }

    private static void intersect(String what, List<RawKey> a, List<RawKey> b) {
        TreeSet<String> both = new TreeSet<>(KeyOrder.CODE_POINT);
        for (RawKey x : a) {
            for (RawKey y : b) {
                if (x.name.equals(y.name)) {
                    both.add(x.name);
                }
            }
        }
        if (!both.isEmpty()) {
            throw new IllegalArgumentException(
                    what + " keys must not intersect; intersection: " + SpecText.pySet(both));
        }
    }
}
