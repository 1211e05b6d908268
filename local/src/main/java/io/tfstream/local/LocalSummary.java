package io.tfstream.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The run's counts, as in {@code summary.json} and the report printed at the end. */
public record LocalSummary(
        long recordsIn,
        long accepted,
        long deadLettered,
        Map<String, Long> deadLetteredByReason,
        List<String> shards,
        long shardRecords,
        long batches,
        long batchRows,
        long alerts,
        long checkpoints,
        double seconds,
        SchemaCounts bySchema,
        LinkedHashMap<String, String> schemas,
        String stats) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The summary of {@code recordsIn} records that left {@code outputs}; {@code schemas} are the
     * run's schemas (fingerprint → its copy in the output directory) in the order given, {@code
     * stats} the statistics file in the output directory (null: none).
     */
    static LocalSummary of(
            long recordsIn,
            LocalOutputs outputs,
            long checkpoints,
            double seconds,
            LinkedHashMap<String, String> schemas,
            String stats) {
        return new LocalSummary(
                recordsIn,
                recordsIn - outputs.deadLettered(),
                outputs.deadLettered(),
                outputs.deadLetteredByReason(),
                outputs.shards().names(),
                outputs.shards().records(),
                outputs.batches(),
                outputs.batchRows(),
                outputs.alerts(),
                checkpoints,
                seconds,
                outputs.bySchema(),
                schemas,
                stats);
    }

    /**
     * Throws a {@link LocalRun.JobFailedException} unless every accepted record is in a shard once
     * and every parsed record is a payload row.
     */
    void checkAddsUp() {
        // Payloads are made by the parse, before the records it accepted are validated: records
        // dead-lettered after it (reason validation) are rows too.
        long parsed = accepted + deadLetteredByReason.getOrDefault("validation", 0L);
        if (shardRecords != accepted || batchRows != parsed) {
            throw new LocalRun.JobFailedException(
                    "the outputs do not add up: "
                            + accepted
                            + " accepted, "
                            + shardRecords
                            + " in shards, "
                            + batchRows
                            + " in payloads",
                    null);
        }
    }

    /** Writes {@code summary.json} to {@code file}, creating its directory. */
    void write(Path file) throws IOException {
        ObjectNode j = JSON.createObjectNode();
        j.put("records_in", recordsIn);
        j.put("accepted", accepted);
        j.put("dead_lettered", deadLettered);
        ObjectNode reasons = j.putObject("dead_lettered_by_reason");
        deadLetteredByReason.forEach(reasons::put);
        ArrayNode names = j.putArray("shards");
        shards.forEach(names::add);
        j.put("shard_records", shardRecords);
        j.put("batches", batches);
        j.put("batch_rows", batchRows);
        j.put("alerts", alerts);
        j.put("checkpoints", checkpoints);
        j.put("seconds", Math.round(seconds * 10) / 10.0);
        bySchema.write(j.putArray("schemas"), schemas);
        if (stats != null) {
            j.put("stats", stats);
            j.put("report", LocalStats.REPORT);
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(j) + "\n");
    }

    /** The closing report: the counts and where each output of {@code dir} is. */
    public void print(Path dir, PrintWriter out) {
        String reasons =
                deadLetteredByReason.isEmpty()
                        ? ""
                        : deadLetteredByReason.entrySet().stream()
                                .map(Map.Entry::toString)
                                .map(e -> e.replace('=', ' '))
                                .collect(Collectors.joining(", ", " (", ")"));
        out.printf(
                "tfstream local: %d records in = %d accepted + %d dead-lettered%s, %.1f s, %d"
                        + " checkpoints%n",
                recordsIn, accepted, deadLettered, reasons, seconds, checkpoints);
        String firstShard = shards.isEmpty() ? null : shards.get(0);
        boolean local = firstShard == null || !firstShard.contains("://");
        out.printf(
                "  shards:       %s  (%d files, %d records)%n",
                local
                        ? dir.resolve("shards")
                        : firstShard.substring(0, firstShard.lastIndexOf('/') + 1)
                                + "… (every path in summary.json)",
                shards.size(),
                shardRecords);
        out.printf(
                "  payloads:     %s  (%d TensorBatch messages, %d rows)%n",
                dir.resolve("batches.tfrecord"), batches, batchRows);
        out.printf("  dead letters: %s%n", dir.resolve("dlq.jsonl"));
        out.printf("  summary:      %s%n", dir.resolve("summary.json"));
        if (stats != null) {
            out.printf(
                    "  statistics:   %s  (TFDV's; infer a schema: bin/tfstream schema infer"
                            + " --stats '%s')%n",
                    dir.resolve(stats), dir.resolve(stats));
            out.printf(
                    "  report:       %s  (the statistics and alerts as a page, for a browser)%n",
                    dir.resolve(LocalStats.REPORT));
        }
        out.printf(
                "  schema:       %s  (its feature spec: %s)%n",
                schemas.values().iterator().next(), dir.resolve(LocalSchemaCopies.SPEC));
        if (firstShard != null && local) {
            Path shard = dir.resolve(firstShard);
            out.printf("  read a shard:   bin/tfstream cat --limit 1 '%s'%n", shard);
            out.printf(
                    "                  python3 -c \"import tfstream.payloads as p;"
                            + " print(next(p.records('%s'))[1][:40])\"  (raw records, no"
                            + " TensorFlow)%n",
                    shard);
            out.printf(
                    "                  python3 -c \"import tensorflow as tf;"
                            + " print(next(iter(tf.data.TFRecordDataset('%s'%s))))\"%n",
                    shard,
                    firstShard.endsWith(".gz")
                            ? ", 'GZIP'"
                            : firstShard.endsWith(".zz") ? ", 'ZLIB'" : "");
        }
        out.printf(
                "  read a payload: python3 -c \"import tfstream.payloads as p;"
                        + " print(next(p.read_file('%s')))\"  (pip install ./python;"
                        + " docs/python.md)%n",
                dir.resolve("batches.tfrecord"));
        out.flush();
    }
}
