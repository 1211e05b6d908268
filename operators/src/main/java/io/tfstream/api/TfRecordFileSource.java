package io.tfstream.api;

import io.tfstream.api.model.OnCorruption;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.options.FileSourceOptions;
import io.tfstream.operators.files.FilePaths;
import io.tfstream.operators.files.TfRecordFileFormat;
import io.tfstream.tfrecord.TfRecordReadOptions;
import java.time.Duration;
import java.util.List;
import org.apache.flink.connector.file.src.FileSource;

/**
 * The TFRecord file source: files, directories or globs on any Flink file system, none/gzip/zlib
 * detected per file, one {@link SourceRecord} per record (topic the file, offset the record's
 * position, timestamp the file's modification time), damaged regions dead-lettered or failing the
 * job. Built as {@code TfRecordFileSource.builder(List.of("/data/*.tfrecord.gz")).build()}, then
 * {@code env.fromSource(source, watermarks, "file-source")}.
 */
public final class TfRecordFileSource {
    /** How many bytes of a damaged region a dead letter keeps. */
    public static final int DEFAULT_CORRUPT_BYTES_KEPT = 64 << 10;

    private final List<String> paths;
    private OnCorruption onCorruption = FileSourceOptions.ON_CORRUPTION.defaultValue();
    private int maxRecordLength = TfRecordReadOptions.DEFAULT_MAX_RECORD_LENGTH;
    private int corruptBytesKept = DEFAULT_CORRUPT_BYTES_KEPT;
    private Duration discoveryInterval;

    private TfRecordFileSource(List<String> paths) {
        this.paths = paths;
    }

    /** A builder of the source over {@code paths} (each a file, a directory or a glob). */
    public static TfRecordFileSource builder(List<String> paths) {
        return new TfRecordFileSource(paths);
    }

    /** What a damaged region does (default: dead-lettered, reading resumes after it). */
    public TfRecordFileSource setOnCorruption(OnCorruption onCorruption) {
        this.onCorruption = onCorruption;
        return this;
    }

    /** The longest record read (default 64 MiB); longer lengths count as damage. */
    public TfRecordFileSource setMaxRecordLength(int maxRecordLength) {
        this.maxRecordLength = maxRecordLength;
        return this;
    }

    /** How many bytes of a damaged region its dead letter keeps (default 64 KiB). */
    public TfRecordFileSource setCorruptBytesKept(int corruptBytesKept) {
        this.corruptBytesKept = corruptBytesKept;
        return this;
    }

    /** Keep watching the paths for new files at this interval (default: bounded, read once). */
    public TfRecordFileSource setContinuous(Duration discoveryInterval) {
        this.discoveryInterval = discoveryInterval;
        return this;
    }

    /**
     * The Flink source, every setting checked.
     *
     * @throws IllegalArgumentException naming the first wrong setting
     */
    public FileSource<SourceRecord> build() {
        if (paths == null || paths.isEmpty()) {
            throw new IllegalArgumentException("paths must list at least one file or directory");
        }
        if (onCorruption == null) {
            throw new IllegalArgumentException("onCorruption must be set");
        }
        if (maxRecordLength < 1) {
            throw new IllegalArgumentException(
                    "maxRecordLength must be positive, got " + maxRecordLength);
        }
        if (corruptBytesKept < 0) {
            throw new IllegalArgumentException(
                    "corruptBytesKept must be >= 0, got " + corruptBytesKept);
        }
        if (discoveryInterval != null
                && (discoveryInterval.isNegative() || discoveryInterval.isZero())) {
            throw new IllegalArgumentException(
                    "continuous: discoveryInterval must be positive, got " + discoveryInterval);
        }
        FilePaths files;
        try {
            files = FilePaths.of(paths);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("paths: " + e.getMessage(), e);
        }
        FileSource.FileSourceBuilder<SourceRecord> b =
                FileSource.forBulkFileFormat(
                                new TfRecordFileFormat(
                                        onCorruption, maxRecordLength, corruptBytesKept),
                                files.bases())
                        .setFileEnumerator(files.enumerator());
        if (discoveryInterval != null) {
            b.monitorContinuously(discoveryInterval);
        }
        return b.build();
    }
}
