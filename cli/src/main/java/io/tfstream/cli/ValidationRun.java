package io.tfstream.cli;

import io.tfstream.validation.RecordRef;
import io.tfstream.validation.RecordResult;
import io.tfstream.validation.RecordValidator;
import io.tfstream.validation.ValidationSchema;
import java.io.PrintWriter;

/**
 * The record loop of {@code tfstream validate}: reads each record's event time, validates it and
 * adds it to its window; counts the records that do not parse or have no usable event time and
 * names each record that does not parse on stderr.
 */
final class ValidationRun {
    private final ValidationWindows windows;
    private final RecordValidator validator;
    private final RecordResult result = new RecordResult();
    private final RecordRef ref = new RecordRef();
    private final EventTimeReader eventTimes;
    private final boolean needsTime;
    private final boolean sequence;
    private final PrintWriter err;
    private long records;
    private long unreadable;
    private long untimed;

    ValidationRun(
            ValidationSchema schema,
            ValidationWindows windows,
            EventTimeReader eventTimes,
            boolean needsTime,
            boolean sequence,
            PrintWriter err) {
        this.windows = windows;
        this.validator = new RecordValidator(schema);
        this.eventTimes = eventTimes;
        this.needsTime = needsTime;
        this.sequence = sequence;
        this.err = err;
    }

    ValidationWindows windows() {
        return windows;
    }

    void record(String file, long index, long byteOffset, byte[] buf, int off, int len) {
        records++;
        long time =
                eventTimes == null
                        ? EventTimeReader.NONE
                        : eventTimes.read(buf, off, len, sequence);
        if (sequence) {
            validator.validateSequenceExample(buf, off, len, result);
        } else {
            validator.validateExample(buf, off, len, result);
        }
        if (result.status() != RecordResult.Status.OK) {
            unreadable++;
            err.println(
                    "tfstream validate: "
                            + file
                            + ": record "
                            + index
                            + " at byte "
                            + byteOffset
                            + (result.status() == RecordResult.Status.MALFORMED
                                    ? " is not " + (sequence ? "a SequenceExample" : "an Example")
                                    : " exceeds the parse limits"));
        }
        boolean timed = time != EventTimeReader.NONE;
        if (!timed && eventTimes != null && result.status() == RecordResult.Status.OK) {
            untimed++;
        }
        if (needsTime && !timed) {
            // No window to put it in (a record that does not parse has none either).
            return;
        }
        ref.set(file, 0, index, timed ? time : 0);
        windows.add(validator, result, ref, timed);
    }

    /** Prints the run's summary on stderr; returns the exit code its records earn. */
    int report(int files, int alerts) {
        if (untimed > 0) {
            err.println(
                    "tfstream validate: "
                            + untimed
                            + " records have no event time (one int64 value in feature '"
                            + eventTimes.feature()
                            + "')"
                            + (needsTime ? " and were left out of every window" : ""));
        }
        err.println(
                "tfstream validate: "
                        + records
                        + " records in "
                        + files
                        + " files, "
                        + alerts
                        + " alerts");
        return unreadable > 0 || (needsTime && untimed > 0) ? ExitCodes.DATA_ERROR : ExitCodes.OK;
    }
}
