package io.tfstream.api;

import io.tfstream.api.model.DeadLetterGuard;
import io.tfstream.api.options.DeadLetterOptions;
import io.tfstream.api.options.SourceFormatOptions;
import io.tfstream.convert.AvroSchemaRejectedException;
import io.tfstream.convert.ConvertFeatures;
import io.tfstream.convert.ConvertOptions;
import io.tfstream.convert.InputFormat;
import io.tfstream.operators.convert.ConvertSettings;
import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SpecSource;
import io.tfstream.spec.schema.FixedLenDefaults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Settings of a {@link TfstreamConvert}. The schema and the format are required, and with Avro the
 * writer schema; everything else has the defaults of {@code tfstream run}'s {@code source.*}
 * conversion options. Setters only record; {@link #build()} checks every setting once, plans the
 * Avro conversion (refusing a writer schema that cannot convert, naming the field) and names the
 * setting that is wrong.
 */
@PublicEvolving
public final class TfstreamConvertBuilder {
    /** The uid (and name) of the convert operator by default. */
    public static final String DEFAULT_UID = "convert";

    private byte[] schema;
    private String schemaFileName;
    private InputFormat format;
    private String avroSchema;
    private String avroSchemaOrigin = "avroSchema";
    private Integer avroSchemaId;
    private boolean jsonBytesBase64;
    private boolean flatten;
    private DeadLetterGuard guard = DeadLetterGuard.off();
    private String uid = DEFAULT_UID;
    private String name;

    TfstreamConvertBuilder() {}

    /**
     * Takes the {@link SourceFormatOptions} set in {@code config} ({@code format}, {@code
     * avro.schema-id}, {@code json.bytes}, {@code convert.flatten}; keys relative to the stage),
     * checked as {@code tfstream run} checks them. Not taken: {@code avro.schema-path}, a file read
     * with {@link #setAvroSchemaFile}, and the dead-letter circuit breaker ({@link
     * #setDeadLetterGuard} with {@link DeadLetterOptions#guard}). Unset options keep their values.
     *
     * @throws IllegalArgumentException naming the key of a value out of range
     */
    public TfstreamConvertBuilder fromConfig(ReadableConfig config) {
        SourceFormatOptions.OPTIONS.checkAll(config, "");
        config.getOptional(SourceFormatOptions.FORMAT).ifPresent(this::setFormat);
        config.getOptional(SourceFormatOptions.AVRO_SCHEMA_ID).ifPresent(this::setAvroSchemaId);
        config.getOptional(SourceFormatOptions.JSON_BYTES)
                .ifPresent(b -> setJsonBytesBase64(b == SourceFormatOptions.JsonBytes.BASE64));
        config.getOptional(SourceFormatOptions.CONVERT_FLATTEN).ifPresent(this::setFlatten);
        return this;
    }

    /**
     * The TFMD schema ({@code .pbtxt} text or binary {@code .pb}) or SPEC.json whose features the
     * records convert to; {@code fileName} tells which. Must describe {@code tf.train.Example}s.
     */
    public TfstreamConvertBuilder setSchema(byte[] content, String fileName) {
        this.schema = content == null ? null : content.clone();
        this.schemaFileName = fileName;
        return this;
    }

    /** The schema or spec file, read now. */
    public TfstreamConvertBuilder setSchemaFile(Path file) {
        try {
            return setSchema(Files.readAllBytes(file), file.getFileName().toString());
        } catch (IOException e) {
            throw new UncheckedIOException("schema: cannot read " + file, e);
        }
    }

    /** What each record holds: {@link InputFormat#JSON} or {@link InputFormat#AVRO} (required). */
    public TfstreamConvertBuilder setFormat(InputFormat format) {
        this.format = format;
        return this;
    }

    /** The Avro writer schema as {@code .avsc} JSON text (required with Avro). */
    public TfstreamConvertBuilder setAvroSchema(String avscJson) {
        this.avroSchema = avscJson;
        this.avroSchemaOrigin = "avroSchema";
        return this;
    }

    /** The Avro writer schema, already parsed (kept as its JSON text). */
    public TfstreamConvertBuilder setAvroSchema(Schema writerSchema) {
        return setAvroSchema(writerSchema == null ? null : writerSchema.toString());
    }

    /** The Avro writer schema file ({@code .avsc}), read now. */
    public TfstreamConvertBuilder setAvroSchemaFile(Path file) {
        try {
            setAvroSchema(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("avroSchema: cannot read " + file, e);
        }
        this.avroSchemaOrigin = "avroSchema " + file;
        return this;
    }

    /**
     * The Confluent schema id every Avro record must carry (magic byte 0, 4-byte id); others are
     * dead letters. Default null: framed and plain records are both read.
     */
    public TfstreamConvertBuilder setAvroSchemaId(Integer schemaId) {
        this.avroSchemaId = schemaId;
        return this;
    }

    /**
     * Whether a JSON string for a BYTES feature is base64, decoded (true), or its UTF-8 bytes
     * (default false).
     */
    public TfstreamConvertBuilder setJsonBytesBase64(boolean base64) {
        this.jsonBytesBase64 = base64;
        return this;
    }

    /**
     * Read nested JSON objects and Avro records as features named {@code parent.child} (default
     * false: a nested object or record holding schema features is refused).
     */
    public TfstreamConvertBuilder setFlatten(boolean flatten) {
        this.flatten = flatten;
        return this;
    }

    /** The circuit breaker on the fraction of records that do not convert (default off). */
    public TfstreamConvertBuilder setDeadLetterGuard(DeadLetterGuard guard) {
        this.guard = guard;
        return this;
    }

    /** The operator's uid (default {@value #DEFAULT_UID}). */
    public TfstreamConvertBuilder setUid(String uid) {
        this.uid = uid;
        return this;
    }

    /** The operator's name in the web UI and logs (default: its uid). */
    public TfstreamConvertBuilder setName(String name) {
        this.name = name;
        return this;
    }

    /**
     * The conversion, every setting checked and the converter planned once.
     *
     * @throws IllegalArgumentException naming the first wrong or missing setting; when the schema
     *     or the Avro writer schema cannot convert, its cause is the refusal (an {@link
     *     AvroSchemaRejectedException} for the writer schema)
     */
    public TfstreamConvert build() {
        if (schema == null || schemaFileName == null || schemaFileName.isEmpty()) {
            throw new IllegalArgumentException(
                    "schema is required: setSchema(content, fileName) or setSchemaFile(path)");
        }
        if (format == null) {
            throw new IllegalArgumentException(
                    "format is required: setFormat(InputFormat.JSON) or setFormat(InputFormat.AVRO)");
        }
        if (format == InputFormat.EXAMPLE) {
            throw new IllegalArgumentException(
                    "format: example records need no conversion; use JSON or AVRO");
        }
        if (format == InputFormat.AVRO && avroSchema == null) {
            throw new IllegalArgumentException(
                    "avroSchema is required with format AVRO: setAvroSchema(avsc) or"
                            + " setAvroSchemaFile(path); no schema registry is asked");
        }
        if (format == InputFormat.JSON && (avroSchema != null || avroSchemaId != null)) {
            throw new IllegalArgumentException(
                    (avroSchema != null ? "avroSchema" : "avroSchemaId")
                            + " is set but format is JSON");
        }
        if (avroSchemaId != null && avroSchemaId < 0) {
            throw new IllegalArgumentException(
                    "avroSchemaId must be >= 0 (a Confluent schema id), got " + avroSchemaId);
        }
        if (guard == null) {
            throw new IllegalArgumentException("deadLetterGuard must be set (it was set to null)");
        }
        if (uid == null || uid.isEmpty()) {
            throw new IllegalArgumentException("uid must not be empty");
        }
        ConvertFeatures features;
        try {
            ParseSpec spec = SpecSource.parse(schema, schemaFileName, FixedLenDefaults.NONE);
            features = ConvertFeatures.of(spec);
        } catch (MalformedSpecFileException | RuntimeException e) {
            throw new IllegalArgumentException(
                    "schema " + schemaFileName + " cannot convert: " + e.getMessage(), e);
        }
        ConvertOptions options = new ConvertOptions(jsonBytesBase64, flatten, avroSchemaId);
        ConvertSettings settings =
                new ConvertSettings(
                        format,
                        features,
                        options,
                        format == InputFormat.AVRO ? avroSchema : null,
                        guard);
        try {
            settings.converter(); // the Avro plan: refuses logical types and misfits by field
        } catch (AvroSchemaRejectedException e) {
            throw new IllegalArgumentException(
                    avroSchemaOrigin + " against schema " + schemaFileName + ": " + e.getMessage(),
                    e);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    avroSchemaOrigin + " is not a usable Avro schema: " + e.getMessage(), e);
        }
        return new TfstreamConvert(settings, uid, name != null ? name : uid);
    }
}
