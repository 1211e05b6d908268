package io.tfstream.validation;

import io.tfstream.stats.ByteKeyTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tensorflow.metadata.v0.AnomalyInfo.Type;

/**
 * Turns the per-record roll-ups of a window into findings with TFDV texts (the description of the
 * first record, with the window's extreme value for range types and the window's value total for
 * out-of-domain percentages), and builds the window-level {@code min_domain_mass} finding.
 */
final class WindowRollUps {
    private WindowRollUps() {}

    static void findings(WindowAccumulator a, List<WindowFinding> out) {
        ValidationSchema schema = a.schema;
        for (int p = 0; p < a.rollUps.length; p++) {
            RollUp[] row = a.rollUps[p];
            for (int s = 0; row != null && s < row.length; s++) {
                if (row[s] != null && row[s].records > 0) {
                    Type t = WindowAccumulator.ROLLED_UP[s];
                    long total = p < a.stats.length ? a.stats[p].totValues : 0;
                    RecordResult tmp = new RecordResult();
                    int i = tmp.add(p, t);
                    out.add(finding(schema, tmp, i, row[s], t, total, a.numExamples));
                }
            }
        }
        ByteKeyTable names = a.unknownNames;
        for (int id = 0; id < names.size(); id++) {
            RecordResult tmp = new RecordResult();
            int start = names.keyStart(id);
            int section = names.pool()[start];
            int i =
                    tmp.addUnknown(
                            names.pool(),
                            start + 1,
                            names.keyEnd(id) - start - 1,
                            Type.SCHEMA_NEW_COLUMN,
                            section);
            out.add(
                    finding(
                            schema,
                            tmp,
                            i,
                            a.unknownRollUps[id],
                            Type.SCHEMA_NEW_COLUMN,
                            0,
                            a.numExamples));
        }
    }

    private static WindowFinding finding(
            ValidationSchema schema,
            RecordResult tmp,
            int i,
            RollUp u,
            Type t,
            long total,
            long n) {
        tmp.set(
                i,
                u.variant,
                t == Type.ENUM_TYPE_UNEXPECTED_STRING_VALUES ? total : u.n1,
                u.n2,
                u.d1,
                u.d2);
        for (int k = 0; k < u.samples.size(); k++) {
            tmp.sample(
                    i,
                    u.samples.pool(),
                    u.samples.keyStart(k),
                    u.samples.keyEnd(k) - u.samples.keyStart(k),
                    u.samples.count(k),
                    Integer.MAX_VALUE);
        }
        List<ExampleRef> refs = new ArrayList<>();
        for (int k = 0; k < u.refs; k++) {
            refs.add(
                    new ExampleRef(
                            u.refSource[k], u.refPartition[k], u.refOffset[k], u.refEventTime[k]));
        }
        return new WindowFinding(
                tmp.finding(i, schema),
                AlertScope.RECORD,
                u.records,
                u.firstSeen,
                u.lastSeen,
                refs,
                Map.of("affected_fraction", n == 0 ? 0.0 : (double) u.records / n),
                Map.of(),
                null);
    }

    /** {@code ENUM_TYPE_UNEXPECTED_STRING_VALUES} over the window, with {@code min_domain_mass}. */
    static WindowFinding offDomain(FeatureRule r, FeatureStats s, double off, long n) {
        ByteKeyTable t = s.offDomain;
        byte[][] values = new byte[t.size()][];
        long[] counts = new long[t.size()];
        List<SampleValue> samples = new ArrayList<>();
        for (int k = 0; k < t.size(); k++) {
            values[k] = t.key(k);
            counts[k] = t.count(k);
            samples.add(new SampleValue(TfdvFormat.cEscape(values[k]), counts[k]));
        }
        String text = AnomalyText.unexpectedStrings(values, counts, s.totValues);
        Finding f =
                new Finding(
                        r.path,
                        Type.ENUM_TYPE_UNEXPECTED_STRING_VALUES,
                        "Unexpected string values",
                        text,
                        samples);
        return new WindowFinding(
                f,
                AlertScope.WINDOW,
                n,
                Long.MAX_VALUE,
                Long.MIN_VALUE,
                List.of(),
                Map.of("off_domain_fraction", off),
                Map.of("distribution_constraints.min_domain_mass", 1 - r.maxOffDomain),
                null);
    }
}
