package io.tfstream.api;

import io.tfstream.api.model.OnCorruption;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.api.options.FileSourceOptions;
import io.tfstream.operators.files.FilePaths;
import io.tfstream.operators.files.TfRecordFileFormat;
import io.tfstream.tfrecord.TfRecordReadOptions;
import java.time.Duration;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.file.src.FileSource;

/** The builder of a {@link TfRecordFileSource}: what damage does, record length, discovery. */
@PublicEvolving
public final class TfRecordFileSourceBuilder {
    private final List<String> paths;
    private OnCorruption onCorruption = FileSourceOptions.ON_CORRUPTION.defaultValue();
    private int maxRecordLength = TfRecordReadOptions.DEFAULT_MAX_RECORD_LENGTH;
    private int corruptBytesKept = TfRecordFileSource.DEFAULT_CORRUPT_BYTES_KEPT;
    private Duration discoveryInterval;

    TfRecordFileSourceBuilder(List<String> paths) {
        this.paths = paths;
    }

    /**
     * Takes the {@link FileSourceOptions} set in {@code config} ({@code on-corruption}, {@code
     * mode} with {@code discovery-interval}, keys relative to the stage; the paths are the
     * builder's). Unset options keep their values.
     */
    public TfRecordFileSourceBuilder fromConfig(ReadableConfig config) {
        FileSourceOptions.OPTIONS.checkAll(config, "");
        config.getOptional(FileSourceOptions.ON_CORRUPTION).ifPresent(this::setOnCorruption);
        if (config.get(FileSourceOptions.MODE) == FileSourceOptions.Mode.CONTINUOUS) {
            setContinuous(config.get(FileSourceOptions.DISCOVERY_INTERVAL));
        }
        return this;
    }

    /** What a damaged region does (default: dead-lettered, reading resumes after it). */
    public TfRecordFileSourceBuilder setOnCorruption(OnCorruption onCorruption) {
        this.onCorruption = onCorruption;
        return this;
    }

    /** The longest record read (default 64 MiB); longer lengths count as damage. */
    public TfRecordFileSourceBuilder setMaxRecordLength(int maxRecordLength) {
        this.maxRecordLength = maxRecordLength;
        return this;
    }

    /** How many bytes of a damaged region its dead letter keeps (default 64 KiB). */
    public TfRecordFileSourceBuilder setCorruptBytesKept(int corruptBytesKept) {
        this.corruptBytesKept = corruptBytesKept;
        return this;
    }

    /** Keep watching the paths for new files at this interval (default: bounded, read once). */
    public TfRecordFileSourceBuilder setContinuous(Duration discoveryInterval) {
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
