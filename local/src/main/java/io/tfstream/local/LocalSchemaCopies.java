package io.tfstream.local;

import io.tfstream.job.JobSchema;
import io.tfstream.spec.SchemaFingerprint;
import io.tfstream.spec.json.SpecJsonWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;

/**
 * The run's schemas in {@code --out}, for the next steps the docs show ({@code tfstream parse} and
 * {@code validate --schema}, a SQL table's {@code schema-path}, the Python client's {@code spec=}):
 * each schema or spec file the job read, under {@code schema/} with its own name, and the first
 * one's feature spec as {@code spec.json}.
 */
final class LocalSchemaCopies {
    static final String DIR = "schema";
    static final String SPEC = "spec.json";

    private LocalSchemaCopies() {}

    /**
     * Writes the copies into {@code outDir}: {@code first} as the job read it, and {@code next}
     * (the {@code --next-schema} file, or null) when it is a schema at all; returns fingerprint →
     * the copy's path, in that order.
     */
    static LinkedHashMap<String, String> write(Path outDir, JobSchema first, Path next)
            throws IOException {
        Path dir = Files.createDirectories(outDir.resolve(DIR));
        LinkedHashMap<String, String> out = new LinkedHashMap<>();
        Path firstCopy = Files.write(dir.resolve(first.fileName()), first.bytes());
        out.put(first.fingerprint(), firstCopy.toAbsolutePath().toString());
        Files.writeString(outDir.resolve(SPEC), SpecJsonWriter.write(first.spec()) + "\n");
        if (next != null) {
            byte[] bytes = Files.readAllBytes(next);
            String fingerprint;
            try {
                fingerprint = SchemaFingerprint.of(bytes, first.fileName());
            } catch (RuntimeException e) {
                // Not a schema: the job refused it (an alert and a log line say why).
                return out;
            }
            Path copy = dir.resolve(next.getFileName().toString());
            if (copy.equals(firstCopy)) {
                copy = dir.resolve("next-" + next.getFileName());
            }
            out.putIfAbsent(fingerprint, Files.write(copy, bytes).toAbsolutePath().toString());
        }
        return out;
    }
}
