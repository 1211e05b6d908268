package io.tfstream.sql;

import io.tfstream.tfrecord.Compression;
import io.tfstream.tfrecord.CorruptRecordException;
import io.tfstream.tfrecord.SkippedRegion;
import io.tfstream.tfrecord.TfRecordReadOptions;
import io.tfstream.tfrecord.TfRecordReader;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.ArrayResultIterator;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one TFRecord file through the core reader and hands out its rows a parse batch at a time
 * ({@link TfRecordRowFormat#BATCH_RECORDS} records or {@link TfRecordRowFormat#BATCH_BYTES}).
 *
 * <p><b>Position.</b> The position after a row is (the file offset of its batch's first record,
 * rows of the batch emitted so far). Batches are cut by record count and size from that offset, so
 * a restored reader rebuilds the same batch, parses it the same way (skipping the same records) and
 * drops the rows already emitted. An uncompressed file is restored by seeking; a gzip or zlib
 * stream is decompressed again from its start up to the offset.
 *
 * <p><b>Damage.</b> A damaged region fails the read with the file and byte offset, or with {@code
 * ignore-parse-errors} is skipped up to the next valid record (a damaged compressed stream ends the
 * file). What was skipped is counted in the table's {@link SkipCounters} and logged per file when
 * the reader closes; a restored reader may count a skip of its batch again.
 */
final class TfRecordRowReader implements BulkFormat.Reader<RowData> {
    private static final Logger LOG = LoggerFactory.getLogger(TfRecordRowReader.class);

    private final TfRecordRowFormat format;
    private final String file;
    private final long base;
    private final TfRecordReader reader;
    private final ExampleRowDecoder decoder;
    private final PackedRecords batch = new PackedRecords();
    private final List<RowData> rows = new ArrayList<>();
    private long skipRows;
    private boolean ended;
    private boolean pending;
    private final SkipCounters counters;
    private long skippedRegions;
    private long skippedRecords;

    TfRecordRowReader(TfRecordRowFormat format, FileSourceSplit split, long offset, long skip)
            throws IOException {
        this.format = format;
        this.file = split.path().toString();
        this.skipRows = skip;
        this.counters = format.skipCounters();
        this.decoder = format.example() == null ? null : format.example().newDecoder();
        FileSystem fs = split.path().getFileSystem();
        Compression c = format.compression();
        if (c == null) {
            c = detect(fs, split);
        }
        FSDataInputStream in = fs.open(split.path());
        try {
            TfRecordReadOptions options = TfRecordReadOptions.defaults().withCompression(c);
            if (format.ignoreErrors()) {
                options = options.skipDamaged(this::skipped);
            }
            if (c == Compression.NONE && offset > 0) {
                in.seek(offset);
                base = offset;
            } else {
                base = 0;
            }
            reader = TfRecordReader.open(in, file, options);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
        // A compressed stream read again from its start: drop the records before the position.
        while (advance() && base + reader.recordOffset() < offset) {
            pending = false;
        }
    }

    private static Compression detect(FileSystem fs, FileSourceSplit split) throws IOException {
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

    private void skipped(SkippedRegion r) {
        skippedRegion(r.length(), r.recordsLost().orElse(0));
    }

    private void skippedRegion(long bytes, long records) {
        skippedRegions++;
        skippedRecords += records;
        if (counters != null) {
            counters.regions.incrementAndGet();
            counters.bytes.addAndGet(bytes);
            counters.records.addAndGet(records);
        }
    }

    private void skippedRecord() {
        skippedRecords++;
        if (counters != null) {
            counters.records.incrementAndGet();
        }
    }

    /** Makes the next record current (pending) unless one already is; false at the end. */
    private boolean advance() throws IOException {
        if (pending) {
            return true;
        }
        if (ended) {
            return false;
        }
        try {
            pending = reader.next();
        } catch (CorruptRecordException e) {
            if (!format.ignoreErrors()) {
                throw new IOException(
                        file + ": damaged at byte " + (base + e.offset()) + ": " + e.reason(), e);
            }
            // The compressed stream itself is damaged: nothing after this can be read.
            skippedRegion(0, 0);
            pending = false;
        }
        ended = !pending;
        return pending;
    }

    @Override
    public BulkFormat.RecordIterator<RowData> readBatch() throws IOException {
        batch.clear();
        while (batch.size() < TfRecordRowFormat.BATCH_RECORDS
                && batch.bytes() < TfRecordRowFormat.BATCH_BYTES
                && advance()) {
            batch.add(
                    reader.buffer(),
                    reader.offset(),
                    reader.length(),
                    base + reader.recordOffset());
            pending = false;
        }
        if (batch.size() == 0) {
            return null;
        }
        rows.clear();
        if (decoder == null) {
            for (int i = 0; i < batch.size(); i++) {
                rows.add(GenericRowData.of((Object) batch.copy(i)));
            }
        } else {
            decoder.decode(
                    batch,
                    i -> file + ": record at byte " + batch.fileOffset(i),
                    rows::add,
                    format.ignoreErrors() ? (i, m) -> skippedRecord() : null);
        }
        int skip = (int) Math.min(skipRows, rows.size());
        skipRows = 0;
        RowData[] out = rows.subList(skip, rows.size()).toArray(new RowData[0]);
        ArrayResultIterator<RowData> it = new ArrayResultIterator<>();
        it.set(out, out.length, batch.fileOffset(0), skip);
        return it;
    }

    @Override
    public void close() throws IOException {
        if (skippedRegions > 0 || skippedRecords > 0) {
            LOG.warn(
                    "{}: ignore-parse-errors skipped {} damaged region(s) and {} record(s)",
                    file,
                    skippedRegions,
                    skippedRecords);
        }
        reader.close();
    }
}
