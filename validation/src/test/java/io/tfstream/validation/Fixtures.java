package io.tfstream.validation;

import io.tfstream.spec.schema.SchemaLoader;
import java.util.List;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.metadata.v0.AnomalyInfo;
import org.tensorflow.metadata.v0.Schema;

/** Schemas from text, Examples from (name, Feature) pairs, and validation in one call. */
final class Fixtures {
    private Fixtures() {}

    static Schema schema(String text) {
        try {
            return SchemaLoader.parseText(text);
        } catch (com.google.protobuf.TextFormat.ParseException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static ValidationSchema compiled(String text) {
        return ValidationSchema.build(schema(text), ValidationOptions.defaults());
    }

    static ValidationSchema compiled(String text, ValidationOptions options) {
        return ValidationSchema.build(schema(text), options);
    }

    /** {@code text} compiled keeping TFDV's statistics per window, as the job's defaults do. */
    static ValidationSchema compiledWithStatistics(String text) {
        return compiled(
                text,
                ValidationOptions.defaults()
                        .withStatistics(
                                io.tfstream.stats.StatsOptions.DEFAULTS.withSketchTopValues(true)));
    }

    static Example example(Object... pairs) {
        Features.Builder f = Features.newBuilder();
        for (int i = 0; i < pairs.length; i += 2) {
            f.putFeature((String) pairs[i], (Feature) pairs[i + 1]);
        }
        return Example.newBuilder().setFeatures(f).build();
    }

    static List<Finding> validate(ValidationSchema s, Example e) {
        byte[] b = e.toByteArray();
        RecordResult r = new RecordValidator(s).validateExample(b, 0, b.length, new RecordResult());
        if (r.status() != RecordResult.Status.OK) {
            throw new AssertionError("status " + r.status());
        }
        return r.findings(s);
    }

    /** The AnomalyInfo of one path among record findings. */
    static AnomalyInfo info(List<Finding> findings, String path) {
        List<Finding> mine =
                findings.stream()
                        .filter(f -> f.path() != null && f.path().serialized().equals(path))
                        .toList();
        if (mine.isEmpty()) {
            throw new AssertionError("no anomaly for " + path + " in " + findings);
        }
        return AnomaliesProtoBuilder.info(mine, SeverityPolicy.allErrors(), false);
    }

    static List<AnomalyInfo.Type> types(List<Finding> findings) {
        return findings.stream().map(Finding::type).toList();
    }
}
