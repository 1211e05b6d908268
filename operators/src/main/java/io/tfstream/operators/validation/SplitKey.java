package io.tfstream.operators.validation;

import org.apache.flink.api.java.functions.KeySelector;

/** Keys {@link WindowPartial}s by their feature-path split. */
public final class SplitKey implements KeySelector<WindowPartial, Integer> {
    private static final long serialVersionUID = 1L;

    @Override
    public Integer getKey(WindowPartial p) {
        return p.split();
    }
}
