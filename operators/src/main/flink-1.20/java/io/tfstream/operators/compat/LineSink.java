package io.tfstream.operators.compat;

import java.io.IOException;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;

/**
 * A {@link Sink} of the Flink line the library was built for. On Flink 1.20 it supplies the
 * deprecated {@code createWriter(Sink.InitContext)} that 1.20's interface still declares abstract:
 * Flink 1.20.3 and later create writers through {@code createWriter(WriterInitContext)} only.
 *
 * @param <T> the records' type
 */
@PublicEvolving
public interface LineSink<T> extends Sink<T> {
    @Override
    @Deprecated
    default SinkWriter<T> createWriter(Sink.InitContext context) throws IOException {
        throw new UnsupportedOperationException(
                "tfstream's sinks are created through createWriter(WriterInitContext), as Flink"
                        + " 1.20.3 and later create them");
    }
}
