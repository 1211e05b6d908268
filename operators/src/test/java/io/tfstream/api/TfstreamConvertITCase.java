package io.tfstream.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.api.model.DeadLetter;
import io.tfstream.api.model.DeadLetterReason;
import io.tfstream.api.model.SourceRecord;
import io.tfstream.convert.InputFormat;
import io.tfstream.operators.source.SourceRecordSerializer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;

/**
 * A job of its own built on {@link TfstreamConvert} and {@link TfstreamParse}, run on a local
 * MiniCluster: JSON and Avro records, one broken of each, converted and parsed; the broken one a
 * {@code conversion_error} dead letter with its original bytes.
 */
@SuppressWarnings("try") // CloseableIterator.close() may throw InterruptedException
class TfstreamConvertITCase {
    private static final int GOOD = 30;

    @Test
    void jsonRecordsAreParsedAndTheBrokenOneDeadLettered() throws Exception {
        List<byte[]> input = new ArrayList<>();
        for (int i = 0; i < GOOD; i++) {
            input.add(
                    ("{\"id\": " + i + ", \"name\": \"n" + i + "\", \"score\": " + i + ".5}")
                            .getBytes(StandardCharsets.UTF_8));
        }
        byte[] broken = "{\"id\": \"seven\"}".getBytes(StandardCharsets.UTF_8);
        input.add(7, broken);
        run(TfstreamConvert.builder().setFormat(InputFormat.JSON), input, broken, "id");
    }

    @Test
    void avroRecordsAreParsedAndTheBrokenOneDeadLettered() throws Exception {
        Schema writer = new Schema.Parser().parse(TfstreamConvertTest.AVSC);
        List<byte[]> input = new ArrayList<>();
        for (int i = 0; i < GOOD; i++) {
            GenericRecord r = new GenericData.Record(writer);
            r.put("id", (long) i);
            r.put("name", "n" + i);
            r.put("score", i + 0.5);
            input.add(avro(writer, r));
        }
        byte[] broken = Arrays.copyOf(input.get(3), 2); // the id, then the name cut short
        input.add(7, broken);
        run(
                TfstreamConvert.builder().setFormat(InputFormat.AVRO).setAvroSchema(writer),
                input,
                broken,
                "name");
    }

    private static byte[] avro(Schema writer, GenericRecord r) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(writer).write(r, enc);
        enc.flush();
        return out.toByteArray();
    }

    private static void run(
            TfstreamConvertBuilder convert, List<byte[]> input, byte[] broken, String field)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        List<SourceRecord> records = new ArrayList<>();
        for (int i = 0; i < input.size(); i++) {
            records.add(SourceRecord.of(input.get(i), "in", 0, i, 1000L + i));
        }
        ConvertResult converted =
                convert.setSchema(TfstreamConvertTest.SCHEMA, "schema.pbtxt")
                        .build()
                        .applyTo(
                                env.fromData(
                                        SourceRecordSerializer.typeInfo(),
                                        records.toArray(new SourceRecord[0])));
        ParseResult parsed =
                converted.parse(
                        TfstreamParse.builder()
                                .setSchema(TfstreamConvertTest.SCHEMA, "schema.pbtxt")
                                .setMaxRecords(8)
                                .build());
        try (CloseableIterator<SourceRecord> accepted = parsed.accepted().collectAsync();
                CloseableIterator<DeadLetter> parseDead = parsed.deadLetters().collectAsync();
                CloseableIterator<DeadLetter> dead = converted.deadLetters().collectAsync()) {
            env.execute("convert");
            List<SourceRecord> a = new ArrayList<>();
            accepted.forEachRemaining(a::add);
            List<DeadLetter> d = new ArrayList<>();
            dead.forEachRemaining(d::add);
            List<DeadLetter> pd = new ArrayList<>();
            parseDead.forEachRemaining(pd::add);

            assertEquals(GOOD, a.size());
            assertEquals(List.of(), pd);
            for (SourceRecord r : a) {
                // Each accepted record is the Example of its own input, position kept.
                int i = (int) (r.offset() < 7 ? r.offset() : r.offset() - 1);
                Map<String, Feature> f = Example.parseFrom(r.value()).getFeatures().getFeatureMap();
                assertEquals(i, f.get("id").getInt64List().getValue(0));
                assertEquals("n" + i, f.get("name").getBytesList().getValue(0).toStringUtf8());
                assertEquals(i + 0.5f, f.get("score").getFloatList().getValue(0));
                assertArrayEquals(input.get((int) r.offset()), r.original());
                assertEquals(1000L + r.offset(), r.timestamp());
            }
            assertEquals(1, d.size());
            DeadLetter letter = d.get(0);
            assertEquals(DeadLetterReason.CONVERSION_ERROR, letter.reason());
            assertEquals(7, letter.source().offset());
            assertArrayEquals(broken, letter.source().value());
            assertTrue(letter.error().contains(field), letter.error());
        }
    }
}
