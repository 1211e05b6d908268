package io.tfstream.bench.convert;

import io.tfstream.bench.parse.ExampleProfile;
import io.tfstream.convert.AvroToExample;
import io.tfstream.convert.ConvertFeatures;
import io.tfstream.convert.ConvertOptions;
import io.tfstream.convert.ConverterDecoder;
import io.tfstream.convert.ExampleConverter;
import io.tfstream.convert.JsonToExample;
import io.tfstream.parse.LenientBatchParser;
import io.tfstream.parse.ParseLimits;
import io.tfstream.parse.ParsedRows;
import io.tfstream.parse.RecordBatch;
import io.tfstream.testing.ExampleAvro;
import io.tfstream.testing.ExampleJson;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What {@code source.format} json and avro cost: one batch of records through what the job does
 * with them, side by side on the same data (the profile's Examples, and the same Examples written
 * as JSON objects or Avro records). {@code example}: the batch of serialized Examples parsed by the
 * lenient batch parser (the {@code source.format: example} path); {@code json} / {@code avro}: each
 * record converted to an Example and added to the batch, then the same parse; {@code jsonColumns} /
 * {@code avroColumns}: the records decoded straight into the parser's columns ({@link
 * ConverterDecoder}), as batch-and-parse does them. One op = one batch. The wide profile's random
 * bytes are written as base64 JSON strings ({@code source.json.bytes: base64}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@State(Scope.Thread)
public class ConversionBenchmark {
    @Param({"SEED001", "WIDE"})
    public ExampleProfile profile;

    @Param({"1024"})
    public int batch;

    List<byte[]> examples;
    List<byte[]> json;
    List<byte[]> avro;
    RecordBatch exampleBatch;
    RecordBatch converted;
    LenientBatchParser parser;
    ExampleConverter jsonConverter;
    ExampleConverter avroConverter;
    RecordBatch jsonBatch;
    RecordBatch avroBatch;
    LenientBatchParser jsonColumnsParser;
    LenientBatchParser avroColumnsParser;

    @Setup
    public void setUp() {
        examples = profile.records(batch);
        boolean base64 = profile == ExampleProfile.WIDE;
        ConvertFeatures features = ConvertFeatures.of(profile.spec());
        ExampleAvro avroWriter = new ExampleAvro(features.asMap());
        json = new ArrayList<>();
        avro = new ArrayList<>();
        for (byte[] e : examples) {
            json.add(ExampleJson.of(e, base64));
            avro.add(avroWriter.of(e));
        }
        exampleBatch = RecordBatch.of(examples);
        converted = new RecordBatch(batch, 1 << 20);
        parser = LenientBatchParser.create(profile.spec(), ParseLimits.defaults());
        ConvertOptions options = new ConvertOptions(base64, false, null);
        jsonConverter = new JsonToExample(features, options);
        avroConverter = new AvroToExample(avroWriter.schema(), features, options);
        jsonBatch = RecordBatch.of(json);
        avroBatch = RecordBatch.of(avro);
        ParseLimits limits = ParseLimits.defaults();
        jsonColumnsParser =
                LenientBatchParser.create(
                        profile.spec(),
                        limits,
                        new ConverterDecoder(new JsonToExample(features, options), features));
        avroColumnsParser =
                LenientBatchParser.create(
                        profile.spec(),
                        limits,
                        new ConverterDecoder(
                                new AvroToExample(avroWriter.schema(), features, options),
                                features));
    }

    /** JSON straight into the parser's columns, no Example written (the job without shards). */
    @Benchmark
    public ParsedRows jsonColumns() {
        return jsonColumnsParser.parse(jsonBatch, e -> {});
    }

    /** Avro straight into the parser's columns, no Example written. */
    @Benchmark
    public ParsedRows avroColumns() {
        return avroColumnsParser.parse(avroBatch, e -> {});
    }

    @Benchmark
    public ParsedRows example() {
        return parser.parse(exampleBatch, e -> {});
    }

    @Benchmark
    public ParsedRows json() throws Exception {
        return convertAndParse(json, jsonConverter);
    }

    @Benchmark
    public ParsedRows avro() throws Exception {
        return convertAndParse(avro, avroConverter);
    }

    /** Converts only, for the share of the conversion in {@link #json()}. */
    @Benchmark
    public int jsonConvertOnly() throws Exception {
        int n = 0;
        for (byte[] r : json) {
            n += jsonConverter.convert(r, 0, r.length).length;
        }
        return n;
    }

    ParsedRows convertAndParse(List<byte[]> records, ExampleConverter c) throws Exception {
        converted.clear();
        for (byte[] r : records) {
            byte[] e = c.convert(r, 0, r.length);
            converted.add(e, 0, e.length);
        }
        return parser.parse(converted, e -> {});
    }
}
