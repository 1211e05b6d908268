package io.tfstream.validation;

import java.util.List;
import java.util.Map;
import org.tensorflow.metadata.v0.DriftSkewInfo;

/**
 * The alert record of the validation job (docs/validation.md#alert-format): one per window ×
 * feature path × anomaly type. Written as JSON by {@link AlertJson}; {@link #alertId} is
 * deterministic ({@link Alerts#alertId}) so that sinks can be idempotent.
 *
 * @param featurePath serialized path, empty for dataset-level alerts
 * @param measurement comparator measurement (drift), else null
 * @param controlWindowStart start of the control window for drift, else -1
 */
public record Alert(
        String alertId,
        AlertScope scope,
        long windowStart,
        long windowEnd,
        long emittedAt,
        long watermark,
        String environment,
        String schemaFingerprint,
        String featurePath,
        List<String> featurePathSteps,
        String anomalyType,
        int anomalyTypeNumber,
        String severity,
        String shortDescription,
        String description,
        long numExamples,
        long numPresent,
        long numMissing,
        long numAffectedExamples,
        double affectedFraction,
        Map<String, Object> observed,
        Map<String, Object> expected,
        DriftSkewInfo.Measurement measurement,
        long controlWindowStart,
        List<SampleValue> sampleValues,
        List<ExampleRef> exampleRefs,
        long firstSeen,
        long lastSeen,
        long lateCount) {}
