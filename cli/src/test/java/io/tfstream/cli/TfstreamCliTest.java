package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.UsageMessageSpec;

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
    void helpListsEveryExitCode() throws IllegalAccessException {
        String help = CliRun.of("--help").out();
        String codes = help.substring(help.indexOf("Exit codes:"));
        for (Field f : ExitCodes.class.getFields()) {
            int code = f.getInt(null);
            assertTrue(
                    Pattern.compile("(?m)^ +" + code + " +[A-Z].*\\.$").matcher(codes).find(),
                    f.getName() + " (" + code + ") is not listed:\n" + codes);
        }
    }

    /** The one-line summaries of the "Commands:" list of {@code tfstream --help}, by command. */
    private static Map<String, String> summaries() {
        String help = CliRun.of("--help").out();
        Map<String, String> summaries = new LinkedHashMap<>();
        Pattern entry = Pattern.compile("^  ([a-z-]+)\\s+(.*)$");
        String current = null;
        for (String line : help.substring(help.indexOf("Commands:")).split("\n")) {
            Matcher m = entry.matcher(line);
            if (m.matches()) {
                current = m.group(1);
                summaries.put(current, m.group(2).trim());
            } else if (current != null && line.startsWith("     ")) {
                summaries.merge(current, " " + line.trim(), String::concat);
            }
        }
        return summaries;
    }

    @Test
    void everyCommandHasAWholeSummary() {
        Map<String, String> summaries = summaries();
        Map<String, CommandLine> commands = TfstreamCli.newCommandLine().getSubcommands();
        assertEquals(commands.keySet(), summaries.keySet());
        for (Map.Entry<String, CommandLine> c : commands.entrySet()) {
            String summary = summaries.get(c.getKey());
            assertTrue(
                    summary.endsWith(".") && Character.isUpperCase(summary.charAt(0)),
                    c.getKey() + ": " + summary);
            // The list shows only the first header line: a summary split over lines is cut.
            UsageMessageSpec usage = c.getValue().getCommandSpec().usageMessage();
            String whole =
                    usage.header().length > 0
                            ? String.join(" ", usage.header())
                            : usage.description()[0];
            assertEquals(
                    whole.replaceAll("\\s", ""),
                    summary.replaceAll("\\s", ""),
                    c.getKey() + ": the list shows only part of its summary");
        }
    }
}
