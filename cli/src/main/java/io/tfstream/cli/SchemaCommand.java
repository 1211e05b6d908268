package io.tfstream.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code tfstream schema <subcommand>}: tools for TFMD schemas and feature specs. */
@Command(
        name = "schema",
        header = "Tools for TFMD schemas and feature specs (schema diff, schema infer).",
        mixinStandardHelpOptions = true,
        subcommands = {SchemaDiffCommand.class, SchemaInferCommand.class})
final class SchemaCommand implements Callable<Integer> {

    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }
}
