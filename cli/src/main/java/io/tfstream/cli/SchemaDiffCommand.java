package io.tfstream.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.SchemaFingerprint;
import io.tfstream.spec.SpecRejectedException;
import io.tfstream.spec.SpecSource;
import io.tfstream.spec.diff.SpecChange;
import io.tfstream.spec.diff.SpecDiff;
import io.tfstream.spec.schema.FixedLenDefaults;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tfstream schema diff OLD NEW}: the feature-level differences between the specs two TFMD
 * schemas (or SPEC.json files) give, and whether every record valid under OLD stays valid under
 * NEW. Exit 0 compatible, 1 not, 2 a file that cannot be read, 3 a schema rejected.
 */
@Command(
        name = "diff",
        header =
                "Compares the feature specs of two schemas; says whether the change is compatible.",
        mixinStandardHelpOptions = true,
        description = {
            "Derives the feature spec of OLD and NEW (TFMD schemas, .pbtxt or .pb, or SPEC.json /"
                    + " SEQSPEC.json files) and prints one line per changed feature: added,"
                    + " removed, dtype, shape, default, required or kind, and whether it is"
                    + " breaking (a record that OLD accepts can be refused under NEW).",
            "Exit code 0 when every change is compatible, 1 when one breaks, 2 on a usage error"
                    + " or a file that cannot be read, 3 when a schema is rejected."
        })
final class SchemaDiffCommand implements Callable<Integer> {

    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "OLD", description = "The schema or spec in force.")
    private Path oldFile;

    @Parameters(index = "1", paramLabel = "NEW", description = "The schema or spec to compare.")
    private Path newFile;

    @Option(
            names = "--json",
            description =
                    "Print one JSON object: {\"compatible\", \"old_fingerprint\","
                            + " \"new_fingerprint\", \"changes\": [...]} (docs/cli.md).")
    private boolean json;

    @Option(
            names = "--legacy-defaults",
            description =
                    "Derive schemas with the legacy defaults for fixed-shape features (as"
                            + " tfstream spec --legacy-defaults).")
    private boolean legacyDefaults;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Side oldSide;
        Side newSide;
        try {
            oldSide = load(oldFile);
            newSide = load(newFile);
        } catch (IOException e) {
            err.println("tfstream schema diff: " + e.getMessage());
            err.flush();
            return ExitCodes.USAGE;
        } catch (SpecRejectedException e) {
            err.println("tfstream schema diff: " + e.getMessage());
            err.flush();
            return ExitCodes.SPEC_REJECTED;
        }
        SpecDiff diff = SpecDiff.of(oldSide.spec, newSide.spec);
        if (json) {
            out.println(toJson(diff, oldSide.fingerprint, newSide.fingerprint));
        } else {
            printText(out, diff);
        }
        out.flush();
        return diff.compatible() ? ExitCodes.OK : ExitCodes.DATA_ERROR;
    }

    private record Side(ParseSpec spec, String fingerprint) {}

    private Side load(Path file) throws IOException {
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IOException(FileErrors.describe(file, e), e);
        }
        Path name = file.getFileName();
        String fileName = name == null ? file.toString() : name.toString();
        FixedLenDefaults defaults =
                legacyDefaults ? FixedLenDefaults.LEGACY : FixedLenDefaults.NONE;
        try {
            return new Side(
                    SpecSource.parse(content, fileName, defaults),
                    SchemaFingerprint.of(content, fileName));
        } catch (SpecRejectedException e) {
            throw new SpecRejectedException(file + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    private static void printText(PrintWriter out, SpecDiff diff) {
        if (diff.changes().isEmpty()) {
            out.println("no changes: the two specs are equal");
            return;
        }
        for (SpecChange c : diff.changes()) {
            out.println(
                    (c.breaking() ? "BREAKING " : "ok       ")
                            + c.change().jsonName()
                            + " "
                            + c.qualifiedFeature()
                            + ": "
                            + c.oldJson()
                            + " -> "
                            + c.newJson()
                            + " ("
                            + c.reason()
                            + ")");
        }
        int breaking = diff.breakingChanges().size();
        out.println(
                diff.compatible()
                        ? "compatible: every record valid under OLD stays valid under NEW ("
                                + diff.changes().size()
                                + " changes)"
                        : "not compatible: "
                                + breaking
                                + " of "
                                + diff.changes().size()
                                + " changes can refuse records OLD accepts");
    }

    static String toJson(SpecDiff diff, String oldFingerprint, String newFingerprint) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
            g.writeStartObject();
            g.writeBooleanField("compatible", diff.compatible());
            g.writeStringField("old_fingerprint", oldFingerprint);
            g.writeStringField("new_fingerprint", newFingerprint);
            g.writeArrayFieldStart("changes");
            for (SpecChange c : diff.changes()) {
                g.writeStartObject();
                if (c.section() != null) {
                    g.writeStringField("section", c.section());
                }
                g.writeStringField("feature", c.feature());
                g.writeStringField("change", c.change().jsonName());
                g.writeFieldName("old");
                g.writeRawValue(c.oldJson());
                g.writeFieldName("new");
                g.writeRawValue(c.newJson());
                g.writeBooleanField("breaking", c.breaking());
                g.writeStringField("reason", c.reason());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }
}
