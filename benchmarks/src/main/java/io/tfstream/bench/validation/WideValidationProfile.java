package io.tfstream.bench.validation;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.tfstream.spec.schema.SchemaLoader;
import io.tfstream.testing.WideProfileCorpus;
import java.util.ArrayList;
import java.util.List;
import org.tensorflow.example.BytesList;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;
import org.tensorflow.example.Features;
import org.tensorflow.metadata.v0.Schema;

/**
 * The parser benchmarks' {@code WIDE} profile ({@link WideProfileCorpus}) with a TFMD schema that
 * puts a domain on every feature: {@code int_domain} on the int64 scalars and lists, {@code
 * float_domain} (NaN and Inf disallowed) on the float scalars and lists, a 16-value {@code
 * string_domain} on the bytes scalars, whose random bytes are replaced by values of that domain so
 * that the records are clean (the common case: no anomaly, nothing rolled up). Scalars also carry
 * {@code presence { min_fraction: 1 }} and {@code value_count { min: 1 max: 1 }}, lists {@code
 * value_count { max: 10 }}.
 */
final class WideValidationProfile {
    static final int VOCABULARY = 16;

    private WideValidationProfile() {}

    static Schema schema() {
        StringBuilder s = new StringBuilder();
        String scalar = " presence { min_fraction: 1 min_count: 1 } value_count { min: 1 max: 1 }";
        for (int i = 0; i < 20; i++) {
            s.append(
                    String.format(
                            "feature { name: \"i%02d\" type: INT int_domain { min: %d max: %d }%s }%n",
                            i, Long.MIN_VALUE, Long.MAX_VALUE, scalar));
            s.append(
                    String.format(
                            "feature { name: \"f%02d\" type: FLOAT float_domain { min: -1e6 max: 1e6"
                                    + " disallow_nan: true disallow_inf: true }%s }%n",
                            i, scalar));
        }
        StringBuilder vocabulary = new StringBuilder();
        for (int k = 0; k < VOCABULARY; k++) {
            vocabulary.append(" value: \"").append(word(k)).append('"');
        }
        for (int i = 0; i < 5; i++) {
            s.append(
                    String.format(
                            "feature { name: \"s%d\" type: BYTES string_domain {%s }%s }%n",
                            i, vocabulary, scalar));
            s.append(
                    String.format(
                            "feature { name: \"v%d\" type: INT int_domain { min: %d max: %d }"
                                    + " value_count { max: 10 } }%n",
                            i, Long.MIN_VALUE, Long.MAX_VALUE));
        }
        for (int i = 0; i < 2; i++) {
            s.append(
                    String.format(
                            "feature { name: \"r%d\" type: FLOAT float_domain { min: 0 max: 1"
                                    + " disallow_nan: true disallow_inf: true } value_count { max: 10 } }%n",
                            i));
        }
        try {
            return SchemaLoader.parseText(s);
        } catch (com.google.protobuf.TextFormat.ParseException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code WideProfileCorpus.records(n, 1)} with {@code s0..s4} taken from the vocabulary. */
    static List<byte[]> records(int n) {
        List<byte[]> out = new ArrayList<>(n);
        int r = 0;
        for (byte[] rec : WideProfileCorpus.records(n, 1)) {
            Features.Builder f;
            try {
                f = Example.parseFrom(rec).getFeatures().toBuilder();
            } catch (InvalidProtocolBufferException e) {
                throw new IllegalStateException(e);
            }
            for (int i = 0; i < 5; i++) {
                f.putFeature(
                        "s" + i,
                        Feature.newBuilder()
                                .setBytesList(
                                        BytesList.newBuilder()
                                                .addValue(
                                                        ByteString.copyFromUtf8(
                                                                word((r * 7 + i) % VOCABULARY))))
                                .build());
            }
            out.add(Example.newBuilder().setFeatures(f).build().toByteArray());
            r++;
        }
        return out;
    }

    private static String word(int k) {
        return "category_" + (char) ('a' + k);
    }
}
