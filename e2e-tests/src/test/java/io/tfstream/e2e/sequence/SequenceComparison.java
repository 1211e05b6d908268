package io.tfstream.e2e.sequence;

import io.tfstream.e2e.sequence.TfSequenceParseOracle.Outcome;
import io.tfstream.parse.ExampleParseException;
import io.tfstream.parse.RecordBatch;
import io.tfstream.parse.sequence.ParsedSequenceBatch;
import io.tfstream.parse.sequence.SequenceExampleBatchParser;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Runs one batch (or one single record) through TensorFlow and through {@link
 * SequenceExampleBatchParser} and describes the first difference, or returns null when outputs
 * (shapes, values bit for bit, indices, splits, lengths) or error texts are identical.
 */
final class SequenceComparison {
    private SequenceComparison() {}

    static String batch(
            TfSequenceParseOracle tf,
            SequenceExampleBatchParser ours,
            List<byte[]> records,
            List<String> names,
            Map<String, Integer> tally) {
        Outcome expected = tf.parse(records, names);
        count(tally, expected);
        RecordBatch b = new RecordBatch();
        for (int i = 0; i < records.size(); i++) {
            byte[] r = records.get(i);
            b.addNamed(r, 0, r.length, names == null ? null : names.get(i));
        }
        String diff;
        try {
            diff = compare(expected, ours.parse(b));
        } catch (ExampleParseException e) {
            diff = compareError(expected, e);
        }
        return diff == null ? null : diff + "\nrecords: " + hex(records);
    }

    static String single(
            TfSequenceParseOracle tf,
            SequenceExampleBatchParser ours,
            byte[] record,
            String name,
            Map<String, Integer> tally) {
        Outcome expected = tf.parseSingle(record, name);
        count(tally, expected);
        String diff;
        try {
            diff = compare(expected, ours.parseSingle(record, 0, record.length, name));
        } catch (ExampleParseException e) {
            diff = compareError(expected, e);
        }
        return diff == null ? null : "single: " + diff + "\nrecord: " + hex(List.of(record));
    }

    /** Counts outcomes by kind: "ok" or the error text with names and numbers blanked. */
    private static void count(Map<String, Integer> tally, Outcome o) {
        String k =
                o.error() == null
                        ? "ok"
                        : o.error()
                                .replaceAll("(Name: |example id: |in example )[^,. ]*", "$1*")
                                .replaceAll("[0-9]+", "#");
        tally.merge(k, 1, Integer::sum);
    }

    private static String compare(Outcome tf, ParsedSequenceBatch ours) {
        if (tf.error() != null) {
            return "TensorFlow failed with '" + tf.error() + "' but we returned " + ours;
        }
        if (!tf.context().equals(ours.context())) {
            return "context differs:\n TF: " + tf.context() + "\n us: " + ours.context();
        }
        if (!tf.featureLists().equals(ours.featureLists())) {
            return "feature lists differ:\n TF: "
                    + tf.featureLists()
                    + "\n us: "
                    + ours.featureLists();
        }
        if (!tf.lengths().equals(ours.featureListLengths())) {
            return "lengths differ:\n TF: " + tf.lengths() + "\n us: " + ours.featureListLengths();
        }
        return null;
    }

    private static String compareError(Outcome tf, ExampleParseException e) {
        if (tf.error() == null) {
            return "we failed with '"
                    + e.getMessage()
                    + "' but TensorFlow returned "
                    + tf.context()
                    + " "
                    + tf.featureLists();
        }
        if (!tf.error().equals(e.getMessage())) {
            return "error differs:\n TF: " + tf.error() + "\n us: " + e.getMessage();
        }
        return null;
    }

    private static String hex(List<byte[]> records) {
        StringBuilder sb = new StringBuilder();
        for (byte[] r : records) {
            sb.append(HexFormat.of().formatHex(r)).append(' ');
        }
        return sb.length() > 4000 ? sb.substring(0, 4000) + "..." : sb.toString();
    }
}
