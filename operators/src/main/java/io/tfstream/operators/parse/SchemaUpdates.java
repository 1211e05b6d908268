package io.tfstream.operators.parse;

import io.tfstream.api.model.SchemaCompatibility;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * How the batch-and-parse operators take up a changed schema while the job runs ({@code
 * schema.update: poll}, docs/schema-changes.md): the schema or spec file each subtask polls (a
 * Flink file system path), how often, and which changes it accepts.
 *
 * @param path the watched file, as Flink's {@code Path} reads it ({@code file://}, {@code s3://},
 *     or a local path)
 * @param pollMillis the time between two reads of the file
 * @param compatibility which new schemas are taken up
 */
@Internal
public record SchemaUpdates(String path, long pollMillis, SchemaCompatibility compatibility)
        implements Serializable {

    public SchemaUpdates {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(compatibility, "compatibility");
        if (path.isEmpty()) {
            throw new IllegalArgumentException("schema updates: path must not be empty");
        }
        if (pollMillis < 1) {
            throw new IllegalArgumentException(
                    "schema updates: poll interval must be positive, got " + pollMillis + " ms");
        }
    }

    /** Updates polled every {@code interval}. */
    public static SchemaUpdates poll(
            String path, Duration interval, SchemaCompatibility compatibility) {
        Objects.requireNonNull(interval, "interval");
        return new SchemaUpdates(path, interval.toMillis(), compatibility);
    }
}
