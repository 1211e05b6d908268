package io.tfstream.operators.deadletter;

import io.tfstream.api.model.DeadLetter;
import org.apache.flink.annotation.Internal;
import org.apache.flink.util.OutputTag;

/**
 * The side output every operator that rejects records writes its {@link DeadLetter}s to: the
 * batch-and-parse operators and the shard guards; the job unions them into the dead-letter sink.
 */
@Internal
public final class DeadLetterOutput {
    /** Records rejected by parse, event time, windows or the shard guards. */
    public static final OutputTag<DeadLetter> TAG =
            new OutputTag<>("dead-letters", DeadLetterSerializer.typeInfo());

    private DeadLetterOutput() {}
}
