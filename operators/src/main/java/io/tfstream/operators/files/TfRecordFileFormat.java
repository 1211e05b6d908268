package io.tfstream.operators.files;

import io.tfstream.api.model.OnCorruption;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.source.SourceRecordSerializer;
import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.CorruptRecordException;
import io.tfstream.tfrecord.SkippedRegion;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.ArrayResultIterator;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.runtime.execution.SuppressRestartsException;

/**
 * TFRecord files (uncompressed, gzip or zlib, detected as the CLI does) as a Flink {@code
 * FileSource} format over the {@code core/} reader. Each record becomes a {@link SourceRecord} with
 * the file's path, the record's byte offset in the uncompressed record stream and the file's
 * modification time as its timestamp ({@link SourceRecord#fromFile}).
 *
 * <p><b>Position.</b> Items (records and damaged regions) are handed out in batches; the position
 * checkpointed after an item is (the uncompressed offset of its batch's first item, items of the
 * batch emitted so far). An uncompressed file is restored by seeking there; a gzip or zlib stream
 * cannot seek, so it is decompressed again from the start and read up to that offset (the cost of
 * restoring is re-reading the compressed bytes before the position). Either way no record is lost
 * or repeated. Files are not split: one file is read by one reader, start to end; parallelism comes
 * from many files.
 *
 * <p><b>Damage.</b> With {@link OnCorruption#DEAD_LETTER}, a damaged region (bad CRC, bad length,
 * truncation) is skipped up to the next valid record, as {@code tfstream verify}/{@code recover}
 * do, and handed out as an item that carries the {@link #CORRUPT_HEADER} header (the reason), the
 * region's offset and its first bytes, for the dead-letter output; damage to a gzip/zlib stream
 * ends the file there (nothing after it can be decompressed). With {@link OnCorruption#FAIL} the
 * first damage fails the job without restarts.
 */
@Internal
public final class TfRecordFileFormat implements BulkFormat<SourceRecord, FileSourceSplit> {
    private static final long serialVersionUID = 1L;

    /** The header that marks an item as a damaged region; its value is the reason. */
    public static final String CORRUPT_HEADER = "tfstream.corrupt-input";

    private final OnCorruption onCorruption;
    private final int maxRecordLength;
    private final int keepBytes;
    private final int batchItems;

    /**
     * @param maxRecordLength records declaring a larger length are damage
     * @param keepBytes how many bytes of a damaged region its dead-letter record carries
     */
    public TfRecordFileFormat(OnCorruption onCorruption, int maxRecordLength, int keepBytes) {
        this(onCorruption, maxRecordLength, keepBytes, 256);
    }

    TfRecordFileFormat(
            OnCorruption onCorruption, int maxRecordLength, int keepBytes, int batchItems) {
        this.onCorruption = Objects.requireNonNull(onCorruption, "onCorruption");
        this.maxRecordLength = maxRecordLength;
        this.keepBytes = keepBytes;
        this.batchItems = batchItems;
    }

    @Override
    public Reader<SourceRecord> createReader(Configuration config, FileSourceSplit split)
            throws IOException {
        return new FileReader(split, 0, 0);
    }

    @Override
    public Reader<SourceRecord> restoreReader(Configuration config, FileSourceSplit split)
            throws IOException {
        CheckpointedPosition p = split.getReaderPosition().orElse(new CheckpointedPosition(0, 0));
        long offset = p.getOffset() == CheckpointedPosition.NO_OFFSET ? 0 : p.getOffset();
        return new FileReader(split, offset, p.getRecordsAfterOffset());
    }

    @Override
    public boolean isSplittable() {
        return false;
    }

    @Override
    public TypeInformation<SourceRecord> getProducedType() {
        return SourceRecordSerializer.typeInfo();
    }

    private final class FileReader implements BulkFormat.Reader<SourceRecord> {
        private final String file;
        private final long modified;
        private final long base;
        private final TfRecordReader reader;
        private final ArrayDeque<SourceRecord> regions = new ArrayDeque<>();
        private final SourceRecord[] batch = new SourceRecord[batchItems];
        private boolean ended;

        /**
         * Opens the file positioned at item offset {@code offset}, then skips {@code skip} items.
         */
        FileReader(FileSourceSplit split, long offset, long skip) throws IOException {
            this.file = split.path().toString();
            this.modified = split.fileModificationTime();
            FileSystem fs = split.path().getFileSystem();
            FSDataInputStream in = fs.open(split.path());
            try {
                Compression c = detect(fs, split);
                TfRecordReadOptions options =
                        TfRecordReadOptions.defaults()
                                .withCompression(c)
                                .withMaxRecordLength(maxRecordLength);
                if (onCorruption == OnCorruption.DEAD_LETTER) {
                    options = options.skipDamaged(this::damaged, keepBytes);
                }
                if (c == Compression.NONE && offset > 0) {
                    in.seek(offset);
                    this.base = offset;
                } else {
                    this.base = 0;
                }
                this.reader = TfRecordReader.open(in, file, options);
            } catch (IOException | RuntimeException e) {
                in.close();
                throw e;
            }
            // A compressed stream, re-read from its start: drop the items before the position.
            while (!ended && peekOffset() < offset) {
                pull();
            }
            for (long i = 0; i < skip; i++) {
                if (pull() == null) {
                    throw new IOException(
                            file
                                    + " has fewer items after offset "
                                    + offset
                                    + " than the checkpoint recorded ("
                                    + skip
                                    + "): the file changed after it was read");
                }
            }
        }

        private Compression detect(FileSystem fs, FileSourceSplit split) throws IOException {
            byte[] head = new byte[12];
            int n = 0;
            try (InputStream probe = fs.open(split.path())) {
                while (n < head.length) {
                    int r = probe.read(head, n, head.length - n);
                    if (r < 0) {
                        break;
                    }
                    n += r;
                }
            }
            return Compression.detect(split.path().getName(), head, n);
        }

        private void damaged(SkippedRegion r) {
            regions.add(
                    corrupt(
                            r.offset(),
                            r.damage().reason() + "; " + r.length() + " bytes skipped",
                            r.head()));
        }

        /**
         * A damaged region as an item. The message names the absolute offset only: it must not
         * depend on where reading started (a restore seeks), so no record index.
         */
        private SourceRecord corrupt(long offset, String reason, byte[] bytes) {
            String message = file + ": damaged at byte " + (base + offset) + ": " + reason;
            return SourceRecord.fromFile(
                    bytes,
                    new String[] {CORRUPT_HEADER},
                    new byte[][] {message.getBytes(StandardCharsets.UTF_8)},
                    file,
                    base + offset,
                    modified);
        }

        private SourceRecord pending;

        /** The offset of the next item, reading it if needed; Long.MAX_VALUE at the end. */
        private long peekOffset() throws IOException {
            if (pending == null) {
                pending = read();
            }
            return pending == null ? Long.MAX_VALUE : pending.offset();
        }

        private SourceRecord pull() throws IOException {
            if (pending != null) {
                SourceRecord r = pending;
                pending = null;
                return r;
            }
            return read();
        }

        /** The next item: a damaged region, a record, or null at the end. */
        private SourceRecord read() throws IOException {
            if (!regions.isEmpty()) {
                return regions.poll();
            }
            if (ended) {
                return null;
            }
            boolean more;
            try {
                more = reader.next();
            } catch (CorruptRecordException e) {
                if (onCorruption == OnCorruption.FAIL) {
                    throw new SuppressRestartsException(
                            new IOException(
                                    "source.files.on-corruption is fail: " + e.getMessage(), e));
                }
                // The compressed stream itself is damaged: nothing after this can be read.
                ended = true;
                regions.add(corrupt(e.offset(), e.reason(), new byte[0]));
                return regions.poll();
            }
            if (!regions.isEmpty()) {
                // The region skipped before this record comes first.
                if (more) {
                    regions.add(record());
                } else {
                    ended = true;
                }
                return regions.poll();
            }
            if (!more) {
                ended = true;
                return null;
            }
            return record();
        }

        private SourceRecord record() {
            return SourceRecord.fromFile(
                    reader.copy(), null, null, file, base + reader.recordOffset(), modified);
        }

        @Override
        public RecordIterator<SourceRecord> readBatch() throws IOException {
            int n = 0;
            long first = -1;
            while (n < batch.length) {
                SourceRecord r = pull();
                if (r == null) {
                    break;
                }
                if (n == 0) {
                    first = r.offset();
                }
                batch[n++] = r;
            }
            if (n == 0) {
                return null;
            }
            ArrayResultIterator<SourceRecord> it = new ArrayResultIterator<>();
            it.set(batch.clone(), n, first, 0);
            return it;
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }
}
