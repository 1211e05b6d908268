package io.tfstream.fuzz;

import io.tfstream.parse.ParseLimits;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.SequenceFeatureSpecs;
import io.tfstream.spec.json.SpecJsonReader;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testing.WideProfileCorpus;
import io.tfstream.testing.WireEdgeCaseGenerator;
import io.tfstream.testing.sequence.RandomSequenceExamples;
import io.tfstream.testing.sequence.SequenceEdgeCases;
import io.tfstream.testing.sequence.SequenceFuzzRecords;
import java.util.List;

/**
 * The fixed specs a fuzz input chooses from with its configuration byte: together they cover
 * FixedLen (required and with defaults), FixedLenSequence, VarLen, Ragged (every partition kind,
 * both row-split dtypes) and SparseFeature over every dtype.
 */
final class FuzzSpecs {
    /**
     * The defaults, but with 64 Ki values per feature and 64 Ki value_rowids rows per batch: the
     * limits bound what a declared length or a single value (such as a value_rowid) can make the
     * parser allocate, and at the default 16 Mi either bound would exceed the allocation budget (a
     * 46-byte record asking for 805,709 rows allocated 25 MB under the default row limit).
     */
    static final ParseLimits DEFAULT =
            ParseLimits.defaults().withMaxValuesPerFeature(1 << 16).withMaxRaggedRows(1 << 16);

    /** Small enough that short fuzz inputs reach every limit check. */
    static final ParseLimits TIGHT = new ParseLimits(64, 4, 6, 8, 16);

    static final List<FeatureSpecs> EXAMPLE =
            List.of(
                    Seed001Corpus.spec(),
                    json(
                            """
                            {"i": {"type": "fixed_len", "dtype": "int64", "shape": [2],
                                   "default": [1, 2]},
                             "f": {"type": "fixed_len", "dtype": "float32", "shape": [2, 1],
                                   "default": [0.5, -1.0]},
                             "s": {"type": "fixed_len", "dtype": "string", "shape": [],
                                   "default": "d"},
                             "r": {"type": "fixed_len", "dtype": "int64", "shape": [3]},
                             "e": {"type": "fixed_len", "dtype": "float32", "shape": [0]}}
                            """),
                    json(
                            """
                            {"i": {"type": "fixed_len_seq", "dtype": "int64", "shape": [],
                                   "allow_missing": true},
                             "f": {"type": "fixed_len_seq", "dtype": "float32", "shape": [2],
                                   "allow_missing": true, "default": 9.0},
                             "s": {"type": "fixed_len_seq", "dtype": "string", "shape": [1],
                                   "allow_missing": true}}
                            """),
                    json(
                            """
                            {"i": {"type": "var_len", "dtype": "int64"},
                             "f": {"type": "var_len", "dtype": "float32"},
                             "s": {"type": "var_len", "dtype": "string"}}
                            """),
                    json(
                            """
                            {"r0": {"type": "ragged", "dtype": "float32", "value_key": "f",
                                    "partitions": [], "row_splits_dtype": "int32"},
                             "r1": {"type": "ragged", "dtype": "int64", "value_key": "i",
                                    "partitions": [{"row_lengths": "rl"}],
                                    "row_splits_dtype": "int64"},
                             "r2": {"type": "ragged", "dtype": "string", "value_key": "s",
                                    "partitions": [{"row_splits": "rs"},
                                                   {"uniform_row_length": 2}],
                                    "row_splits_dtype": "int32"},
                             "r3": {"type": "ragged", "dtype": "int64", "value_key": "i",
                                    "partitions": [{"value_rowids": "vr"}],
                                    "row_splits_dtype": "int64"},
                             "r4": {"type": "ragged", "dtype": "float32", "value_key": "f",
                                    "partitions": [{"row_starts": "st"}, {"row_limits": "lm"}],
                                    "row_splits_dtype": "int32"}}
                            """),
                    json(
                            """
                            {"sp": {"type": "sparse", "index_keys": ["ix"], "value_key": "i",
                                    "dtype": "int64", "size": [10], "already_sorted": false},
                             "sp2": {"type": "sparse", "index_keys": ["ix", "iy"],
                                     "value_key": "f", "dtype": "float32", "size": [4, 3],
                                     "already_sorted": true},
                             "sp3": {"type": "sparse", "index_keys": ["ix"], "value_key": "s",
                                     "dtype": "string", "size": [5],
                                     "already_sorted": false}}
                            """),
                    WideProfileCorpus.spec(),
                    new WireEdgeCaseGenerator(8).randomSpec());

    static final List<SequenceFeatureSpecs> SEQUENCE =
            List.of(
                    SequenceEdgeCases.SPEC,
                    SequenceEdgeCases.REQUIRED_SPEC,
                    new RandomSequenceExamples(7).spec(),
                    new SequenceFuzzRecords(11).spec());

    private FuzzSpecs() {}

    private static FeatureSpecs json(String text) {
        try {
            return (FeatureSpecs) SpecJsonReader.read(text, "fuzz spec");
        } catch (MalformedSpecFileException e) {
            throw new IllegalStateException(e);
        }
    }
}
