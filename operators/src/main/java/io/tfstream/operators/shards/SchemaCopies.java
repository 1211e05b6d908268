package io.tfstream.operators.shards;

import com.google.protobuf.TextFormat;
import io.tfstream.shards.ShardLayout;
import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.SchemaFingerprint;
import io.tfstream.spec.SpecSource;
import io.tfstream.spec.schema.SchemaLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * The copy of a TFMD schema beside the shards it parsed: {@code <base>/_tfstream/_schemas/
 * _<fingerprint>/_schema.pbtxt}, in text format as TFX's SchemaGen writes it, so that TFDV, TFT and
 * TFX's {@code Schema} importer take it as is. Named by the fingerprint of its content, a copy is
 * written once and never changes: writers that race write the same bytes. A copy whose content does
 * not have the fingerprint of its name is rewritten by the writer and named by no manifest.
 */
@Internal
public final class SchemaCopies {
    /** A copy larger than this is no schema tfstream wrote (schemas are kilobytes). */
    private static final long MAX_COPY_BYTES = 64L << 20;

    /** The name a copy is read as: text format. */
    private static final String SCHEMA_FILE = "_schema.pbtxt";

    private SchemaCopies() {}

    /** The copy of the schema with {@code fingerprint} under base path {@code base}. */
    public static Path of(String base, String fingerprint) {
        return new Path(ShardLayout.dataDir(base, ShardLayout.schemaPath(fingerprint)));
    }

    /**
     * Writes the copy of schema file {@code content} ({@code fileName} tells text from binary)
     * under {@code base} unless it is there; a feature spec (SPEC.json) is not a schema and gets
     * none. Returns whether a copy is there now.
     */
    public static boolean write(String base, String fingerprint, byte[] content, String fileName)
            throws IOException, MalformedSpecFileException {
        if (SpecSource.isJson(content, fileName)) {
            return false;
        }
        Path target = of(base, fingerprint);
        // A copy that is there but not what its name says (planted, or cut short) is replaced.
        if (!matches(target, fingerprint)) {
            String text = TextFormat.printer().printToString(SchemaLoader.parse(content, fileName));
            SuccessMarkers.writeWhole(target, text.getBytes(StandardCharsets.UTF_8));
        }
        return true;
    }

    /**
     * Whether the copy of {@code fingerprint} under {@code base} is there and holds a schema of
     * that fingerprint: readers trust a copy only then, since whoever can write to the bucket could
     * have put any schema under the name.
     */
    public static boolean verified(String base, String fingerprint) throws IOException {
        return matches(of(base, fingerprint), fingerprint);
    }

    private static boolean matches(Path copy, String fingerprint) throws IOException {
        FileSystem fs = copy.getFileSystem();
        if (!fs.exists(copy)) {
            return false;
        }
        long length = fs.getFileStatus(copy).getLen();
        if (length > MAX_COPY_BYTES) {
            return false;
        }
        byte[] bytes;
        try (FSDataInputStream in = fs.open(copy)) {
            bytes = in.readNBytes((int) length + 1);
        }
        try {
            return fingerprint.equals(SchemaFingerprint.of(bytes, SCHEMA_FILE));
        } catch (MalformedSpecFileException notASchema) {
            return false;
        }
    }
}
