package io.tfstream.validation;

import io.tfstream.parse.wire.FeatureValues;
import java.util.Arrays;

/**
 * What one record holds for each schema feature, after {@link RecordValidator} decoded it: present
 * or not, the kind of its values, the value count (for a feature list: the number of features in
 * the list and the smallest and largest value count among them) and where its values are in the
 * shared {@link FeatureValues} buffers. Arrays are reused from record to record; a generation
 * counter marks what the current record wrote.
 */
public final class RecordFeatures {
    final FeatureValues values;
    private int generation;
    private final int[] seenGen;
    final int[] entryStart;
    final int[] entryEnd;
    private final int[] presentGen;
    final int[] kind;
    final int[] count;
    final int[] innerMin;
    final int[] innerMax;
    final int[] mixedKind;
    final int[] fromI;
    final int[] toI;
    final int[] fromF;
    final int[] toF;
    final int[] fromB;
    final int[] toB;

    /** Per feature list: its steps' kinds and value counts, at {@code [stepFrom, stepTo)}. */
    final int[] stepFrom;

    final int[] stepTo;
    int[] stepKinds = new int[16];
    int[] stepCounts = new int[16];
    int steps;

    RecordFeatures(int rules, FeatureValues values) {
        this.values = values;
        seenGen = new int[rules];
        entryStart = new int[rules];
        entryEnd = new int[rules];
        presentGen = new int[rules];
        kind = new int[rules];
        count = new int[rules];
        innerMin = new int[rules];
        innerMax = new int[rules];
        mixedKind = new int[rules];
        fromI = new int[rules];
        toI = new int[rules];
        fromF = new int[rules];
        toF = new int[rules];
        fromB = new int[rules];
        toB = new int[rules];
        stepFrom = new int[rules];
        stepTo = new int[rules];
    }

    void next() {
        generation++;
        if (generation == Integer.MAX_VALUE) {
            Arrays.fill(seenGen, 0);
            Arrays.fill(presentGen, 0);
            generation = 1;
        }
        values.clear();
        steps = 0;
    }

    /** Appends a step of the feature list being decoded. */
    void step(int kind, int count) {
        if (steps == stepKinds.length) {
            stepKinds = Arrays.copyOf(stepKinds, steps * 2);
            stepCounts = Arrays.copyOf(stepCounts, steps * 2);
        }
        stepKinds[steps] = kind;
        stepCounts[steps++] = count;
    }

    void seen(int rule, int start, int end) {
        seenGen[rule] = generation;
        entryStart[rule] = start;
        entryEnd[rule] = end;
    }

    boolean seen(int rule) {
        return seenGen[rule] == generation;
    }

    void markPresent(int rule) {
        presentGen[rule] = generation;
    }

    /** The feature is in the record with a kind set (or, for a list, the key is there). */
    public boolean present(int rule) {
        return presentGen[rule] == generation;
    }

    /** {@code FeatureValues.KIND_*} of the feature's values (of a list: of its first feature). */
    public int kind(int rule) {
        return kind[rule];
    }

    /** Values of the feature, or features in the list. */
    public int count(int rule) {
        return count[rule];
    }

    public FeatureValues values() {
        return values;
    }

    public int int64From(int rule) {
        return fromI[rule];
    }

    public int int64To(int rule) {
        return toI[rule];
    }

    public int floatFrom(int rule) {
        return fromF[rule];
    }

    public int floatTo(int rule) {
        return toF[rule];
    }

    public int bytesFrom(int rule) {
        return fromB[rule];
    }

    public int bytesTo(int rule) {
        return toB[rule];
    }

    /** The first step of feature list {@code rule} in {@link #stepKind}/{@link #stepCount}. */
    public int stepFrom(int rule) {
        return stepFrom[rule];
    }

    public int stepTo(int rule) {
        return stepTo[rule];
    }

    /** {@code FeatureValues.KIND_*} of step {@code s} ({@code KIND_NONE}: no kind set). */
    public int stepKind(int s) {
        return stepKinds[s];
    }

    public int stepCount(int s) {
        return stepCounts[s];
    }
}
