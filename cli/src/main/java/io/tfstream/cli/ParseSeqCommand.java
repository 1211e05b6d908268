package io.tfstream.cli;

import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.sequence.ParsedSequenceBatch;
import io.tfstream.parse.sequence.SequenceExampleBatchParser;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.SpecRejectedException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code tfstream parse-seq}: {@code tf.io.parse_sequence_example} over a TFRecord file of
 * serialized SequenceExamples, one JSON line per batch as docs/cli.md#batch-lines specifies.
 */
@Command(
        name = "parse-seq",
        header = "Parses the SequenceExamples of a TFRecord file as tf.io.parse_sequence_example.",
        mixinStandardHelpOptions = true,
        description = {
            "Parses serialized tf.train.SequenceExample records from a TFRecord file as"
                    + " tf.io.parse_sequence_example does and prints one JSON line per batch:",
            "  {\"batch\":N,\"context\":{..},\"feature_lists\":{..},\"feature_list_lengths\":{..}}"
                    + "  or",
            "  {\"batch\":N,\"error\":\"<TensorFlow's message>\",\"code\":\"INVALID_ARGUMENT\"}",
            "The spec is a schema with a ##SEQUENCE## STRUCT or a SEQSPEC.json. Exit codes as for"
                    + " parse."
        })
final class ParseSeqCommand implements Callable<Integer> {
    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Mixin private ParseInput input;

    @Override
    public Integer call() {
        return BatchParseRun.run(
                "parse-seq",
                spec,
                input,
                parsed -> {
                    if (!(parsed instanceof SequenceFeatureSpecs specs)) {
                        throw new SpecRejectedException(
                                input.spec.path()
                                        + " describes Examples, not SequenceExamples: use tfstream"
                                        + " parse");
                    }
                    SequenceExampleBatchParser parser =
                            SequenceExampleBatchParser.create(specs, ParseLimits.defaults());
                    return (b, records, json) -> {
                        ParsedSequenceBatch p = parser.parse(records);
                        json.writeSequenceBatch(
                                b, p.context(), p.featureLists(), p.featureListLengths());
                    };
                });
    }
}
