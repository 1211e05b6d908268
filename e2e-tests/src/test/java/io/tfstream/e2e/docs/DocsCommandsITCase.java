package io.tfstream.e2e.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command block of README.md and docs/*.md marked runnable, run as written: a line {@code
 * <!-- runnable -->} (or {@code <!-- runnable exit=N -->} when the block's last command reports bad
 * data on purpose) right before a {@code bash} or {@code sh} fence. The blocks of one file run in
 * order with {@code bash -e -o pipefail} in a directory of their own holding a finished {@code
 * tfstream-local/} (the sample with 2% broken records, as getting-started.md runs it) and {@code
 * bin/tfstream}, the packaged CLI jar (with {@code --rest-port 0} added to {@code local}, so that
 * the test never contends for port 8081), so that an example that stops working fails the build.
 */
class DocsCommandsITCase {
    private static final Pattern MARK = Pattern.compile("<!-- runnable(?: exit=(\\d+))? -->");
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

    @TempDir static Path work;
    private static Path seeded;

    private record Block(String file, int line, String text, int exit) {}

    @BeforeAll
    static void seedALocalRun() throws Exception {
        seeded = Files.createDirectories(work.resolve("seed"));
        writeBin(seeded);
        Result r = run(seeded, "bin/tfstream local --corrupt-fraction 0.02");
        assertEquals(0, r.exit(), r.output());
    }

    @TestFactory
    Stream<DynamicTest> everyRunnableBlock() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<DynamicTest> tests = new ArrayList<>();
        int marked = 0;
        for (Path f : files) {
            List<Block> blocks = blocks(f);
            marked += blocks.size();
            if (blocks.isEmpty()) {
                continue;
            }
            String name = ROOT.relativize(f).toString();
            tests.add(DynamicTest.dynamicTest(name, () -> runAll(name, blocks)));
        }
        assertTrue(marked >= 5, "runnable blocks found: " + marked);
        return tests.stream();
    }

    /** The marked blocks of {@code file}, in order. */
    static List<Block> blocks(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<Block> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = MARK.matcher(lines.get(i).trim());
            if (!m.matches()) {
                continue;
            }
            int fence = i + 1;
            String open = fence < lines.size() ? lines.get(fence).trim() : "";
            if (!open.equals("```bash") && !open.equals("```sh")) {
                throw new AssertionError(
                        file + ":" + (i + 1) + ": a runnable mark must precede a bash block");
            }
            StringBuilder text = new StringBuilder();
            int j = fence + 1;
            while (j < lines.size() && !lines.get(j).trim().equals("```")) {
                text.append(lines.get(j)).append('\n');
                j++;
            }
            out.add(
                    new Block(
                            file.getFileName().toString(),
                            fence + 1,
                            text.toString(),
                            m.group(1) == null ? 0 : Integer.parseInt(m.group(1))));
            i = j;
        }
        return out;
    }

    private static void runAll(String name, List<Block> blocks) throws Exception {
        Path dir = Files.createDirectories(work.resolve(name.replace('/', '_')));
        copyTree(seeded.resolve("tfstream-local"), dir.resolve("tfstream-local"));
        writeBin(dir);
        for (Block b : blocks) {
            Result r = run(dir, b.text());
            assertEquals(
                    b.exit(),
                    r.exit(),
                    name
                            + ":"
                            + b.line()
                            + " exits "
                            + r.exit()
                            + ":\n"
                            + b.text()
                            + "\n"
                            + r.output());
        }
    }

    private record Result(int exit, String output) {}

    private static Result run(Path dir, String script) throws Exception {
        Path log = Files.createTempFile(work, "block", ".log");
        ProcessBuilder pb =
                new ProcessBuilder("bash", "-e", "-o", "pipefail", "-c", script)
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile());
        pb.environment().put("PYTHONPATH", ROOT.resolve("python").toString());
        Process p = pb.start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("still running after 5 minutes:\n" + script);
        }
        return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    /** {@code dir/bin/tfstream}: the packaged CLI jar, as bin/tfstream runs it. */
    private static void writeBin(Path dir) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin")).resolve("tfstream");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String flags = System.getProperty("tfstream.jvm.flags").trim();
        String jar = System.getProperty("tfstream.cli.jar");
        Files.writeString(
                bin,
                "#!/usr/bin/env bash\n"
                        + "if [ \"${1:-}\" = local ]; then shift; set -- local --rest-port 0 \"$@\"; fi\n"
                        + "exec '"
                        + java
                        + "' "
                        + flags
                        + " -Xmx1g -jar '"
                        + jar
                        + "' \"$@\"\n");
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }
}
