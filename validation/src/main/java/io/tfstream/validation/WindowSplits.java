package io.tfstream.validation;

/**
 * Splits the per-feature work of a window by a hash of the serialized feature path, so that the
 * partial accumulators of a window can be merged and evaluated by several keyed subtasks: split
 * {@code s} keeps the statistics and roll-ups of the paths whose {@link #splitOf} is {@code s}, and
 * reports only the findings it {@link #owns}. Every split keeps the example count (presence needs
 * it); dataset-level findings belong to split 0.
 */
public final class WindowSplits {
    private WindowSplits() {}

    /** The split of {@code path}: deterministic across JVMs (the serialized path's hash). */
    public static int splitOf(FeaturePath path, int splits) {
        return Math.floorMod(path.serialized().hashCode(), splits);
    }

    /**
     * Clears, in {@code a}, the statistics and roll-ups of every schema path outside split {@code
     * split}; returns {@code a}. Unknown-feature roll-ups (bounded by {@code maxUnknownFeatures})
     * stay: their findings are filtered by {@link #owns}.
     */
    public static WindowAccumulator restrict(WindowAccumulator a, int split, int splits) {
        if (split < 0 || split >= splits) {
            throw new IllegalArgumentException("split " + split + " not in [0, " + splits + ")");
        }
        ValidationSchema schema = a.schema;
        for (FeatureRule r : schema.rules()) {
            if (splitOf(r.path, splits) != split) {
                a.stats[r.index] = new FeatureStats(r, schema.options());
            }
        }
        for (int p = 0; p < a.rollUps.length; p++) {
            if (splitOf(schema.path(p), splits) != split) {
                a.rollUps[p] = null;
            }
        }
        return a;
    }

    /** Whether split {@code split} reports {@code f}: its path's split, or 0 for the dataset. */
    public static boolean owns(Finding f, int split, int splits) {
        return f.path() == null ? split == 0 : splitOf(f.path(), splits) == split;
    }
}
