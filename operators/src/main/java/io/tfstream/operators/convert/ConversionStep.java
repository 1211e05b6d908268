package io.tfstream.operators.convert;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.convert.ConversionException;
import io.tfstream.convert.ExampleConverter;
import io.tfstream.operators.deadletter.DeadLetterRate;
import io.tfstream.operators.deadletter.DeadLetterRateExceededException;
import java.util.function.Consumer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.execution.SuppressRestartsException;

/**
 * One record's JSON or Avro conversion with its metrics under {@code tfstream} ({@code
 * convertRecordsIn}, {@code converted}, {@code conversionErrors}, {@code ignoredFields}) and the
 * dead-letter guard, for {@link ConvertFunction}.
 */
final class ConversionStep {
    private final DeadLetterRate rate;
    private final Counter recordsIn;
    private final Counter converted;
    private final Counter errors;
    private final Counter ignored;

    ConversionStep(ConvertSettings settings, MetricGroup group) {
        this.rate = settings.guard().enabled() ? new DeadLetterRate(settings.guard()) : null;
        MetricGroup g = group.addGroup("tfstream");
        recordsIn = g.counter("convertRecordsIn");
        converted = g.counter("converted");
        errors = g.counter("conversionErrors");
        ignored = g.counter("ignoredFields");
    }

    /**
     * {@code r} with its value converted by {@code converter}, or null when it does not convert:
     * then its {@code conversion_error} dead letter, naming {@code fingerprint} (null when the
     * schema cannot change), went to {@code deadLetters}.
     *
     * @throws SuppressRestartsException when the dead-letter guard trips
     */
    SourceRecord convert(
            ExampleConverter converter,
            SourceRecord r,
            String fingerprint,
            Consumer<DeadLetter> deadLetters,
            long now) {
        recordsIn.inc();
        byte[] in = r.value();
        byte[] example;
        try {
            example = converter.convert(in, 0, in.length);
        } catch (ConversionException e) {
            errors.inc();
            deadLetters.accept(
                    new DeadLetter(
                            r, DeadLetterReason.CONVERSION_ERROR, e.getMessage(), fingerprint));
            guard(now, true);
            return null;
        }
        converted.inc();
        int n = converter.ignoredFields();
        if (n > 0) {
            ignored.inc(n);
        }
        guard(now, false);
        return r.withConvertedValue(example);
    }

    private void guard(long now, boolean dead) {
        if (rate == null) {
            return;
        }
        String tripped = rate.add(now, 1, dead ? 1 : 0);
        if (tripped != null) {
            throw new SuppressRestartsException(new DeadLetterRateExceededException(tripped));
        }
    }
}
