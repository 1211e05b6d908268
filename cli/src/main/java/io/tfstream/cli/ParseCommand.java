package io.tfstream.cli;

import io.tfstream.parse.example.ExampleBatchParser;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.SpecRejectedException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code tfstream parse}: {@code tf.io.parse_example} over a TFRecord file of serialized Examples,
 * one JSON line per batch as docs/cli.md#batch-lines specifies.
 */
@Command(
        name = "parse",
        header =
                "Parses the Examples of a TFRecord file as tf.io.parse_example, one JSON line per batch.",
        mixinStandardHelpOptions = true,
        description = {
            "Parses serialized tf.train.Example records from a TFRecord file as"
                    + " tf.io.parse_example does and prints one JSON line per batch:",
            "  {\"batch\":N,\"features\":{NAME:VALUE,...}}  or",
            "  {\"batch\":N,\"error\":\"<TensorFlow's message>\",\"code\":\"INVALID_ARGUMENT\"}",
            "Exit 0 every batch parsed, 1 a batch printed an error, 2 usage or unreadable/corrupt"
                    + " input, 3 the schema or spec was rejected."
        })
final class ParseCommand implements Callable<Integer> {
    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Mixin private ParseInput input;

    @Override
    public Integer call() {
        return BatchParseRun.run(
                "parse",
                spec,
                input,
                parsed -> {
                    if (!(parsed instanceof FeatureSpecs specs)) {
                        throw new SpecRejectedException(
                                input.spec.path()
                                        + " describes SequenceExamples (context and feature"
                                        + " lists): use tfstream parse-seq");
                    }
                    ExampleBatchParser parser = ExampleBatchParser.create(specs);
                    return (b, records, json) ->
                            json.writeBatch(b, parser.parse(records).features());
                });
    }
}
