package io.tfstream.validation;

import org.apache.flink.annotation.PublicEvolving;
import org.tensorflow.metadata.v0.AnomalyInfo;

/**
 * A problem of the schema itself (tier S, docs/validation.md#validation-tiers), found once when a
 * {@link ValidationSchema} is built, with the anomaly type and text of TFDV's {@code
 * Schema::UpdateFeatureSelf}. Where TFDV gives only one text, it is both the short description and
 * the description.
 *
 * @param path the feature, sparse or weighted feature concerned
 */
@PublicEvolving
public record LintFinding(
        FeaturePath path, AnomalyInfo.Type type, String shortDescription, String description) {}
