package io.tfstream.validation;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;

/**
 * Once warm, validating a record and adding it to a window accumulator allocates nothing per record
 * (measured with the thread allocation counter, so deterministic): the bytes allocated for a pass
 * over many records stay below a small constant. The schema has no {@code float_domain} on bytes
 * data (the one check that parses through a String).
 */
class RecordValidatorAllocationTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static final String SCHEMA =
            RandomExamples.SCHEMA.replace(
                    "float_domain { min: 0 max: 1000 disallow_nan: true disallow_inf: true }", "");

    @Test
    void validatingAndAccumulatingAllocatesNothingPerRecord() {
        ValidationSchema s = Fixtures.compiled(SCHEMA);
        List<Example> examples = RandomExamples.examples(3, 512);
        byte[][] records = examples.stream().map(Example::toByteArray).toArray(byte[][]::new);
        RecordValidator v = new RecordValidator(s);
        RecordResult r = new RecordResult();
        RecordRef ref = new RecordRef();
        WindowAccumulator window = new WindowAccumulator(s);
        for (int pass = 0; pass < 20; pass++) {
            run(records, v, r, ref, window);
        }
        long id = Thread.currentThread().getId();
        long before = THREADS.getThreadAllocatedBytes(id);
        run(records, v, r, ref, window);
        long allocated = THREADS.getThreadAllocatedBytes(id) - before;
        assertTrue(
                allocated < 4096,
                "allocated " + allocated + " bytes for " + records.length + " records");
    }

    private static void run(
            byte[][] records,
            RecordValidator v,
            RecordResult r,
            RecordRef ref,
            WindowAccumulator w) {
        for (int i = 0; i < records.length; i++) {
            v.validateExample(records[i], 0, records[i].length, r);
            w.add(v, r, ref.set("t", 0, i, i));
        }
    }
}
