package io.tfstream.operators.parse;

import io.tfstream.api.model.DeadLetterGuard;
import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.operators.convert.ConvertSettings;
import io.tfstream.operators.validation.ValidationSettings;
import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SchemaFingerprint;
import io.tfstream.spec.SpecSource;
import io.tfstream.spec.schema.FixedLenDefaults;
import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * Everything the batch-and-parse operator needs, small and serializable: the schema or spec file's
 * bytes (parsed in {@code open()}, never shipped as parsed objects), limits, batch triggers, event
 * time, the dead-letter guard and, when on, the validation of the parsed rows.
 */
@Internal
public final class ParseSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    private final byte[] specFile;
    private final String specFileName;
    private final boolean legacyDefaults;
    private final int[] limits;
    private final BatchTriggers triggers;
    private final EventTimeSettings eventTime;
    private final DeadLetterGuard guard;
    private final String tensorBatchFingerprint;
    private final int maxPayloadBytes;
    private final ValidationSettings validation;
    private final long validationLagMillis;
    private final SchemaUpdates updates;
    private final String schemaCopies;
    private final ConvertSettings conversion;
    private final boolean acceptedExamples;

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
        this.tensorBatchFingerprint = null;
        this.maxPayloadBytes = Integer.MAX_VALUE;
        this.validation = null;
        this.validationLagMillis = 0;
        this.updates = null;
        this.schemaCopies = null;
        this.conversion = null;
        this.acceptedExamples = true;
    }

    private ParseSettings(
            ParseSettings s,
            byte[] specFile,
            String specFileName,
            String tensorBatchFingerprint,
            int maxPayloadBytes,
            ValidationSettings validation,
            long validationLagMillis,
            SchemaUpdates updates,
            String schemaCopies,
            ConvertSettings conversion,
            boolean acceptedExamples) {
        this.specFile = specFile;
        this.specFileName = specFileName;
        this.legacyDefaults = s.legacyDefaults;
        this.limits = s.limits;
        this.triggers = s.triggers;
        this.eventTime = s.eventTime;
        this.guard = s.guard;
        this.tensorBatchFingerprint = tensorBatchFingerprint;
        this.maxPayloadBytes = maxPayloadBytes;
        this.validation = validation;
        this.validationLagMillis = validationLagMillis;
        this.updates = updates;
        this.schemaCopies = schemaCopies;
        this.conversion = conversion;
        this.acceptedExamples = acceptedExamples;
    }

    /**
     * These settings with JSON or Avro records decoded straight into the parse with the schema in
     * force, no Example written in between ({@link io.tfstream.parse.RecordDecoder}); a record that
     * does not convert is a {@code conversion_error} dead letter. With {@code acceptedExamples}
     * each accepted record leaves with its Example as value (for the shards and the records topic);
     * without, it keeps its JSON or Avro bytes.
     */
    public ParseSettings withConversion(ConvertSettings conversion, boolean acceptedExamples) {
        return new ParseSettings(
                this,
                specFile,
                specFileName,
                tensorBatchFingerprint,
                maxPayloadBytes,
                validation,
                validationLagMillis,
                updates,
                schemaCopies,
                Objects.requireNonNull(conversion, "conversion"),
                acceptedExamples);
    }

    /** The conversion inside the parse, or null when records are Examples. */
    public ConvertSettings conversion() {
        return conversion;
    }

    /** Whether accepted converted records carry their Example ({@link #withConversion}). */
    public boolean acceptedExamples() {
        return acceptedExamples;
    }

    /**
     * These settings with the parsed batches also emitted as {@code TensorBatch} messages carrying
     * {@code schemaFingerprint} ({@link BatchParseOperator#TENSOR_BATCHES}), each message at most
     * {@code maxPayloadBytes} serialized: a larger batch is split by rows into parts, a record too
     * big for a message alone is dead-lettered ({@code too_large}).
     */
    public ParseSettings withTensorBatches(String schemaFingerprint, int maxPayloadBytes) {
        if (maxPayloadBytes < 1024) {
            throw new IllegalArgumentException(
                    "maxPayloadBytes must be at least 1024, got " + maxPayloadBytes);
        }
        return new ParseSettings(
                this,
                specFile,
                specFileName,
                Objects.requireNonNull(schemaFingerprint, "schemaFingerprint"),
                maxPayloadBytes,
                validation,
                validationLagMillis,
                updates,
                schemaCopies,
                conversion,
                acceptedExamples);
    }

    /**
     * These settings with every accepted row validated against the TFMD schema right after the
     * parse (TFDV tiers R and W, docs/validation.md#validation-tiers, {@link
     * io.tfstream.operators.validation.BatchValidation}).
     *
     * @param lagMillis with event time from a feature, how far behind the largest event time seen a
     *     window counts as closed for late records (the job's bounded out-of-orderness); unused
     *     with Kafka timestamps, where the operator's watermark decides
     */
    public ParseSettings withValidation(ValidationSettings settings, long lagMillis) {
        if (lagMillis < 0) {
            throw new IllegalArgumentException("lagMillis must be >= 0, got " + lagMillis);
        }
        return new ParseSettings(
                this,
                specFile,
                specFileName,
                tensorBatchFingerprint,
                maxPayloadBytes,
                Objects.requireNonNull(settings, "settings"),
                lagMillis,
                updates,
                schemaCopies,
                conversion,
                acceptedExamples);
    }

    /**
     * These settings with the schema file polled and a changed one taken up while the job runs
     * ({@link SchemaUpdates}, {@link LiveSchema}).
     */
    public ParseSettings withSchemaUpdates(SchemaUpdates updates) {
        return withSchemaInForce(Objects.requireNonNull(updates, "updates"), schemaCopies);
    }

    /**
     * These settings with another schema or spec file: the one a running operator has taken up.
     * Tensor payloads, when on, then carry the new file's fingerprint; validation, when on, checks
     * records against it.
     */
    public ParseSettings withSchema(byte[] content, String fileName)
            throws MalformedSpecFileException {
        byte[] copy = content.clone();
        String fingerprint =
                tensorBatchFingerprint == null ? null : SchemaFingerprint.of(copy, fileName);
        return new ParseSettings(
                this,
                copy,
                Objects.requireNonNull(fileName, "fileName"),
                fingerprint,
                maxPayloadBytes,
                // Validation checks the schema in force (a TFMD schema, as validation needs).
                validation == null ? null : validation.withSchema(copy, fileName),
                validationLagMillis,
                updates,
                schemaCopies,
                conversion,
                acceptedExamples);
    }

    /**
     * These settings with a copy of each schema in force written under shard base path {@code base}
     * ({@link io.tfstream.operators.shards.SchemaCopies}) when the operator starts with it or takes
     * it up.
     */
    public ParseSettings withSchemaCopies(String base) {
        return withSchemaInForce(updates, Objects.requireNonNull(base, "base"));
    }

    /** These settings with how the schema in force is watched and where it is copied. */
    private ParseSettings withSchemaInForce(SchemaUpdates updates, String schemaCopies) {
        return new ParseSettings(
                this,
                specFile,
                specFileName,
                tensorBatchFingerprint,
                maxPayloadBytes,
                validation,
                validationLagMillis,
                updates,
                schemaCopies,
                conversion,
                acceptedExamples);
    }

    /** The shard base path schema copies go under, or null for none. */
    public String schemaCopies() {
        return schemaCopies;
    }

    /** The schema updates, or null when the schema is read once ({@code schema.update: none}). */
    public SchemaUpdates schemaUpdates() {
        return updates;
    }

    /** A copy of the schema or spec file's bytes. */
    public byte[] specFile() {
        return specFile.clone();
    }

    /** The schema or spec file's name (it tells a SPEC.json from a TFMD schema). */
    public String specFileName() {
        return specFileName;
    }

    /** Whether fixed-length features without a default take TF's legacy defaults. */
    public boolean legacyDefaults() {
        return legacyDefaults;
    }

    /** The fingerprint of the schema or spec file ({@link SchemaFingerprint}). */
    public String schemaFingerprint() throws MalformedSpecFileException {
        return SchemaFingerprint.of(specFile, specFileName);
    }

    /** The validation of the parsed rows, or null when off. */
    public ValidationSettings validation() {
        return validation;
    }

    /** See {@link #withValidation}. */
    public long validationLagMillis() {
        return validationLagMillis;
    }

    /** The largest serialized TensorBatch message (when they are on). */
    public int maxPayloadBytes() {
        return maxPayloadBytes;
    }

    /** Whether parsed batches are emitted as TensorBatch messages. */
    public boolean tensorBatches() {
        return tensorBatchFingerprint != null;
    }

    /** The fingerprint the TensorBatch messages carry, or null when they are off. */
    public String tensorBatchFingerprint() {
        return tensorBatchFingerprint;
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
