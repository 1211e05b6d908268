package io.tfstream.validation;

import java.util.List;
import org.tensorflow.metadata.v0.AnomalyInfo;

/**
 * One TFDV anomaly reason ({@code AnomalyInfo.Reason}) with where it was found and the sample
 * values behind it.
 *
 * @param path the feature, or null for a dataset-level reason
 */
public record Finding(
        FeaturePath path,
        AnomalyInfo.Type type,
        String shortDescription,
        String description,
        List<SampleValue> samples) {
    public Finding {
        samples = List.copyOf(samples);
    }
}
