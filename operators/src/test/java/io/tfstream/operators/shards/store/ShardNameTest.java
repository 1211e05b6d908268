package io.tfstream.operators.shards.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ShardNameTest {
    private static final String JOB = "0123456789abcdef0123456789abcdef";
    private static final String RUN = "00c0ffee12345678";
    private static final String[] PREFIXES = {"part", "a-b", "x-0-1", "shard-" + JOB};
    private static final String[] SUFFIXES = {"", ".tfrecord", ".tfrecord.gz", ".tfrecord.zz"};

    @Test
    void parseInvertsFormatForRandomNames() {
        Random random = new Random(28);
        for (int i = 0; i < 20_000; i++) {
            String prefix = PREFIXES[random.nextInt(PREFIXES.length)];
            String suffix = SUFFIXES[random.nextInt(SUFFIXES.length)];
            ShardName name =
                    new ShardName(
                            prefix,
                            hex(random, 32),
                            random.nextBoolean()
                                    ? hex(random, 16)
                                    : Long.toString(number(random, Long.MAX_VALUE / 1000)),
                            (int) number(random, Integer.MAX_VALUE),
                            number(random, Long.MAX_VALUE / 1000),
                            suffix);
            String file = name.format();
            assertEquals(Optional.of(name), ShardName.parse(file, prefix, suffix), file);
            assertEquals(Optional.of(name), ShardName.parse(file, prefix), file);
            // One character more or less anywhere is another name or none at all.
            int at = random.nextInt(file.length());
            String dropped = file.substring(0, at) + file.substring(at + 1);
            ShardName.parse(dropped, prefix, suffix)
                    .ifPresent(other -> assertTrue(!other.equals(name), dropped));
        }
    }

    @Test
    void formatSpellsTheFields() {
        ShardName name = new ShardName("part-x", JOB, RUN, 3, 12, ".tfrecord.gz");
        assertEquals("part-x-" + JOB + "-" + RUN + "-3-12.tfrecord.gz", name.format());
    }

    @Test
    void readsTheDecimalEpochOfShardsNamedBeforeRuns() {
        ShardName legacy =
                ShardName.parse("part-" + JOB + "-7-3-12.tfrecord", "part").orElseThrow();
        assertEquals(new ShardName("part", JOB, "7", 3, 12, ".tfrecord"), legacy);
    }

    @Test
    void everyNewRunIsSixteenHexDigitsAndDiffers() {
        java.util.Set<String> runs = new java.util.HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String run = ShardName.newRun();
            assertTrue(run.matches("[0-9a-f]{16}"), run);
            runs.add(run);
            new ShardName("p", JOB, run, 0, 0, "");
        }
        assertEquals(1000, runs.size());
    }

    @Test
    void rejectsWhatFormatNeverWrites() {
        String ok = "part-" + JOB + "-7-3-12.tfrecord";
        assertTrue(ShardName.parse(ok, "part", ".tfrecord").isPresent());
        String[] bad = {
            "part-" + JOB + "-07-3-12.tfrecord",
            "part-" + JOB + "-7-3-012.tfrecord",
            "part-" + JOB + "--7-3-12.tfrecord",
            "part-" + JOB + "-7-3.tfrecord",
            "part-" + JOB + "-7-3-12-4.tfrecord",
            "part-" + JOB + "-7-3-12.tfrecord.gz",
            "part-" + JOB + "-" + RUN.substring(1) + "x-3-12.tfrecord",
            "part-" + JOB + "-" + RUN + "0-3-12.tfrecord",
            "part-" + JOB + "-" + RUN.toUpperCase(java.util.Locale.ROOT) + "-3-12.tfrecord",
            "part-" + JOB.toUpperCase(java.util.Locale.ROOT) + "-7-3-12.tfrecord",
            "part-" + JOB.substring(1) + "-7-3-12.tfrecord",
            "part-" + JOB + "-7-99999999999-12.tfrecord",
            "part-" + JOB + "-7-3-1234567890123456789.tfrecord",
            "parts-" + JOB + "-7-3-12.tfrecord",
            "." + ok,
            "part-" + JOB + "-7-3-12",
        };
        for (String file : bad) {
            assertEquals(Optional.empty(), ShardName.parse(file, "part", ".tfrecord"), file);
        }
        assertEquals(Optional.empty(), ShardName.parse("part-" + JOB + "-7-3-12", "part", ".gz"));
        assertEquals(
                ".tfrecord.gz",
                ShardName.parse("part-" + JOB + "-7-3-12.tfrecord.gz", "part")
                        .orElseThrow()
                        .suffix());
    }

    @Test
    void refusesInvalidFields() {
        assertThrows(IllegalArgumentException.class, () -> new ShardName("", JOB, RUN, 0, 0, ".t"));
        assertThrows(
                IllegalArgumentException.class, () -> new ShardName("a/b", JOB, RUN, 0, 0, ".t"));
        assertThrows(
                IllegalArgumentException.class, () -> new ShardName("p", "xyz", RUN, 0, 0, ".t"));
        assertThrows(
                IllegalArgumentException.class, () -> new ShardName("p", JOB, "-1", 0, 0, ".t"));
        assertThrows(
                IllegalArgumentException.class, () -> new ShardName("p", JOB, "abc", 0, 0, ".t"));
        assertThrows(
                IllegalArgumentException.class, () -> new ShardName("p", JOB, RUN, -1, 0, ".t"));
        assertThrows(
                IllegalArgumentException.class, () -> new ShardName("p", JOB, RUN, 0, 0, "1.t"));
    }

    private static String hex(Random random, int digits) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < digits; i++) {
            s.append(Character.forDigit(random.nextInt(16), 16));
        }
        return s.toString();
    }

    /** Small and large values alike, so both short and long digit runs are tried. */
    private static long number(Random random, long max) {
        return switch (random.nextInt(3)) {
            case 0 -> random.nextInt(10);
            case 1 -> random.nextInt(100_000);
            default -> (long) (random.nextDouble() * max);
        };
    }
}
