package io.tfstream.operators.validation;

import io.tfstream.api.model.ValidationOutput;
import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;

/**
 * The keyed operator of {@link WindowAlertFunction}: Flink's {@link KeyedProcessOperator} that also
 * writes the function's live windows to keyed state before each checkpoint barrier, the one point
 * where keyed state must be current and no element is being processed (Flink's own mini-batch
 * operators flush their bundles there for the same reason).
 */
@Internal
public final class WindowAlertOperator
        extends KeyedProcessOperator<Integer, WindowPartial, ValidationOutput> {
    private static final long serialVersionUID = 1L;

    public WindowAlertOperator(WindowAlertFunction function) {
        super(function);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        Object key = getCurrentKey();
        ((WindowAlertFunction) userFunction).flush(this::setCurrentKey);
        if (key != null) {
            setCurrentKey(key);
        }
    }
}
