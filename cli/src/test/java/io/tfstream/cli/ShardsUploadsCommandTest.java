package io.tfstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code tfstream shards uploads} on a file system, its clock and the files' times fixed: {@code
 * --abort} is refused without {@code --older-than} or {@code --job} (a live job's open shards), and
 * each of those keeps to what it names.
 */
class ShardsUploadsCommandTest {
    private static final Instant NOW = Instant.parse("2030-01-01T12:00:00Z");
    private static final String JOB = "94502147f587a2ad01c39b2fc177fc8b";
    private static final String OTHER = "0123456789abcdef0123456789abcdef";

    @TempDir Path dir;

    private Path inProgress(String job, Duration age) throws Exception {
        Path bucket = Files.createDirectories(dir.resolve("dt=2029-12-31/hour=15"));
        Path f =
                bucket.resolve(
                        ".part-"
                                + job
                                + "-7fef856c7e0ee56d-1-0.tfrecord.gz.inprogress."
                                + "4b4b0747-25c7-4112-8f46-0481c4e489a4");
        Files.write(f, new byte[] {1, 2, 3});
        Files.setLastModifiedTime(f, FileTime.from(NOW.minus(age)));
        return f;
    }

    private record Run(int code, String out, String err) {}

    private Run run(String... args) {
        ShardsUploadsCommand c = new ShardsUploadsCommand();
        c.clock = Clock.fixed(NOW, ZoneOffset.UTC);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(c);
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        cl.setParameterExceptionHandler(
                (ex, a) -> {
                    ex.getCommandLine().getErr().println(ex.getMessage());
                    return ExitCodes.USAGE;
                });
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void abortWithoutAnAgeOrAJobIsRefusedAndRemovesNothing() throws Exception {
        Path live = inProgress(JOB, Duration.ofMinutes(1));
        Run r = run(dir.toString(), "--abort");
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(r.err().contains("--abort needs --older-than DURATION"), r.err());
        assertTrue(Files.exists(live), "a live job's in-progress file is kept");
        Run listed = run(dir.toString());
        assertEquals(0, listed.code());
        assertTrue(listed.out().contains(": 1 in-progress files"), listed.out());
    }

    @Test
    void olderThanKeepsTheYoungerOnesAndJobKeepsTheOtherJobs() throws Exception {
        Path young = inProgress(JOB, Duration.ofHours(2));
        Path old = inProgress(OTHER, Duration.ofDays(8));
        Run aged = run(dir.toString(), "--older-than", "7 d", "--abort");
        assertEquals(0, aged.code(), aged.err());
        assertTrue(aged.out().contains("aborting 8d0h  job " + OTHER), aged.out());
        assertTrue(aged.out().contains(": 1 in-progress files, 1 aborted"), aged.out());
        assertTrue(Files.exists(young) && !Files.exists(old));

        Path other = inProgress(OTHER, Duration.ofHours(1));
        Run byJob = run(dir.toString(), "--job", OTHER, "--abort");
        assertEquals(0, byJob.code(), byJob.err());
        assertTrue(Files.exists(young) && !Files.exists(other), byJob.out());

        Run all = run(dir.toString(), "--older-than", "0s", "--abort");
        assertTrue(all.out().contains(": 1 in-progress files, 1 aborted"), all.out());
        assertTrue(!Files.exists(young));
    }

    @Test
    void aSnapshotThatCannotBeReadAbortsNothing() throws Exception {
        Path old = inProgress(OTHER, Duration.ofDays(8));
        Path empty = Files.createDirectories(dir.resolve("checkpoints"));
        Run none = abortAllBut("--checkpoints", empty.toString());
        assertEquals(ExitCodes.USAGE, none.code());
        assertTrue(none.err().contains("no completed checkpoint (chk-N/_metadata)"), none.err());
        Path broken = Files.createDirectories(empty.resolve(JOB).resolve("chk-3"));
        Files.write(broken.resolve("_metadata"), new byte[] {1, 2, 3});
        Run unreadable = abortAllBut("--checkpoints", empty.toString());
        assertEquals(ExitCodes.USAGE, unreadable.code());
        Run savepoint = abortAllBut("--keep-savepoint", dir.resolve("gone").toString());
        assertEquals(ExitCodes.USAGE, savepoint.code());
        assertTrue(savepoint.err().contains("--keep-savepoint"), savepoint.err());
        assertTrue(Files.exists(old), "nothing aborted on a snapshot not read");
    }

    /** {@code PATH --older-than 0s --abort} and a snapshot to spare. */
    private Run abortAllBut(String option, String snapshot) {
        return run(dir.toString(), "--older-than", "0s", "--abort", option, snapshot);
    }
}
