package io.tfstream.operators.parse;

import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SpecSource;
import io.tfstream.spec.schema.FixedLenDefaults;
import java.io.Serializable;
import java.util.Objects;

/**
 * Everything the batch-and-parse operator needs, small and serializable: the schema or spec file's
 * bytes (parsed in {@code open()}, never shipped as parsed objects), limits, batch triggers, event
 * time and the dead-letter guard.
 */
public final class ParseSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    private final byte[] specFile;
    private final String specFileName;
    private final boolean legacyDefaults;
    private final int[] limits;
    private final BatchTriggers triggers;
    private final EventTimeSettings eventTime;
    private final DeadLetterGuard guard;

    public ParseSettings(
            byte[] specFile,
            String specFileName,
            boolean legacyDefaults,
            ParseLimits limits,
            BatchTriggers triggers,
            EventTimeSettings eventTime,
            DeadLetterGuard guard) {
        this.specFile = specFile.clone();
        this.specFileName = Objects.requireNonNull(specFileName, "specFileName");
        this.legacyDefaults = legacyDefaults;
        this.limits =
                new int[] {
                    limits.maxRecordBytes(),
                    limits.maxValuesPerFeature(),
                    limits.maxFeaturesPerExample(),
                    limits.maxBytesPerValue(),
                    limits.maxRaggedRows()
                };
        this.triggers = Objects.requireNonNull(triggers, "triggers");
        this.eventTime = Objects.requireNonNull(eventTime, "eventTime");
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    /** Parses the schema or spec file (as {@link SpecSource#parse}). */
    public ParseSpec spec() throws MalformedSpecFileException {
        return SpecSource.parse(
                specFile,
                specFileName,
                legacyDefaults ? FixedLenDefaults.LEGACY : FixedLenDefaults.NONE);
    }

    public ParseLimits limits() {
        return new ParseLimits(limits[0], limits[1], limits[2], limits[3], limits[4]);
    }

    public BatchTriggers triggers() {
        return triggers;
    }

    public EventTimeSettings eventTime() {
        return eventTime;
    }

    public DeadLetterGuard guard() {
        return guard;
    }
}
