package io.tfstream.e2e.tfrecord;

import io.tfstream.tfrecord.Compression;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tensorflow.Graph;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.exceptions.TFOutOfRangeException;
import org.tensorflow.ndarray.NdArrays;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.op.Ops;
import org.tensorflow.op.data.DatasetToTfRecord;
import org.tensorflow.op.data.TensorSliceDataset;
import org.tensorflow.op.io.FifoQueue;
import org.tensorflow.op.io.MatchingFiles;
import org.tensorflow.op.io.QueueClose;
import org.tensorflow.op.io.QueueEnqueue;
import org.tensorflow.op.io.ReaderReadUpTo;
import org.tensorflow.op.io.TfRecordReader;
import org.tensorflow.types.TString;

/**
 * TensorFlow's own TFRecord writer and reader, driven through TensorFlow Java in graph mode: {@code
 * DatasetToTFRecord} over a {@code TensorSliceDataset} writes, {@code TFRecordReaderV2} fed by a
 * closed {@code FIFOQueue} of one file name reads ({@code ReaderReadUpTo}).
 */
public final class TensorFlowRecordIo {
    private TensorFlowRecordIo() {}

    /** Writes {@code records} to {@code file} with TensorFlow's {@code RecordWriter}. */
    public static void write(Path file, List<byte[]> records, Compression c) {
        try (Graph g = new Graph();
                Session s = new Session(g);
                TString data =
                        TString.tensorOfBytes(
                                NdArrays.vectorOfObjects(records.toArray(byte[][]::new)))) {
            Ops tf = Ops.create(g);
            TensorSliceDataset dataset =
                    TensorSliceDataset.create(
                            tf.scope(), List.of(tf.constantOf(data)), List.of(Shape.scalar()));
            DatasetToTfRecord op =
                    DatasetToTfRecord.create(
                            tf.scope(),
                            dataset.handle(),
                            tf.constant(file.toString()),
                            tf.constant(c.tensorFlowName()));
            s.runner().addTarget(op).run();
        }
    }

    /**
     * The paths TensorFlow's {@code MatchingFiles} gives for glob {@code pattern}: what {@code
     * tf.io.gfile.glob} and {@code tf.data.Dataset.list_files} call, sorted.
     */
    public static List<String> matchingFiles(String pattern) {
        try (Graph g = new Graph();
                Session s = new Session(g)) {
            Ops tf = Ops.create(g);
            MatchingFiles op = MatchingFiles.create(tf.scope(), tf.constant(pattern));
            try (Result r = s.runner().fetch(op.filenames()).run()) {
                TString names = (TString) r.get(0);
                List<String> out = new ArrayList<>();
                names.scalars().forEach(n -> out.add(n.getObject()));
                out.sort(null);
                return out;
            }
        }
    }

    /** What TensorFlow's reader returned before it stopped, and the error that stopped it. */
    public record ReadResult(List<byte[]> records, RuntimeException error) {}

    /** Reads {@code file} with TensorFlow's {@code TFRecordReaderV2} until the end or an error. */
    public static ReadResult read(Path file, Compression c) {
        // a session run per record (1.1 s for 12 000 records) adds up over a long soak's hundreds
        // of shards, so whole batches first; a failing read loses its batch, so a file TensorFlow
        // cannot read whole is read again a record at a time for what came before the error
        ReadResult batched = read(file, c, BATCH);
        return batched.error() == null ? batched : read(file, c, 1);
    }

    /** Records a session run returns at most when the whole file is read. */
    static final int BATCH = 4096;

    static ReadResult read(Path file, Compression c, int batch) {
        List<byte[]> records = new ArrayList<>();
        try (Graph g = new Graph();
                Session s = new Session(g)) {
            Ops tf = Ops.create(g);
            FifoQueue queue = FifoQueue.create(tf.scope(), List.of(TString.class));
            QueueEnqueue enqueue =
                    QueueEnqueue.create(
                            tf.scope(), queue.handle(), List.of(tf.constant(file.toString())));
            QueueClose close = QueueClose.create(tf.scope(), queue.handle());
            TfRecordReader reader =
                    TfRecordReader.create(
                            tf.scope(), TfRecordReader.compressionType(c.tensorFlowName()));
            ReaderReadUpTo read =
                    ReaderReadUpTo.create(
                            tf.scope(),
                            reader.readerHandle(),
                            queue.handle(),
                            tf.constant((long) batch));
            s.runner().addTarget(enqueue).run();
            s.runner().addTarget(close).run();
            while (true) {
                try (Result r = s.runner().fetch(read.values()).run()) {
                    ((TString) r.get(0))
                            .asBytes()
                            .scalars()
                            .forEach(v -> records.add(v.getObject()));
                } catch (TFOutOfRangeException end) {
                    // "FIFOQueue ... is closed and has insufficient elements": every file read.
                    return new ReadResult(records, null);
                } catch (RuntimeException e) {
                    return new ReadResult(records, e);
                }
            }
        }
    }
}
