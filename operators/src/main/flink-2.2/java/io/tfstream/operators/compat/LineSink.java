package io.tfstream.operators.compat;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.connector.sink2.Sink;

/**
 * A {@link Sink} of the Flink line the library was built for. On Flink 2.x it adds nothing; on 1.20
 * it supplies the deprecated {@code createWriter(Sink.InitContext)} that 1.20's interface still
 * declares abstract.
 *
 * @param <T> the records' type
 */
@PublicEvolving
public interface LineSink<T> extends Sink<T> {}
