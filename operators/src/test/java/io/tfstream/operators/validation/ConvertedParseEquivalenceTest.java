package io.tfstream.operators.validation;

import static io.tfstream.operators.validation.ValidationFixtures.SCHEMA;
import static io.tfstream.operators.validation.ValidationFixtures.parse;
import static io.tfstream.operators.validation.ValidationFixtures.settings;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterGuard;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.convert.ConversionException;
import io.tfstream.convert.ConvertFeatures;
import io.tfstream.convert.ConvertOptions;
import io.tfstream.convert.ExampleConverter;
import io.tfstream.convert.InputFormat;
import io.tfstream.operators.convert.ConvertSettings;
import io.tfstream.operators.deadletter.DeadLetterOutput;
import io.tfstream.operators.parse.BatchParseOperator;
import io.tfstream.operators.parse.LiveSchemaTesting;
import io.tfstream.operators.parse.ParseSettings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * JSON decoded straight into the batch-and-parse operator ({@link ParseSettings#withConversion})
 * emits what converting each record first (the convert step) and parsing the Examples emits: the
 * same accepted records (their Example as value, or their JSON when no output carries Examples),
 * the same dead letters with the same reasons, messages and original bytes (conversion errors,
 * parse errors, validation diversions), the same payloads and the same validation window partials
 * and anomaly marks. Batches close at the same records on both sides (on checkpoints).
 */
@SuppressWarnings("try") // the harness's close() may throw InterruptedException
class ConvertedParseEquivalenceTest {
    private static final String[] COUNTRIES = {"US", "DE", "FR", "XX", "Mars"};

    /** The fixtures' schema with age of shape [1]: one value, required (parse errors). */
    private static final String FIXED_AGE =
            SCHEMA.replace(
                    "presence { min_fraction: 1.0 } }",
                    "presence { min_fraction: 1.0 } shape { dim { size: 1 } } }");

    @Test
    void jsonInTheParseEmitsWhatConvertedExamplesEmit() throws Exception {
        ValidationSettings v =
                settings(
                        FIXED_AGE,
                        1,
                        List.of(
                                "INT_TYPE_BIG_INT=mark",
                                "ENUM_TYPE_UNEXPECTED_STRING_VALUES=divert"));
        ParseSettings base = parse(v, FIXED_AGE, 1 << 20, DeadLetterGuard.off());
        ConvertSettings json = json(base);
        for (boolean examples : new boolean[] {true, false}) {
            SplittableRandom rnd = new SplittableRandom(examples ? 5 : 6);
            List<SourceRecord> inputs = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                inputs.add(SourceRecord.of(json(rnd), "in", 0, i, 1000L + i));
            }
            List<String> direct;
            List<String> viaExamples;
            int conversionErrors = 0;
            try (var h = harness(base.withConversion(json, examples))) {
                for (int i = 0; i < inputs.size(); i++) {
                    h.processElement(new StreamRecord<>(inputs.get(i), 1000L + i));
                    if (i % 37 == 36) {
                        h.prepareSnapshotPreBarrier(i);
                    }
                }
                h.prepareSnapshotPreBarrier(inputs.size());
                direct = outputs(h, false);
            }
            ExampleConverter converter = json.converter();
            List<String> conversionDeadLetters = new ArrayList<>();
            try (var h = harness(base)) {
                for (int i = 0; i < inputs.size(); i++) {
                    SourceRecord r = inputs.get(i);
                    try {
                        byte[] e = converter.convert(r.value(), 0, r.value().length);
                        h.processElement(new StreamRecord<>(r.withConvertedValue(e), 1000L + i));
                    } catch (ConversionException x) {
                        conversionErrors++;
                        conversionDeadLetters.add(
                                deadLetter(
                                        new DeadLetter(
                                                r,
                                                DeadLetterReason.CONVERSION_ERROR,
                                                x.getMessage())));
                    }
                    if (i % 37 == 36) {
                        h.prepareSnapshotPreBarrier(i);
                    }
                }
                h.prepareSnapshotPreBarrier(inputs.size());
                viaExamples = outputs(h, !examples);
            }
            viaExamples.addAll(conversionDeadLetters);
            viaExamples.sort(null);
            direct.sort(null);
            assertEquals(viaExamples, direct, "accepted Examples " + examples);
            assertTrue(conversionErrors > 20, "conversion errors " + conversionErrors);
            assertTrue(direct.stream().anyMatch(s -> s.contains("reason=validation")), "diverted");
            assertTrue(direct.stream().anyMatch(s -> s.contains("reason=parse_error")), "parse");
            assertTrue(direct.stream().anyMatch(s -> s.contains("INT_TYPE_BIG_INT")), "marked");
        }
    }

    @Test
    void theSameRecordsLeaveWithTheirExamplesOrTheirJson() throws Exception {
        ParseSettings base = parse(settings(1, List.of()), SCHEMA, 1 << 20, DeadLetterGuard.off());
        ConvertSettings json = json(base);
        byte[] in = "{\"age\": [31], \"country\": [\"DE\"]}".getBytes(StandardCharsets.UTF_8);
        byte[] example = json.converter().convert(in, 0, in.length);
        for (boolean examples : new boolean[] {true, false}) {
            try (var h = harness(base.withConversion(json, examples))) {
                h.processElement(new StreamRecord<>(SourceRecord.of(in, "in", 0, 0, 5), 5));
                h.prepareSnapshotPreBarrier(1);
                SourceRecord out = h.extractOutputValues().get(0);
                assertArrayEquals(examples ? example : in, out.value());
                assertArrayEquals(in, out.asArrived().value());
            }
        }
    }

    private static byte[] json(SplittableRandom rnd) {
        StringBuilder b = new StringBuilder("{");
        switch (rnd.nextInt(12)) {
            case 0 -> b.append("\"age\": [\"old\"], "); // not an INT: conversion error
            case 1 -> b.append("\"age\": [1, 2], "); // two values: parse error
            case 2 -> {} // no age: required, a parse error
            case 3 -> b.append("\"age\": [500], "); // out of the domain: marked
            default -> b.append("\"age\": [").append(rnd.nextInt(0, 121)).append("], ");
        }
        if (rnd.nextInt(15) == 0) {
            b.append("\"extra\": {\"a\": 1}, "); // ignored
        }
        b.append("\"country\": [\"")
                .append(COUNTRIES[rnd.nextInt(COUNTRIES.length)])
                .append("\"]}");
        if (rnd.nextInt(25) == 0) {
            b.setLength(b.length() - 1); // not closed: conversion error
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** JSON input converted to {@code base}'s schema, no dead-letter guard. */
    private static ConvertSettings json(ParseSettings base) throws Exception {
        return new ConvertSettings(
                InputFormat.JSON,
                ConvertFeatures.of(base.spec()),
                ConvertOptions.defaults(),
                null,
                DeadLetterGuard.off());
    }

    private static OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> harness(
            ParseSettings s) throws Exception {
        var h = LiveSchemaTesting.harness(s);
        h.open();
        return h;
    }

    /**
     * Every output as text: accepted records (value, or the value as it arrived with {@code
     * arrived}), dead letters, payloads and window partials.
     */
    private static List<String> outputs(
            OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h, boolean arrived) {
        List<String> out = new ArrayList<>();
        for (SourceRecord r : h.extractOutputValues()) {
            StringBuilder s = new StringBuilder("accepted ").append(r.offset()).append(' ');
            s.append(b64(arrived ? r.asArrived().value() : r.value()));
            for (int k = 0; k < r.headerCount(); k++) {
                s.append(' ').append(r.headerKey(k)).append('=');
                s.append(new String(r.headerValue(k), StandardCharsets.UTF_8));
            }
            out.add(s.toString());
        }
        var dead = h.getSideOutput(DeadLetterOutput.TAG);
        if (dead != null) {
            dead.forEach(d -> out.add(deadLetter(d.getValue())));
        }
        var payloads = h.getSideOutput(BatchParseOperator.TENSOR_BATCHES);
        if (payloads != null) {
            payloads.forEach(p -> out.add("payload " + p.getValue().toMessage()));
        }
        var partials = h.getSideOutput(BatchValidation.PARTIALS);
        if (partials != null) {
            partials.forEach(
                    p -> {
                        WindowPartial w = p.getValue();
                        out.add(
                                "partial "
                                        + w.windowStart()
                                        + " "
                                        + w.lateCount()
                                        + " "
                                        + b64(w.accumulator()));
                    });
        }
        return out;
    }

    private static String deadLetter(DeadLetter d) {
        return "dead "
                + d.source().offset()
                + " reason="
                + d.reason().code()
                + " "
                + d.error()
                + " "
                + b64(d.source().value());
    }

    private static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }
}
