package io.tfstream.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One CLI invocation with stdout and stderr captured. */
public record CliRun(int exitCode, String out, String err) {
    public static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = TfstreamCli.run(new PrintWriter(out), new PrintWriter(err), args);
        return new CliRun(code, out.toString(), err.toString());
    }

    public String[] outLines() {
        return out.isEmpty() ? new String[0] : out.split("\n", -1);
    }
}
