package io.tfstream.e2e.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.composite.RaggedComposition;
import io.tfstream.spec.DType;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.RaggedTensor;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tensorflow.EagerSession;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.ndarray.buffer.DataBuffers;
import org.tensorflow.op.Ops;
import org.tensorflow.op.math.Bincount;
import org.tensorflow.types.TInt32;

/**
 * {@code RaggedTensor.from_value_rowids} without {@code nrows} counts rows with TensorFlow's {@code
 * Bincount} op ({@code nrows = ids[-1] + 1}, {@code minlength = maxlength = nrows}): ids past the
 * last row are dropped and negative ids fail. Both checked here against the real op.
 */
class ValueRowIdsBincountTest {
    private static final RaggedFeature SPEC =
            new RaggedFeature(
                    DType.INT64,
                    "v",
                    List.of(new Partition.ValueRowIds("ids")),
                    RowSplitsDType.INT64);

    private static int[] tfBincount(int[] ids, int size) {
        try (EagerSession s = EagerSession.create();
                TInt32 arr =
                        TInt32.tensorOf(Shape.of(ids.length), DataBuffers.of(ids, true, false));
                TInt32 w = TInt32.tensorOf(Shape.of(0))) {
            Ops tf = Ops.create(s);
            Bincount<TInt32> b =
                    tf.math.bincount(tf.constantOf(arr), tf.constant(size), tf.constantOf(w));
            int[] out = new int[(int) b.bins().shape().size()];
            b.bins().asTensor().copyTo(DataBuffers.of(out, false, false));
            return out;
        }
    }

    private static long[] ourSplits(long... ids) throws ExampleParseException {
        DenseTensor values =
                new DenseTensor(new long[] {ids.length}, Column.int64s(new long[ids.length]));
        RaggedTensor r =
                (RaggedTensor)
                        RaggedComposition.compose(
                                "f",
                                SPEC,
                                values,
                                k -> new DenseTensor(new long[] {ids.length}, Column.int64s(ids)));
        return r.rowSplits().get(0);
    }

    @Test
    void idsPastTheLastRowAreDropped() throws Exception {
        int[] bins = tfBincount(new int[] {0, 5, 1}, 2);
        long[] splits = new long[bins.length + 1];
        for (int i = 0; i < bins.length; i++) {
            splits[i + 1] = splits[i] + bins[i];
        }
        assertEquals(Arrays.toString(splits), Arrays.toString(ourSplits(0, 5, 1)));
    }

    @Test
    void negativeIdsFailAsBincountDoes() {
        String tf =
                assertThrows(RuntimeException.class, () -> tfBincount(new int[] {0, -1, 1}, 2))
                        .getMessage();
        String ours =
                assertThrows(ExampleParseException.class, () -> ourSplits(0, -1, 1)).getMessage();
        assertEquals(TfParseOracle.statusMessage(tf), ours);
    }
}
