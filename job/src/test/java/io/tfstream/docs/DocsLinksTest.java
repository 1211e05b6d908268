package io.tfstream.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repository's documentation stands alone: every relative link and {@code #anchor} in
 * README.md, docs/*.md, BENCHMARKS.md, FUZZING.md, e2e-tests/RESULTS.md and deploy/**&#47;README.md
 * resolves (anchors as GitHub derives them from headings), every {@code docs/<page>.md#<section>}
 * that a source file cites exists, and no tracked file points outside the repository. The working
 * directory is the job module; the repository root is its parent.
 */
class DocsLinksTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** A folder beside the repository that once held reference texts; built so as not to match. */
    private static final String OUTSIDE = ".." + "/" + "shared";

    private static final Pattern FENCE = Pattern.compile("^\\s{0,3}(```|~~~)");
    private static final Pattern HEADING = Pattern.compile("^\\s{0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");
    private static final Pattern INLINE_LINK =
            Pattern.compile("\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE_LINK =
            Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*(\\S+)");
    private static final Pattern LINK_TEXT = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");
    private static final Pattern NOT_SLUG = Pattern.compile("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]");
    private static final Pattern CITATION =
            Pattern.compile("(?<![A-Za-z0-9_./-])docs/[a-z-]+\\.md(#[a-z0-9-_]+)?");

    @Test
    void everyRelativeLinkAndAnchorInTheDocsResolves() throws IOException {
        List<Path> files = markdownFiles(ROOT);
        assertTrue(
                files.contains(ROOT.resolve("README.md"))
                        && files.contains(ROOT.resolve("docs/streaming-job.md"))
                        && files.size() >= 9,
                "the Markdown files to check were not found under " + ROOT + ": " + files);
        List<String> problems = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        for (Path f : files) {
            problems.addAll(brokenLinks(ROOT, f, anchors));
        }
        assertTrue(problems.isEmpty(), "broken links:\n" + String.join("\n", problems));
    }

    @Test
    void everyDocsCitationInTheSourcesResolves() throws IOException {
        List<String> problems = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        int cited = 0;
        for (Path f : trackedFiles(ROOT)) {
            String name = f.getFileName().toString();
            if (name.endsWith(".md") || !Files.isRegularFile(f)) {
                continue; // Markdown links are checked as links
            }
            String text = textOf(f);
            if (text == null) {
                continue;
            }
            List<String> found =
                    brokenCitations(ROOT, ROOT.relativize(f).toString(), text, anchors);
            problems.addAll(found);
            cited += citations(text);
        }
        assertTrue(
                cited > 0, "no source file cites docs/<page>.md: is the scan looking at " + ROOT);
        assertTrue(problems.isEmpty(), "broken citations:\n" + String.join("\n", problems));
    }

    @Test
    void noTrackedFileRefersToTextsOutsideTheRepository() throws IOException {
        List<String> offenders = new ArrayList<>();
        for (Path f : trackedFiles(ROOT)) {
            if (!Files.isRegularFile(f)) {
                continue;
            }
            String text = textOf(f);
            if (text != null && text.contains(OUTSIDE)) {
                offenders.add(ROOT.relativize(f).toString());
            }
        }
        assertTrue(offenders.isEmpty(), "files referring to " + OUTSIDE + ": " + offenders);
    }

    @Test
    void slugsAreGitHubs() {
        List<String> slugs = new ArrayList<>();
        for (String h :
                List.of(
                        "What `tfstream local` leaves on disk",
                        "Running `bin/tfstream`",
                        "`_SUCCESS` markers",
                        "SPEC.json",
                        "Results: JMH (run 2026-11-23 02:23–02:37 UTC, load average 2.7)",
                        "Metrics",
                        "Metrics",
                        "A [linked](other.md) heading")) {
            slugs.add(slug(h));
        }
        assertEquals(
                List.of(
                        "what-tfstream-local-leaves-on-disk",
                        "running-bintfstream",
                        "_success-markers",
                        "specjson",
                        "results-jmh-run-2026-11-23-02230237-utc-load-average-27",
                        "metrics",
                        "metrics",
                        "a-linked-heading"),
                slugs);
        Set<String> anchors =
                anchorsOf(
                        List.of(
                                "# Title",
                                "## Metrics",
                                "```",
                                "# not a heading",
                                "```",
                                "## Metrics"));
        assertEquals(Set.of("title", "metrics", "metrics-1"), anchors);
    }

    @Test
    void aBrokenLinkOrAnchorIsReported(@TempDir Path dir) throws IOException {
        // Paths are spelled so that this file's own citations (scanned above) do not match.
        Files.createDirectories(dir.resolve("docs"));
        Files.writeString(
                dir.resolve("docs").resolve("guide.md"),
                String.join(
                        "\n",
                        "# Guide",
                        "## First part",
                        "## First part",
                        "[ok](#first-part) [ok too](#first-part-1) [ok file](../README.md)",
                        "[missing anchor](#second-part) [missing file](nowhere.md)",
                        "[bad anchor elsewhere](../README.md#nope) [web](https://example.org/x.md)",
                        "`[not a link](nowhere-either.md)`",
                        "```",
                        "[in a code block](nowhere-at-all.md)",
                        "```"));
        Files.writeString(
                dir.resolve("README.md"), "# Read me\n[guide](docs" + "/guide.md#guide)\n");
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> guide = brokenLinks(dir, dir.resolve("docs").resolve("guide.md"), anchors);
        assertEquals(3, guide.size(), guide.toString());
        assertTrue(guide.get(0).contains("#second-part"), guide.toString());
        assertTrue(guide.get(1).contains("nowhere.md"), guide.toString());
        assertTrue(guide.get(2).contains("../README.md#nope"), guide.toString());
        assertEquals(List.of(), brokenLinks(dir, dir.resolve("README.md"), anchors));

        String source =
                "/** See docs/"
                        + "guide.md#first-part, docs/"
                        + "guide.md#gone and docs/"
                        + "other.md. */";
        List<String> citations = brokenCitations(dir, "A.java", source, anchors);
        assertEquals(2, citations.size(), citations.toString());
        assertTrue(citations.get(0).contains("#gone"), citations.toString());
        assertTrue(citations.get(1).contains("other.md"), citations.toString());
        assertTrue(citations.get(0).startsWith("A.java:1: "), citations.toString());
    }

    @Test
    void withoutGitTheTreeIsWalkedWithoutBuildOutput(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("m/target"));
        Files.createDirectories(dir.resolve("m/src"));
        Files.writeString(dir.resolve("m/target/Built.java"), "built");
        Files.writeString(dir.resolve("m/src/A.java"), "source");
        Files.writeString(dir.resolve(".git"), "gitdir: elsewhere");
        assertEquals(List.of(dir.resolve("m/src/A.java")), walkedFiles(dir));
    }

    /** The Markdown files whose links must resolve. */
    static List<Path> markdownFiles(Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        for (String f :
                List.of("README.md", "BENCHMARKS.md", "FUZZING.md", "e2e-tests/RESULTS.md")) {
            if (Files.isRegularFile(root.resolve(f))) {
                files.add(root.resolve(f));
            }
        }
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        try (Stream<Path> deploy = Files.walk(root.resolve("deploy"))) {
            deploy.filter(p -> p.getFileName().toString().equals("README.md"))
                    .filter(p -> !p.toString().contains("/target/"))
                    .sorted()
                    .forEach(files::add);
        }
        return files;
    }

    /** Problems with the relative links of Markdown file {@code md}, one line each. */
    static List<String> brokenLinks(Path root, Path md, Map<Path, Set<String>> anchors)
            throws IOException {
        List<String> problems = new ArrayList<>();
        List<String> lines = Files.readAllLines(md, StandardCharsets.UTF_8);
        boolean fenced = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (FENCE.matcher(line).find()) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            String text = CODE_SPAN.matcher(line).replaceAll("");
            List<String> targets = new ArrayList<>();
            Matcher m = INLINE_LINK.matcher(text);
            while (m.find()) {
                targets.add(m.group(1));
            }
            Matcher r = REFERENCE_LINK.matcher(text);
            if (r.find()) {
                targets.add(r.group(1));
            }
            for (String target : targets) {
                String problem = check(md, target, anchors);
                if (problem != null) {
                    problems.add(
                            root.relativize(md) + ":" + (i + 1) + ": " + target + ": " + problem);
                }
            }
        }
        return problems;
    }

    /** Why {@code target}, linked from {@code from}, does not resolve; null when it does. */
    private static String check(Path from, String target, Map<Path, Set<String>> anchors)
            throws IOException {
        if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
            return null; // https:, mailto:, ...: not ours to check
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path file = path.isEmpty() ? from : from.getParent().resolve(path).normalize();
        if (!Files.exists(file)) {
            return "no such file " + file;
        }
        if (anchor == null || anchor.isEmpty() || !file.toString().endsWith(".md")) {
            return null;
        }
        Set<String> known = anchors.get(file);
        if (known == null) {
            known = anchorsOf(Files.readAllLines(file, StandardCharsets.UTF_8));
            anchors.put(file, known);
        }
        return known.contains(anchor) ? null : "no heading with anchor #" + anchor + " in " + file;
    }

    /** Problems with the {@code docs/<page>.md[#section]} citations in {@code text}. */
    static List<String> brokenCitations(
            Path root, String name, String text, Map<Path, Set<String>> anchors)
            throws IOException {
        List<String> problems = new ArrayList<>();
        Matcher m = CITATION.matcher(text);
        Path anchorFile = root.resolve("citing-file");
        while (m.find()) {
            String problem = check(anchorFile, m.group(), anchors);
            if (problem != null) {
                int line =
                        1
                                + (int)
                                        text.substring(0, m.start())
                                                .chars()
                                                .filter(c -> c == '\n')
                                                .count();
                problems.add(name + ":" + line + ": " + m.group() + ": " + problem);
            }
        }
        return problems;
    }

    private static int citations(String text) {
        int n = 0;
        Matcher m = CITATION.matcher(text);
        while (m.find()) {
            n++;
        }
        return n;
    }

    /** The anchors of a Markdown file's headings, with GitHub's -1, -2 for repeated ones. */
    static Set<String> anchorsOf(List<String> lines) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : lines) {
            if (FENCE.matcher(line).find()) {
                fenced = !fenced;
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (fenced || !h.matches()) {
                continue;
            }
            String s = slug(h.group(2));
            int n = seen.merge(s, 1, Integer::sum) - 1;
            anchors.add(n == 0 ? s : s + "-" + n);
        }
        return anchors;
    }

    /** GitHub's anchor of a heading: link text kept, lowercase, punctuation dropped, space → -. */
    static String slug(String heading) {
        String text = LINK_TEXT.matcher(heading).replaceAll("$1");
        return NOT_SLUG.matcher(text.toLowerCase(java.util.Locale.ROOT))
                .replaceAll("")
                .replace(' ', '-');
    }

    /**
     * The repository's tracked files (git ls-files), or without git every file but build output.
     */
    static List<Path> trackedFiles(Path root) throws IOException {
        List<Path> files = gitLsFiles(root);
        return files != null ? files : walkedFiles(root);
    }

    /** Every file under {@code root} but build output, git's metadata and local cluster state. */
    static List<Path> walkedFiles(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(Files::isRegularFile)
                    .filter(p -> !excluded(root.relativize(p)))
                    .sorted()
                    .toList();
        }
    }

    private static boolean excluded(Path relative) {
        for (Path part : relative) {
            String s = part.toString();
            if (s.equals("target")
                    || s.equals(".git")
                    || s.equals(".state")
                    || s.equals(".cache")) {
                return true;
            }
        }
        return false;
    }

    private static List<Path> gitLsFiles(Path root) {
        try {
            Process p =
                    new ProcessBuilder("git", "ls-files", "-z")
                            .directory(root.toFile())
                            .redirectError(ProcessBuilder.Redirect.DISCARD)
                            .start();
            byte[] out;
            try (InputStream in = p.getInputStream()) {
                out = in.readAllBytes();
            }
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0 || out.length == 0) {
                p.destroy();
                return null;
            }
            List<Path> files = new ArrayList<>();
            for (String name : new String(out, StandardCharsets.UTF_8).split("\0")) {
                if (!name.isEmpty()) {
                    files.add(root.resolve(name));
                }
            }
            return files;
        } catch (IOException e) {
            return null; // no git here: walk the tree instead
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The file as UTF-8 text, or null for a binary file (a NUL byte in its first 8 KiB). */
    private static String textOf(Path f) throws IOException {
        byte[] bytes = Files.readAllBytes(f);
        for (int i = 0; i < Math.min(bytes.length, 8192); i++) {
            if (bytes[i] == 0) {
                return null;
            }
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
