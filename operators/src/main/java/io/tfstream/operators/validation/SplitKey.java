package io.tfstream.operators.validation;

import java.util.HashSet;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;

/**
 * Keys {@link WindowPartial}s by their feature-path split, with a key per split chosen so that
 * Flink's key-group assignment puts split {@code s} on subtask {@code s} when the window operator
 * runs with {@code splits} subtasks (the default): the small integers themselves often share one
 * key group range (0 and 1 both go to subtask 1 of 2), which would evaluate every split in one
 * subtask. The keys depend only on the split count and the max parallelism, which a restore keeps.
 */
@Internal
public final class SplitKey implements KeySelector<WindowPartial, Integer> {
    private static final long serialVersionUID = 1L;

    private final int[] keys;

    /**
     * @param maxParallelism the window operator's max parallelism (its number of key groups)
     */
    public SplitKey(int splits, int maxParallelism) {
        if (splits <= 0 || maxParallelism <= 0) {
            throw new IllegalArgumentException(
                    "splits and maxParallelism must be positive, got "
                            + splits
                            + " and "
                            + maxParallelism);
        }
        keys = new int[splits];
        int subtasks = Math.min(splits, maxParallelism);
        Set<Integer> used = new HashSet<>();
        for (int s = 0; s < splits; s++) {
            int k = 0;
            while (used.contains(k)
                    || KeyGroupRangeAssignment.assignKeyToParallelOperator(
                                    k, maxParallelism, subtasks)
                            != s % subtasks) {
                k++;
            }
            used.add(k);
            keys[s] = k;
        }
    }

    /** The key of split {@code split}. */
    public int keyOf(int split) {
        return keys[split];
    }

    @Override
    public Integer getKey(WindowPartial p) {
        return keys[p.split()];
    }
}
