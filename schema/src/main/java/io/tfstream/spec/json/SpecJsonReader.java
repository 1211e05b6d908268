package io.tfstream.spec.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.tfstream.spec.DType;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.FixedLenFeature;
import io.tfstream.spec.FixedLenSequenceFeature;
import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.Partition;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.RowSplitsDType;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.SparseFeature;
import io.tfstream.spec.SpecRejectedException;
import io.tfstream.spec.VarLenFeature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads SPEC.json / SEQSPEC.json as docs/cli.md#specjson defines them: omitted fields take Python's
 * defaults ({@code value_key} the feature name, {@code row_splits_dtype} int32, no partitions, not
 * sorted, {@code allow_missing} false, no default); dtype aliases {@code float} and {@code bytes};
 * defaults as a scalar or a nested or flat list of {@code prod(shape)} values. Unknown fields,
 * duplicate keys and values of the wrong JSON type are refused, naming the feature and field.
 */
public final class SpecJsonReader {
    private static final Map<String, Set<String>> FIELDS =
            Map.of(
                    "fixed_len", Set.of("type", "dtype", "shape", "default"),
                    "fixed_len_seq", Set.of("type", "dtype", "shape", "allow_missing", "default"),
                    "var_len", Set.of("type", "dtype"),
                    "sparse",
                            Set.of(
                                    "type",
                                    "index_keys",
                                    "value_key",
                                    "dtype",
                                    "size",
                                    "already_sorted"),
                    "ragged",
                            Set.of("type", "dtype", "value_key", "partitions", "row_splits_dtype"));

    private SpecJsonReader() {}

    /**
     * Reads SPEC.json, or SEQSPEC.json when the top-level object holds only {@code context} /
     * {@code feature_lists} objects that are not themselves specs (have no {@code type}).
     *
     * @param source names the input in error messages
     * @throws MalformedSpecFileException when {@code json} is not one JSON object
     * @throws SpecRejectedException when it is, but not a valid spec
     */
    public static ParseSpec read(String json, String source) throws MalformedSpecFileException {
        JsonNode root;
        try {
            root = JsonTrees.read(json);
        } catch (JsonProcessingException e) {
            throw new MalformedSpecFileException(
                    source + ": not JSON: " + e.getOriginalMessage() + location(e), e);
        } catch (IOException e) {
            throw new MalformedSpecFileException(source + ": not JSON: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new MalformedSpecFileException(
                    source + ": expected a JSON object mapping feature names to specs", null);
        }
        if (isSequenceSpec(root)) {
            try {
                return new SequenceFeatureSpecs(
                        dict(root.get("context"), source + " context"),
                        dict(root.get("feature_lists"), source + " feature_lists"));
            } catch (IllegalArgumentException e) {
                throw new SpecRejectedException(source + ": " + e.getMessage(), e);
            }
        }
        return dict(root, source);
    }

    private static String location(JsonProcessingException e) {
        return e.getLocation() == null
                ? ""
                : " (line "
                        + e.getLocation().getLineNr()
                        + ", column "
                        + e.getLocation().getColumnNr()
                        + ")";
    }

    private static boolean isSequenceSpec(JsonNode root) {
        if (root.isEmpty()) {
            return false;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            boolean part = e.getKey().equals("context") || e.getKey().equals("feature_lists");
            if (!part || !e.getValue().isObject() || e.getValue().has("type")) {
                return false;
            }
        }
        return true;
    }

    private static FeatureSpecs dict(JsonNode node, String where) {
        if (node == null) {
            return FeatureSpecs.empty();
        }
        Map<String, FeatureSpec> specs = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String prefix = where + ": feature '" + e.getKey() + "': ";
            try {
                specs.put(e.getKey(), spec(e.getKey(), e.getValue()));
            } catch (IllegalArgumentException | ArithmeticException ex) {
                throw new SpecRejectedException(prefix + ex.getMessage(), ex);
            }
        }
        try {
            return FeatureSpecs.of(specs);
        } catch (IllegalArgumentException ex) {
            throw new SpecRejectedException(where + ": " + ex.getMessage(), ex);
        }
    }

    private static FeatureSpec spec(String name, JsonNode n) {
        if (!n.isObject()) {
            throw new IllegalArgumentException("expected an object with a \"type\", got " + n);
        }
        String type = JsonValues.string(required(n, "type"), "type");
        Set<String> allowed = FIELDS.get(type);
        if (allowed == null) {
            throw new IllegalArgumentException(
                    "unknown type '"
                            + type
                            + "'; expected fixed_len, fixed_len_seq, var_len, sparse or ragged");
        }
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!allowed.contains(f)) {
                throw new IllegalArgumentException(
                        "unknown field '" + f + "' for type " + type + "; allowed: " + allowed);
            }
        }
        DType dtype = DType.fromName(JsonValues.string(required(n, "dtype"), "dtype"));
        switch (type) {
            case "fixed_len":
                List<Long> shape = JsonValues.longs(required(n, "shape"), "shape");
                return new FixedLenFeature(
                        shape, dtype, JsonValues.defaultValue(n.get("default"), dtype, shape));
            case "fixed_len_seq":
                return new FixedLenSequenceFeature(
                        JsonValues.longs(required(n, "shape"), "shape"),
                        dtype,
                        JsonValues.bool(n.get("allow_missing"), "allow_missing"),
                        JsonValues.defaultValue(n.get("default"), dtype, List.of()));
            case "var_len":
                return new VarLenFeature(dtype);
            case "sparse":
                return new SparseFeature(
                        JsonValues.strings(required(n, "index_keys"), "index_keys"),
                        JsonValues.string(required(n, "value_key"), "value_key"),
                        dtype,
                        JsonValues.longs(required(n, "size"), "size"),
                        JsonValues.bool(n.get("already_sorted"), "already_sorted"));
            default:
                return new RaggedFeature(
                        dtype,
                        n.has("value_key")
                                ? JsonValues.string(n.get("value_key"), "value_key")
                                : name,
                        partitions(n.get("partitions")),
                        n.has("row_splits_dtype")
                                ? RowSplitsDType.fromName(
                                        JsonValues.string(
                                                n.get("row_splits_dtype"), "row_splits_dtype"))
                                : RowSplitsDType.INT32);
        }
    }

    private static List<Partition> partitions(JsonNode n) {
        List<Partition> result = new ArrayList<>();
        if (n == null) {
            return result;
        }
        if (!n.isArray()) {
            throw new IllegalArgumentException("partitions must be a list; got " + n);
        }
        for (JsonNode p : n) {
            if (!p.isObject() || p.size() != 1) {
                throw new IllegalArgumentException(
                        "a partition must be an object with one field, e.g. {\"row_lengths\":"
                                + " \"key\"}; got "
                                + p);
            }
            Map.Entry<String, JsonNode> e = p.fields().next();
            if (e.getKey().equals(PartitionNames.UNIFORM_ROW_LENGTH)) {
                result.add(
                        new Partition.UniformRowLength(
                                JsonValues.int64(e.getValue(), "uniform_row_length")));
                continue;
            }
            Partition keyed =
                    PartitionNames.keyed(e.getKey(), JsonValues.string(e.getValue(), e.getKey()));
            if (keyed == null) {
                throw new IllegalArgumentException(
                        "unknown partition '"
                                + e.getKey()
                                + "'; expected row_splits, row_lengths, row_starts, row_limits,"
                                + " value_rowids or uniform_row_length");
            }
            result.add(keyed);
        }
        return result;
    }

    private static JsonNode required(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException("missing field '" + field + "'");
        }
        return v;
    }
}
