package io.tfstream.testing.sequence;

import static io.tfstream.testing.sequence.SeqWire.concat;
import static io.tfstream.testing.sequence.SeqWire.context;
import static io.tfstream.testing.sequence.SeqWire.emptyFeature;
import static io.tfstream.testing.sequence.SeqWire.entry;
import static io.tfstream.testing.sequence.SeqWire.featureList;
import static io.tfstream.testing.sequence.SeqWire.featureLists;
import static io.tfstream.testing.sequence.SeqWire.floatFeature;
import static io.tfstream.testing.sequence.SeqWire.int64Feature;
import static io.tfstream.testing.sequence.SeqWire.stringFeature;

/**
 * The records of the SequenceExample golden cases Q01 and Q05 of the parsing reference, whose
 * outputs TensorFlow 2.18 produced.
 */
public final class SequenceGoldenRecords {
    private SequenceGoldenRecords() {}

    public static final byte[] Q01_EX0 =
            concat(
                    context(entry("c", floatFeature(3, 4)), entry("st_a", floatFeature(3, 4))),
                    featureLists(
                            entry("a", featureList(int64Feature(-1, 0, 1), int64Feature(2, 3, 4))),
                            entry(
                                    "s",
                                    featureList(
                                            floatFeature(3, 4), floatFeature(5), floatFeature())),
                            entry("r", featureList(stringFeature("x"), stringFeature("y", "z")))));
    public static final byte[] Q01_EX1 =
            concat(
                    context(entry("c", floatFeature(5, 6))),
                    featureLists(
                            entry("a", featureList(int64Feature(7, 8, 9))),
                            entry("r", featureList())));

    private static final byte[] EX5_0 =
            concat(
                    context(entry("a", floatFeature(3, 4))),
                    featureLists(
                            entry("b", featureList(floatFeature(5), floatFeature(3))),
                            entry("c", featureList(int64Feature(6, 7, 8, 9)))));
    private static final byte[] EX5_1 =
            concat(
                    context(entry("a", floatFeature(9))),
                    featureLists(
                            entry("b", featureList()),
                            entry("c", featureList(int64Feature(), int64Feature(1, 2, 3)))));
    private static final byte[] EX5_2 =
            featureLists(
                    entry(
                            "b",
                            featureList(
                                    floatFeature(1), floatFeature(1, 2), floatFeature(1, 2, 3))));
    private static final byte[] EX5_3 =
            concat(
                    context(entry("a", emptyFeature())),
                    featureLists(
                            entry("b", featureList(emptyFeature())),
                            entry("c", featureList(int64Feature(3, 3, 3)))));

    /** Q05: four records with ragged context and ragged feature lists. */
    public static final byte[][] Q05 = {EX5_0, EX5_1, EX5_2, EX5_3};
}
