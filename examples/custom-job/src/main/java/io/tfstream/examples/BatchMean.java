package io.tfstream.examples;

import io.tfstream.payload.EncodedTensorBatch;
import io.tfstream.tensor.Column;
import io.tfstream.tensor.DenseTensor;
import io.tfstream.tensor.Tensor;
import org.apache.flink.api.common.functions.MapFunction;

/** The mean of one dense numeric feature over the rows of a parsed batch. */
public final class BatchMean implements MapFunction<EncodedTensorBatch, BatchMean.Result> {
    private static final long serialVersionUID = 1L;

    private final String feature;

    public BatchMean(String feature) {
        this.feature = feature;
    }

    /** One batch's row count and the feature's mean over its values. */
    public record Result(long rows, double mean) {}

    @Override
    public Result map(EncodedTensorBatch batch) {
        Tensor t = batch.decode().get(feature);
        if (!(t instanceof DenseTensor dense)) {
            throw new IllegalArgumentException(feature + " is not a dense feature of the batch");
        }
        Column values = dense.values();
        double sum = 0;
        for (int i = 0; i < values.size(); i++) {
            sum +=
                    switch (values.dtype()) {
                        case FLOAT32 -> values.float32(i);
                        case INT64 -> values.int64(i);
                        default -> throw new IllegalArgumentException(feature + " is not numeric");
                    };
        }
        return new Result(batch.rows(), values.size() == 0 ? Double.NaN : sum / values.size());
    }
}
