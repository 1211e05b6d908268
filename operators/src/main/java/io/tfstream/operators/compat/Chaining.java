package io.tfstream.operators.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.transformations.PhysicalTransformation;

/**
 * The chaining of tfstream's own operators, stated so that both Flink lines build the same graph:
 * an operator instance chains to its input by default on Flink 2.x, while 1.20 starts a new chain
 * at it.
 */
@Internal
public final class Chaining {
    private Chaining() {}

    /** {@code stream}, whose operator now runs chained to its input wherever Flink can chain. */
    public static <T> SingleOutputStreamOperator<T> toInput(SingleOutputStreamOperator<T> stream) {
        ((PhysicalTransformation<T>) stream.getTransformation())
                .setChainingStrategy(ChainingStrategy.ALWAYS);
        return stream;
    }
}
