package io.tfstream.bench.parse;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tfstream.tensor.BytesBuffer;
import io.tfstream.tensor.Float32Buffer;
import io.tfstream.tensor.Int64Buffer;
import java.util.List;
import java.util.Map;
import org.tensorflow.example.Feature;
import org.tensorflow.example.FeatureList;
import org.tensorflow.example.SequenceExample;

/**
 * The protobuf-java baseline for {@link SequenceProfile}: {@code SequenceExample.parseFrom} per
 * record, then the same arrays the parser outputs: context columns, {@code clicks} and {@code emb}
 * padded to {@code [B, T_max] + shape} with lengths, {@code tokens} as sparse {@code [B, T, V]}
 * indices and values, {@code words} as values with step and row splits.
 */
final class ProtobufSequenceColumns {
    /** Parses {@code records}; returns a value that depends on every output. */
    long parse(List<byte[]> records) throws InvalidProtocolBufferException {
        int rows = records.size();
        long[] user = new long[rows];
        BytesBuffer country = new BytesBuffer(rows, rows * 12);
        float[] score = new float[rows * 3];
        Int64Buffer clicks = new Int64Buffer(rows * 16);
        Float32Buffer emb = new Float32Buffer(rows * 64);
        long[] steps = new long[rows];
        Int64Buffer tokens = new Int64Buffer(rows * 40);
        Int64Buffer tokenIndices = new Int64Buffer(rows * 120);
        BytesBuffer words = new BytesBuffer(rows * 24, rows * 96);
        Int64Buffer wordSplits = new Int64Buffer(rows * 16);
        wordSplits.add(0);
        long[] rowSplits = new long[rows + 1];
        int maxSteps = 0;
        int maxTokens = 0;
        for (int r = 0; r < rows; r++) {
            SequenceExample e = SequenceExample.parseFrom(records.get(r));
            Map<String, Feature> ctx = e.getContext().getFeatureMap();
            user[r] = ctx.get("user").getInt64List().getValue(0);
            ProtobufExampleColumns.appendBytes(ctx.get("country"), country);
            for (int i = 0; i < 3; i++) {
                score[r * 3 + i] = ctx.get("score").getFloatList().getValue(i);
            }
            Map<String, FeatureList> lists = e.getFeatureLists().getFeatureListMap();
            for (Feature f : lists.get("clicks").getFeatureList()) {
                clicks.add(f.getInt64List().getValue(0));
            }
            for (Feature f : lists.get("emb").getFeatureList()) {
                for (int i = 0; i < 4; i++) {
                    emb.add(f.getFloatList().getValue(i));
                }
            }
            List<Feature> tok = lists.get("tokens").getFeatureList();
            for (int t = 0; t < tok.size(); t++) {
                var l = tok.get(t).getInt64List();
                for (int j = 0; j < l.getValueCount(); j++) {
                    tokens.add(l.getValue(j));
                    tokenIndices.add(r);
                    tokenIndices.add(t);
                    tokenIndices.add(j);
                }
                maxTokens = Math.max(maxTokens, l.getValueCount());
            }
            List<Feature> w = lists.get("words").getFeatureList();
            for (Feature f : w) {
                ProtobufExampleColumns.appendBytes(f, words);
                wordSplits.add(words.size());
            }
            rowSplits[r + 1] = rowSplits[r] + w.size();
            steps[r] = tok.size();
            maxSteps = Math.max(maxSteps, tok.size());
        }
        long[] clicksDense = new long[rows * maxSteps];
        float[] embDense = new float[rows * maxSteps * 4];
        int at = 0;
        for (int r = 0; r < rows; r++) {
            int n = (int) steps[r];
            System.arraycopy(clicks.array(), at, clicksDense, r * maxSteps, n);
            System.arraycopy(emb.array(), at * 4, embDense, r * maxSteps * 4, n * 4);
            at += n;
        }
        return user.length
                + country.size()
                + score.length
                + clicksDense.length
                + embDense.length
                + tokens.size()
                + tokenIndices.size()
                + maxTokens
                + words.size()
                + wordSplits.size()
                + rowSplits[rows];
    }
}
