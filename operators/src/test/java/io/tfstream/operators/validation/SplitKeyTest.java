package io.tfstream.operators.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.Set;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.junit.jupiter.api.Test;

/**
 * Regression: the split indexes themselves as keys put every split of a 2- or 3-subtask window
 * operator on one subtask; the chosen keys put split {@code s} on subtask {@code s}.
 */
class SplitKeyTest {
    @Test
    void eachSplitGoesToItsOwnSubtask() {
        for (int splits : new int[] {1, 2, 3, 4, 7, 8, 64}) {
            for (int maxParallelism : new int[] {128, 256, 1000}) {
                SplitKey k = new SplitKey(splits, maxParallelism);
                Set<Integer> keys = new HashSet<>();
                for (int s = 0; s < splits; s++) {
                    keys.add(k.keyOf(s));
                    assertEquals(
                            s,
                            KeyGroupRangeAssignment.assignKeyToParallelOperator(
                                    k.keyOf(s), maxParallelism, splits),
                            splits + " splits, max parallelism " + maxParallelism);
                    assertEquals(
                            k.keyOf(s), k.getKey(new WindowPartial(s, 0, 1, 0, 1, new byte[0])));
                }
                assertEquals(splits, keys.size(), "distinct keys");
            }
        }
    }

    @Test
    void moreSplitsThanKeyGroupsStillGetDistinctKeys() {
        SplitKey k = new SplitKey(6, 4);
        Set<Integer> keys = new HashSet<>();
        for (int s = 0; s < 6; s++) {
            keys.add(k.keyOf(s));
        }
        assertEquals(6, keys.size());
    }
}
