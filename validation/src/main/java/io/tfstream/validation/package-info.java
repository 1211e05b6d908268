/**
 * Real-time validation of {@code tf.train.Example} / {@code SequenceExample} records against a TFMD
 * schema with TFDV's anomaly types and texts, without Flink.
 *
 * <p>Entry points (tiers: docs/validation.md#validation-tiers): {@link
 * io.tfstream.validation.ValidationSchema#build} (tier S lint, once), {@link
 * io.tfstream.validation.RecordValidator} (tier R, per record, from wire bytes, into a reused
 * {@link io.tfstream.validation.RecordResult}), {@link io.tfstream.validation.WindowAccumulator}
 * (mergeable window state, {@link io.tfstream.validation.WindowAccumulatorSerializer}), {@link
 * io.tfstream.validation.WindowEvaluator} (tier W), {@link io.tfstream.validation.DriftEvaluator}
 * (tier C), {@link io.tfstream.validation.Alerts} / {@link io.tfstream.validation.AlertJson} and
 * {@link io.tfstream.validation.AnomaliesProtoBuilder}.
 *
 * <p>Where TFDV's behaviour hurts a stream, tfstream does what a stream needs
 * (docs/validation.md#where-tfstream-differs-from-tfdv): (1) per record, only {@code min_fraction:
 * 1} or a {@code shape} make an absent feature {@code SCHEMA_MISSING_COLUMN} ({@code
 * ValidationOptions.tfdvRecordPresence} restores TFDV); (2) a feature without a kind counts as
 * absent; (3) every value is checked against a string domain, not the top 1000; (4) ranges are
 * taken over actual values (an empty or NaN-only list has none), bool domains check ints and floats
 * against {0, 1} directly; (5) unique constraints are window-only, unset bounds unbounded; (6)
 * {@code max_examples_count} is checked without {@code min_examples_count}, an empty window reports
 * 0 examples; (7) drift compares with the previous window and is skipped below {@code
 * minDriftExamples}; (8) a feature of mixed types is {@code UNEXPECTED_DATA_TYPE} per record.
 */
package io.tfstream.validation;
