package io.tfstream.spec;

import com.google.protobuf.CodedOutputStream;
import io.tfstream.spec.json.SpecJsonReader;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.spec.schema.SchemaLoader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.tensorflow.metadata.v0.Schema;

/**
 * The schema fingerprint that dead-letter records and tensor payloads carry: lowercase hex SHA-256
 * of the deterministic protobuf serialization of the TFMD {@code Schema}, or of the canonical
 * SPEC.json text ({@link SpecJsonWriter}) when the job runs from a spec file. Formatting, comments
 * and field order in the file do not change it.
 */
public final class SchemaFingerprint {
    private SchemaFingerprint() {}

    /** The fingerprint of a schema or spec file's content (told apart as {@link SpecSource}). */
    public static String of(byte[] content, String fileName) throws MalformedSpecFileException {
        if (SpecSource.isJson(content, fileName)) {
            ParseSpec spec =
                    SpecJsonReader.read(new String(content, StandardCharsets.UTF_8), fileName);
            return sha256(SpecJsonWriter.write(spec).getBytes(StandardCharsets.UTF_8));
        }
        return of(SchemaLoader.parse(content, fileName));
    }

    /** The fingerprint of {@code schema}. */
    public static String of(Schema schema) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(schema.getSerializedSize());
        try {
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            out.useDeterministicSerialization();
            schema.writeTo(out);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sha256(bytes.toByteArray());
    }

    private static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
