package io.tfstream.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.tfstream.spec.SpecRejectedException;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.spec.schema.FeatureSpecFromSchema;
import io.tfstream.spec.schema.FixedLenDefaults;
import io.tfstream.spec.schema.SchemaLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.tensorflow.metadata.v0.Schema;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tfstream spec --schema SCHEMA.pbtxt [--legacy-defaults]}: prints the feature spec derived
 * from a TFMD schema as one line of SPEC.json (SEQSPEC.json for a schema with a {@code
 * ##SEQUENCE##} STRUCT), every field written out. A schema tfx-bsl / tensorflow_transform reject
 * prints {@code {"stage":"spec","error":"<message>"}} and exits 3; an unreadable file exits 2.
 */
@Command(
        name = "spec",
        header = "Prints the feature spec a TFMD schema gives (SPEC.json or SEQSPEC.json).",
        mixinStandardHelpOptions = true,
        description =
                "Prints the feature spec derived from a TFMD schema (tfx-bsl / TFT open-source"
                        + " rules) as SPEC.json, or SEQSPEC.json for a ##SEQUENCE## schema.")
final class SpecCommand implements Callable<Integer> {

    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--schema",
            required = true,
            paramLabel = "SCHEMA",
            description = "TFMD Schema, text format (.pbtxt) or binary (.pb).")
    private Path schema;

    @Option(
            names = "--legacy-defaults",
            description =
                    "Give fixed-shape features without an explicit default the legacy defaults:"
                            + " BYTES b'', INT -1, FLOAT -1.0 (the open-source path gives none).")
    private boolean legacyDefaults;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Schema parsed;
        try {
            parsed = SchemaLoader.load(schema);
        } catch (IOException e) {
            err.println("tfstream spec: " + FileErrors.describe(schema, e));
            err.flush();
            return ExitCodes.USAGE;
        }
        FixedLenDefaults defaults =
                legacyDefaults ? FixedLenDefaults.LEGACY : FixedLenDefaults.NONE;
        try {
            out.println(
                    SpecJsonWriter.write(FeatureSpecFromSchema.derive(parsed, defaults).spec()));
            out.flush();
            return ExitCodes.OK;
        } catch (SpecRejectedException e) {
            out.println(errorLine(e.getMessage()));
            out.flush();
            return ExitCodes.SPEC_REJECTED;
        }
    }

    /** {@code {"stage":"spec","error":"<message>"}}. */
    static String errorLine(String message) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("stage", "spec");
            g.writeStringField("error", message);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }
}
