package io.tfstream.spec;

import io.tfstream.spec.json.SpecJsonReader;
import io.tfstream.spec.schema.FeatureSpecFromSchema;
import io.tfstream.spec.schema.FixedLenDefaults;
import io.tfstream.spec.schema.SchemaLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.tensorflow.metadata.v0.Schema;

/**
 * The one way downstream code gets a parse spec: from a TFMD schema ({@code .pbtxt} text or binary
 * {@code .pb}, derived as {@link FeatureSpecFromSchema} does) or from a SPEC.json / SEQSPEC.json. A
 * file is JSON when its name ends in {@code .json} or its first non-blank character is an opening
 * brace; anything else is read as a schema. Keep the file's bytes and call {@link #parse} where the
 * spec is needed (e.g. in an operator's {@code open()}) rather than shipping the parsed spec.
 */
public final class SpecSource {
    private SpecSource() {}

    /** Loads {@code file} with the open-source defaults ({@link FixedLenDefaults#NONE}). */
    public static ParseSpec load(Path file) throws IOException {
        return load(file, FixedLenDefaults.NONE);
    }

    /**
     * Loads {@code file}; {@code defaults} applies only to schemas.
     *
     * @throws MalformedSpecFileException when the file is neither a Schema proto nor JSON
     * @throws SpecRejectedException when the schema or spec is refused (message says why)
     */
    public static ParseSpec load(Path file, FixedLenDefaults defaults) throws IOException {
        Path name = file.getFileName();
        return parse(
                Files.readAllBytes(file),
                name == null ? file.toString() : name.toString(),
                defaults);
    }

    /** As {@link #load(Path, FixedLenDefaults)} for file content held in memory. */
    public static ParseSpec parse(byte[] content, String fileName, FixedLenDefaults defaults)
            throws MalformedSpecFileException {
        if (isJson(content, fileName)) {
            return SpecJsonReader.read(new String(content, StandardCharsets.UTF_8), fileName);
        }
        Schema schema = SchemaLoader.parse(content, fileName);
        return FeatureSpecFromSchema.derive(schema, defaults).spec();
    }

    /** {@link #load(Path)} for Example data; refuses a SequenceExample schema or SEQSPEC.json. */
    public static FeatureSpecs loadExampleSpecs(Path file) throws IOException {
        return loadExampleSpecs(file, FixedLenDefaults.NONE);
    }

    /** {@link #load(Path, FixedLenDefaults)} for Example data. */
    public static FeatureSpecs loadExampleSpecs(Path file, FixedLenDefaults defaults)
            throws IOException {
        ParseSpec spec = load(file, defaults);
        if (spec instanceof FeatureSpecs f) {
            return f;
        }
        throw new SpecRejectedException(
                file
                        + " describes SequenceExample data (a STRUCT feature or SEQSPEC.json);"
                        + " parse it with parse_sequence_example");
    }

    /** {@link #load(Path)} for SequenceExample data; refuses an Example schema or SPEC.json. */
    public static SequenceFeatureSpecs loadSequenceSpecs(Path file) throws IOException {
        return loadSequenceSpecs(file, FixedLenDefaults.NONE);
    }

    /** {@link #load(Path, FixedLenDefaults)} for SequenceExample data. */
    public static SequenceFeatureSpecs loadSequenceSpecs(Path file, FixedLenDefaults defaults)
            throws IOException {
        ParseSpec spec = load(file, defaults);
        if (spec instanceof SequenceFeatureSpecs s) {
            return s;
        }
        throw new SpecRejectedException(
                file
                        + " describes Example data (no STRUCT feature, or SPEC.json rather than"
                        + " SEQSPEC.json); parse it with parse_example");
    }

    /** Whether {@code content} is a feature spec (SPEC.json) rather than a TFMD schema. */
    public static boolean isJson(byte[] content, String fileName) {
        if (fileName.toLowerCase(Locale.ROOT).endsWith(".json")) {
            return true;
        }
        for (byte b : content) {
            if (b == ' ' || b == '\t' || b == '\r' || b == '\n') {
                continue;
            }
            return b == '{';
        }
        return false;
    }
}
