package io.tfstream.api;

import io.tfstream.api.model.SourceRecord;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The TFRecord file source: files, directories or globs on any Flink file system, none/gzip/zlib
 * detected per file, one {@link SourceRecord} per record (topic the file, offset the record's
 * position, timestamp the file's modification time), damaged regions dead-lettered or failing the
 * job. Built as {@code TfRecordFileSource.builder(List.of("/data/*.tfrecord.gz")).build()}, then
 * {@code env.fromSource(source, watermarks, "file-source")}.
 */
@PublicEvolving
public final class TfRecordFileSource {
    /** How many bytes of a damaged region a dead letter keeps. */
    public static final int DEFAULT_CORRUPT_BYTES_KEPT = 64 << 10;

    private TfRecordFileSource() {}

    /** A builder of the source over {@code paths} (each a file, a directory or a glob). */
    public static TfRecordFileSourceBuilder builder(List<String> paths) {
        return new TfRecordFileSourceBuilder(paths);
    }
}
