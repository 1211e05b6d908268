package io.tfstream.operators.shards;

import com.google.protobuf.TextFormat;
import io.tfstream.shards.ShardLayout;
import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.SpecSource;
import io.tfstream.spec.schema.SchemaLoader;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * The copy of a TFMD schema beside the shards it parsed: {@code <base>/_tfstream/_schemas/
 * _<fingerprint>/_schema.pbtxt}, in text format as TFX's SchemaGen writes it, so that TFDV, TFT and
 * TFX's {@code Schema} importer take it as is. Named by the fingerprint of its content, a copy is
 * written once and never changes: writers that race write the same bytes.
 */
@Internal
public final class SchemaCopies {
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
        FileSystem fs = target.getFileSystem();
        if (!fs.exists(target)) {
            String text = TextFormat.printer().printToString(SchemaLoader.parse(content, fileName));
            SuccessMarkers.writeWhole(
                    target, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return true;
    }
}
