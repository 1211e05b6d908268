package io.tfstream.validation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tensorflow.metadata.v0.Anomalies;
import org.tensorflow.metadata.v0.AnomalyInfo;
import org.tensorflow.metadata.v0.DriftSkewInfo;

/**
 * Builds TFDV's {@code Anomalies} proto from findings, as {@code validate_statistics} returns it:
 * reasons grouped by serialized path into {@code anomaly_info} (reasons in check order; if all are
 * {@code SCHEMA_NEW_COLUMN} only the first is kept; several reasons give the short description
 * {@code Multiple errors} and the descriptions joined by a space, {@code
 * schema_anomalies.cc::UnifyDescriptions}), dataset reasons in {@code dataset_anomaly_info}, the
 * schema as {@code baseline}.
 */
public final class AnomaliesProtoBuilder {
    private AnomaliesProtoBuilder() {}

    /**
     * @param findings record or window findings (dataset-level ones have a null path)
     * @param drift drift measurements, may be empty
     * @param severity severity per anomaly type after overrides
     * @param dataMissing the window had no examples (TFDV then reports nothing else)
     */
    public static Anomalies build(
            ValidationSchema schema,
            List<Finding> findings,
            List<DriftSkewInfo> drift,
            SeverityPolicy severity,
            boolean dataMissing) {
        Anomalies.Builder b = Anomalies.newBuilder().setBaseline(schema.schema());
        if (dataMissing) {
            b.setDataMissing(true);
        } else {
            b.setAnomalyNameFormat(Anomalies.AnomalyNameFormat.SERIALIZED_PATH);
        }
        Map<String, List<Finding>> byPath = new TreeMap<>();
        List<Finding> dataset = new ArrayList<>();
        for (Finding f : findings) {
            if (f.path() == null) {
                dataset.add(f);
            } else {
                byPath.computeIfAbsent(f.path().serialized(), k -> new ArrayList<>()).add(f);
            }
        }
        for (Map.Entry<String, List<Finding>> e : byPath.entrySet()) {
            b.putAnomalyInfo(e.getKey(), info(e.getValue(), severity, false));
        }
        if (!dataset.isEmpty()) {
            b.setDatasetAnomalyInfo(info(dataset, severity, true));
        }
        b.addAllDriftSkewInfo(drift);
        return b.build();
    }

    /**
     * {@code a}, or {@code a} without its {@code baseline} (the schema, often most of the message)
     * when it would serialize to more than {@code maxBytes}: a large schema must not make every
     * window's message too big for its topic.
     */
    public static Anomalies fit(Anomalies a, int maxBytes) {
        return a.getSerializedSize() <= maxBytes ? a : a.toBuilder().clearBaseline().build();
    }

    /** The {@code AnomalyInfo} of one path (or the dataset) from its reasons, in check order. */
    public static AnomalyInfo info(
            List<Finding> reasons, SeverityPolicy severity, boolean dataset) {
        List<Finding> kept = reasons;
        if (reasons.stream().allMatch(f -> f.type() == AnomalyInfo.Type.SCHEMA_NEW_COLUMN)) {
            kept = reasons.subList(0, 1);
        }
        AnomalyInfo.Builder b = AnomalyInfo.newBuilder();
        Finding first = kept.get(0);
        if (first.path() != null) {
            b.setPath(first.path().toProto());
        }
        AnomalyInfo.Severity max = AnomalyInfo.Severity.UNKNOWN;
        List<String> descriptions = new ArrayList<>();
        for (Finding f : kept) {
            b.addReason(
                    AnomalyInfo.Reason.newBuilder()
                            .setType(f.type())
                            .setShortDescription(f.shortDescription())
                            .setDescription(f.description()));
            AnomalyInfo.Severity s =
                    dataset ? AnomalyInfo.Severity.ERROR : severity.severity(f.type());
            if (s.getNumber() > max.getNumber()) {
                max = s;
            }
            descriptions.add(f.description());
        }
        b.setSeverity(max);
        if (kept.size() == 1) {
            b.setShortDescription(first.shortDescription()).setDescription(first.description());
        } else {
            b.setShortDescription("Multiple errors").setDescription(String.join(" ", descriptions));
        }
        return b.build();
    }

    /** Findings grouped by serialized path, in order of first appearance. */
    public static Map<String, List<Finding>> byPath(List<Finding> findings) {
        Map<String, List<Finding>> out = new LinkedHashMap<>();
        for (Finding f : findings) {
            String key = f.path() == null ? "" : f.path().serialized();
            out.computeIfAbsent(key, k -> new ArrayList<>()).add(f);
        }
        return out;
    }
}
