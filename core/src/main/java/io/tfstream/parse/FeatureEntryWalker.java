package io.tfstream.parse;

import io.tfstream.parse.example.ExampleScanner;
import io.tfstream.parse.sequence.SequenceExampleScanner;
import io.tfstream.parse.wire.KeyTable;
import java.util.List;

/**
 * Hands every feature-map entry of one serialized {@code tf.train.Example} or {@code
 * tf.train.SequenceExample} to a visitor, without an object graph: the same wire rules as the batch
 * parsers ({@code ExampleScanner}, {@code SequenceExampleScanner}, i.e. TensorFlow's fast parser),
 * but every entry is reported, so that a caller can see keys it does not know. Keys listed at
 * construction come with their index; other keys come with id -1 and their key bytes. A key that
 * repeats is reported each time it occurs (protobuf map semantics: the caller keeps the last).
 *
 * <p>One instance per thread; it keeps no reference to the record after a walk returns.
 */
public final class FeatureEntryWalker {
    /** {@code Example.features} or {@code SequenceExample.context}. */
    public static final int CONTEXT = SequenceExampleScanner.CONTEXT;

    /** {@code SequenceExample.feature_lists}. */
    public static final int FEATURE_LISTS = SequenceExampleScanner.LISTS;

    /** Outcome of a walk. */
    public enum Status {
        OK,
        /** TensorFlow would report "Could not parse example input". */
        MALFORMED,
        /** More map entries than {@link ParseLimits#maxFeaturesPerExample()}. */
        TOO_MANY_ENTRIES,
        /** The record is longer than {@link ParseLimits#maxRecordBytes()}. */
        TOO_LARGE
    }

    /** Receives the entries of a walk in wire order. */
    public interface Visitor {
        /**
         * One entry: feature (or feature-list) bytes {@code buf[start, end)}; {@code keyId} is the
         * index of the key in the walker's list for {@code section}, or -1, then the key is {@code
         * buf[keyStart, keyStart + keyLen)}.
         */
        void entry(
                int section, int keyId, byte[] buf, int keyStart, int keyLen, int start, int end);
    }

    private final ExampleScanner exampleScanner;
    private final SequenceExampleScanner sequenceScanner;
    private final ParseLimits limits;
    private final ExampleAdapter adapter = new ExampleAdapter();
    private int entries;

    /**
     * @param contextKeys keys of {@code Example.features} / {@code SequenceExample.context} given
     *     an id
     * @param listKeys keys of {@code SequenceExample.feature_lists} given an id
     */
    public FeatureEntryWalker(List<String> contextKeys, List<String> listKeys, ParseLimits limits) {
        this.exampleScanner = new ExampleScanner(new KeyTable(List.copyOf(contextKeys)));
        this.sequenceScanner = new SequenceExampleScanner(contextKeys, listKeys);
        this.limits = limits;
    }

    /** Map entries of the record walked last, known or not. */
    public int entries() {
        return entries;
    }

    /** Walks a serialized {@code Example}; all entries are in {@link #CONTEXT}. */
    public Status walkExample(byte[] buf, int off, int len, Visitor v) {
        entries = 0;
        if (len > limits.maxRecordBytes()) {
            return Status.TOO_LARGE;
        }
        adapter.target = v;
        int rc = exampleScanner.scan(buf, off, len, limits.maxFeaturesPerExample(), adapter);
        adapter.target = null;
        entries = exampleScanner.totalEntries;
        if (rc == ExampleScanner.OK) {
            return Status.OK;
        }
        return rc == ExampleScanner.TOO_MANY_ENTRIES ? Status.TOO_MANY_ENTRIES : Status.MALFORMED;
    }

    /** Walks a serialized {@code SequenceExample}: context entries, then or among them lists. */
    public Status walkSequenceExample(byte[] buf, int off, int len, Visitor v) {
        entries = 0;
        if (len > limits.maxRecordBytes()) {
            return Status.TOO_LARGE;
        }
        boolean ok = sequenceScanner.walk(buf, off, len, v);
        entries = sequenceScanner.totalEntries;
        if (entries > limits.maxFeaturesPerExample()) {
            return Status.TOO_MANY_ENTRIES;
        }
        return ok ? Status.OK : Status.MALFORMED;
    }

    /** Turns {@link ExampleScanner.Visitor} calls into {@link Visitor} calls. */
    private static final class ExampleAdapter implements ExampleScanner.Visitor {
        Visitor target;

        @Override
        public boolean visit(int keyId, byte[] buf, int start, int end) {
            target.entry(CONTEXT, keyId, buf, -1, 0, start, end);
            return true;
        }

        @Override
        public boolean visitUnrequested(byte[] buf, int keyStart, int keyLen, int start, int end) {
            target.entry(CONTEXT, -1, buf, keyStart, keyLen, start, end);
            return true;
        }
    }
}
