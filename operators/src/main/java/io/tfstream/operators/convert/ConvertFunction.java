package io.tfstream.operators.convert;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.convert.ExampleConverter;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Turns each JSON or Avro record into the schema's Example, chained between the source and
 * batch-and-parse (no serialization between them): the converted record keeps the key, headers,
 * source position and timestamp, and its original bytes for the dead letters of later stages
 * ({@link SourceRecord#withConvertedValue}); a record that does not convert goes to {@link
 * DeadLetterOutput#TAG} with reason {@code conversion_error}, its original bytes and the field's
 * path in the message. Metrics under {@code tfstream}: {@code convertRecordsIn}, {@code converted},
 * {@code conversionErrors}, {@code ignoredFields} (fields naming no schema feature). Conversion
 * errors count towards the dead-letter guard ({@code dlq.max-fraction}) of this operator.
 */
@Internal
public final class ConvertFunction extends ProcessFunction<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    private final ConvertSettings settings;

    private transient ExampleConverter converter;
    private transient ConversionStep step;

    public ConvertFunction(ConvertSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext context) {
        converter = settings.converter();
        step = new ConversionStep(settings, getRuntimeContext().getMetricGroup());
    }

    @Override
    public void processElement(SourceRecord r, Context ctx, Collector<SourceRecord> out) {
        SourceRecord converted =
                step.convert(
                        converter,
                        r,
                        null,
                        d -> ctx.output(DeadLetterOutput.TAG, d),
                        ctx.timerService().currentProcessingTime());
        if (converted != null) {
            out.collect(converted);
        }
    }
}
