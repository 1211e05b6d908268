package io.tfstream.operators.convert;

import io.tfstream.convert.ConversionException;
import io.tfstream.convert.ExampleConverter;
import io.tfstream.operators.deadletter.DeadLetter;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.operators.deadletter.DeadLetterRate;
import io.tfstream.operators.deadletter.DeadLetterRateExceededException;
import io.tfstream.operators.deadletter.DeadLetterReason;
import io.tfstream.operators.source.SourceRecord;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.execution.SuppressRestartsException;
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
public final class ConvertFunction extends ProcessFunction<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    private final ConvertSettings settings;

    private transient ExampleConverter converter;
    private transient DeadLetterRate rate;
    private transient Counter recordsIn;
    private transient Counter converted;
    private transient Counter errors;
    private transient Counter ignored;

    public ConvertFunction(ConvertSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext context) {
        converter = settings.converter();
        rate = settings.guard().enabled() ? new DeadLetterRate(settings.guard()) : null;
        MetricGroup g = getRuntimeContext().getMetricGroup().addGroup("tfstream");
        recordsIn = g.counter("convertRecordsIn");
        converted = g.counter("converted");
        errors = g.counter("conversionErrors");
        ignored = g.counter("ignoredFields");
    }

    @Override
    public void processElement(SourceRecord r, Context ctx, Collector<SourceRecord> out) {
        recordsIn.inc();
        byte[] in = r.value();
        byte[] example;
        try {
            example = converter.convert(in, 0, in.length);
        } catch (ConversionException e) {
            errors.inc();
            ctx.output(
                    DeadLetterOutput.TAG,
                    new DeadLetter(r, DeadLetterReason.CONVERSION_ERROR, e.getMessage()));
            guard(ctx, true);
            return;
        }
        converted.inc();
        int n = converter.ignoredFields();
        if (n > 0) {
            ignored.inc(n);
        }
        guard(ctx, false);
        out.collect(r.withConvertedValue(example));
    }

    private void guard(Context ctx, boolean dead) {
        if (rate == null) {
            return;
        }
        String tripped = rate.add(ctx.timerService().currentProcessingTime(), 1, dead ? 1 : 0);
        if (tripped != null) {
            throw new SuppressRestartsException(new DeadLetterRateExceededException(tripped));
        }
    }
}
