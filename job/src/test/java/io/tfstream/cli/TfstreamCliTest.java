package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class TfstreamCliTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return TfstreamCli.run(new PrintWriter(out), new PrintWriter(err), args);
    }

    @Test
    void helpListsTheSubcommandsOnStdout() {
        assertEquals(ExitCodes.OK, run("--help"));
        String help = out.toString();
        assertTrue(help.contains("Usage: tfstream"), help);
        assertTrue(help.contains("Commands:"), help);
        assertTrue(help.contains("help"), help);
    }

    @Test
    void versionIsPrinted() {
        assertEquals(ExitCodes.OK, run("--version"));
        assertTrue(out.toString().startsWith("tfstream "), out.toString());
    }

    @Test
    void unknownCommandIsAUsageErrorOnStderr() {
        assertEquals(ExitCodes.USAGE, run("no-such-command"));
        assertEquals("", out.toString());
        assertTrue(err.toString().contains("tfstream: Unmatched argument"), err.toString());
    }

    @Test
    void noCommandIsAUsageError() {
        assertEquals(ExitCodes.USAGE, run());
        assertTrue(err.toString().contains("Missing subcommand"), err.toString());
    }

    @Test
    void everyCommandHasAWholeSummary() {
        String out = CliRun.of("--help").out();
        java.util.Map<String, String> summaries = new java.util.LinkedHashMap<>();
        String current = null;
        for (String line : out.substring(out.indexOf("Commands:")).split("\n")) {
            java.util.regex.Matcher m =
                    java.util.regex.Pattern.compile("^  ([a-z-]+)\\s+(.*)$").matcher(line);
            if (m.matches()) {
                current = m.group(1);
                summaries.put(current, m.group(2).trim());
            } else if (current != null && line.startsWith("     ")) {
                summaries.merge(current, " " + line.trim(), String::concat);
            }
        }
        for (String c : java.util.List.of("spec", "parse", "parse-seq", "verify", "index", "run")) {
            String summary = summaries.get(c);
            assertTrue(summary != null && summary.endsWith("."), c + ": " + summary);
        }
    }
}
