package io.tfstream.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code tfstream shards ...}: tools for a shard path as a whole. */
@Command(
        name = "shards",
        header = "Tools for a shard path: uploads lists and removes what no commit finished.",
        mixinStandardHelpOptions = true,
        subcommands = {ShardsUploadsCommand.class})
final class ShardsCommand implements Runnable {
    @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a subcommand: uploads");
    }
}
