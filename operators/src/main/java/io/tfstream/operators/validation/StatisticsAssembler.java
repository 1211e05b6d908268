package io.tfstream.operators.validation;

import io.tfstream.api.model.ValidationOutput;
import io.tfstream.stats.StatsOptions;
import io.tfstream.validation.WindowStatistics;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tensorflow.metadata.v0.DatasetFeatureStatistics;
import org.tensorflow.metadata.v0.DatasetFeatureStatisticsList;
import org.tensorflow.metadata.v0.FeatureNameStatistics;
import org.tensorflow.metadata.v0.StringStatistics;

/**
 * Keyed by window and schema fingerprint ({@code <start>/<end>/<fingerprint>}): gathers the
 * statistics every feature-path split of the window evaluation reported for the window ({@link
 * WindowAlertFunction#STATISTICS_PARTS}) and, when the watermark passes the window's end (after
 * every split has fired for it, since each forwards the watermark only after its timers), emits the
 * window's TFDV statistics as one {@code DatasetFeatureStatisticsList} keyed {@code
 * <start>/<fingerprint>}: its dataset named after the window ({@code <start>/<end>}, ISO-8601), or,
 * with statistics per data split, one dataset per split named after it, in the splits' order.
 *
 * <p>A message above {@link #MAX_BYTES} (a Kafka producer's default limit is 1 MiB) is trimmed,
 * each step only when the previous one was not enough: rank histograms cut to the top values, rank
 * histograms left out, numeric and value-count histograms left out; the trimming is logged and
 * counted ({@code statisticsTrimmed}).
 */
@Internal
public final class StatisticsAssembler
        extends KeyedProcessFunction<String, ValidationOutput, ValidationOutput> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(StatisticsAssembler.class);

    /** Largest statistics message written as is. */
    public static final int MAX_BYTES = 900 * 1024;

    private final ValidationSettings settings;
    private transient ListState<byte[]> parts;
    private transient StatsOptions options;
    private transient Counter trimmed;

    public StatisticsAssembler(ValidationSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    public void open(OpenContext openContext) {
        options = settings.statisticsOptions();
        parts =
                getRuntimeContext()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "statistics-parts",
                                        PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        trimmed =
                getRuntimeContext()
                        .getMetricGroup()
                        .addGroup("tfstream")
                        .counter("statisticsTrimmed");
    }

    /** The part key of a window's statistics of schema {@code fingerprint}. */
    static String partKey(long start, long end, String fingerprint) {
        return start + "/" + end + "/" + fingerprint;
    }

    @Override
    public void processElement(ValidationOutput part, Context ctx, Collector<ValidationOutput> out)
            throws Exception {
        parts.add(part.value());
        ctx.timerService().registerEventTimeTimer(end(part.key()) - 1);
    }

    private static long start(String key) {
        return Long.parseLong(key.substring(0, key.indexOf('/')));
    }

    private static long end(String key) {
        int a = key.indexOf('/');
        return Long.parseLong(key.substring(a + 1, key.indexOf('/', a + 1)));
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<ValidationOutput> out)
            throws Exception {
        String key = ctx.getCurrentKey();
        // the parts by dataset: "" without data splits, else each split's name
        Map<String, List<DatasetFeatureStatistics>> got = new TreeMap<>(datasetOrder());
        for (byte[] p : parts.get()) {
            DatasetFeatureStatistics part = DatasetFeatureStatistics.parseFrom(p);
            got.computeIfAbsent(part.getName(), k -> new ArrayList<>()).add(part);
        }
        parts.clear();
        if (got.isEmpty()) {
            return;
        }
        long start = start(key);
        long end = end(key);
        String fingerprint = key.substring(key.indexOf('/', key.indexOf('/') + 1) + 1);
        String window = Instant.ofEpochMilli(start) + "/" + Instant.ofEpochMilli(end);
        DatasetFeatureStatisticsList.Builder list = DatasetFeatureStatisticsList.newBuilder();
        for (Map.Entry<String, List<DatasetFeatureStatistics>> e : got.entrySet()) {
            String name = e.getKey().isEmpty() ? window : e.getKey();
            list.addDatasets(WindowStatistics.assemble(e.getValue(), name, options));
        }
        out.collect(new ValidationOutput(start + "/" + fingerprint, fit(list.build(), key)));
    }

    /** Datasets in the data splits' order (names not configured after them, by name). */
    private Comparator<String> datasetOrder() {
        List<String> order = settings.dataSplitNames();
        return Comparator.comparingInt(
                        (String n) -> order.indexOf(n) < 0 ? order.size() : order.indexOf(n))
                .thenComparing(Comparator.naturalOrder());
    }

    /** The message's bytes, trimmed step by step while above {@link #MAX_BYTES}. */
    private byte[] fit(DatasetFeatureStatisticsList list, String key) {
        if (list.getSerializedSize() <= MAX_BYTES) {
            return list.toByteArray();
        }
        DatasetFeatureStatisticsList t = list;
        for (int step = 1; step <= 3 && t.getSerializedSize() > MAX_BYTES; step++) {
            t = trim(t, step);
        }
        trimmed.inc();
        LOG.warn(
                "statistics of window {}: {} bytes trimmed to {} (above {} bytes: rank"
                        + " histograms, then histograms left out)",
                key,
                list.getSerializedSize(),
                t.getSerializedSize(),
                MAX_BYTES);
        return t.toByteArray();
    }

    /** Step 1: rank histograms cut to the top values; 2: no rank histograms; 3: no histograms. */
    static DatasetFeatureStatisticsList trim(DatasetFeatureStatisticsList list, int step) {
        DatasetFeatureStatisticsList.Builder b = list.toBuilder();
        for (DatasetFeatureStatistics.Builder d : b.getDatasetsBuilderList()) {
            for (FeatureNameStatistics.Builder f : d.getFeaturesBuilderList()) {
                if (f.hasStringStats()) {
                    StringStatistics.Builder s = f.getStringStatsBuilder();
                    if (step == 1 && s.hasRankHistogram()) {
                        var rank = s.getRankHistogramBuilder();
                        while (rank.getBucketsCount() > s.getTopValuesCount()) {
                            rank.removeBuckets(rank.getBucketsCount() - 1);
                        }
                    } else if (step >= 2) {
                        s.clearRankHistogram();
                    }
                    if (step == 3) {
                        s.getCommonStatsBuilder().clearNumValuesHistogram();
                    }
                }
                if (f.hasNumStats() && step == 3) {
                    f.getNumStatsBuilder().clearHistograms();
                    f.getNumStatsBuilder().getCommonStatsBuilder().clearNumValuesHistogram();
                }
                if (step == 3) {
                    f.clearCustomStats();
                }
            }
        }
        return b.build();
    }
}
