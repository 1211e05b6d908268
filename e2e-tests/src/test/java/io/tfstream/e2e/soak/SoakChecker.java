package io.tfstream.e2e.soak;

import io.tfstream.e2e.cluster.OutputAudit;
import io.tfstream.operators.deadletter.DeadLetterHeaders;
import io.tfstream.proto.v1.SourceRange;
import io.tfstream.proto.v1.TensorBatch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Compares every output with the input while the soak runs: a {@code read_committed} consumer of
 * the payloads and one of the dead letters, and a reader of the finished shards as they appear. A
 * duplicate, a record that was never produced, or a good record dead-lettered is an event the
 * moment it is seen; a record still missing from an output {@link #OVERDUE} after it was
 * acknowledged is reported as overdue (lost, if it is still missing after the drain).
 */
final class SoakChecker implements AutoCloseable {
    /** How long after its acknowledgement a record may be missing from an output. */
    static final Duration OVERDUE = Duration.ofMinutes(5);

    /** What the checker saw and when. */
    record Event(long atMillis, String output, String what) {}

    /** One output's tally after the drain. */
    record Tally(String output, long expected, long found, long lost, long duplicated) {
        boolean exact() {
            return lost == 0 && duplicated == 0 && found == expected;
        }
    }

    private final SoakProducer input;
    private final String inputTopic;
    private final Clock clock;
    private final Path shardDir;
    private final SeqFlags payloads = new SeqFlags();
    private final SeqFlags deadLetters = new SeqFlags();
    private final SeqFlags shards = new SeqFlags();
    private final List<Event> events = new CopyOnWriteArrayList<>();
    private final Map<String, Long> overdue = new HashMap<>();
    private final Map<String, Long> firstUnseen = new HashMap<>();
    private final Set<Path> shardsRead = new HashSet<>();
    private final Map<Path, Long> shardSizes = new HashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private final Deque<Payload> unresolved = new ArrayDeque<>();
    private final String bootstrapServers;
    private volatile boolean stop;

    SoakChecker(
            SoakProducer input,
            String bootstrapServers,
            String inputTopic,
            String payloadTopic,
            String deadLetterTopic,
            Path shardDir,
            Clock clock) {
        this.input = input;
        this.bootstrapServers = bootstrapServers;
        this.inputTopic = inputTopic;
        this.shardDir = shardDir;
        this.clock = clock;
        threads.add(consumer(payloadTopic, this::payload));
        threads.add(consumer(deadLetterTopic, this::deadLetter));
        Thread scan = new Thread(this::scanShardsEvery10s, "soak-shards");
        scan.setDaemon(true);
        threads.add(scan);
    }

    void start() {
        threads.forEach(Thread::start);
    }

    List<Event> events() {
        return List.copyOf(events);
    }

    /** Records at least {@link #OVERDUE} late, by output, at the last check. */
    synchronized Map<String, Long> overdue() {
        Map<String, Long> now = new HashMap<>();
        long bound = input.acknowledgedBelow(clock.millis() - OVERDUE.toMillis());
        for (String output : List.of("payloads", "dead letters", "shards")) {
            long late = unseen(output, bound);
            if (late > overdue.getOrDefault(output, 0L)) {
                event(output, late + " records unseen " + OVERDUE.toMinutes() + " min after input");
            }
            overdue.put(output, late);
            now.put(output, late);
        }
        return now;
    }

    /** Records of {@code output} unseen among every one produced so far. */
    synchronized long missing(String output) {
        return unseen(output, input.acknowledgedBelow(Long.MAX_VALUE));
    }

    /**
     * Records, good or broken, of {@code output} that are unseen among those below {@code bound}.
     */
    private long unseen(String output, long bound) {
        SeqFlags flags = flags(output);
        boolean wantBroken = output.equals("dead letters");
        long from = firstUnseen.getOrDefault(output, 0L);
        long late = 0;
        boolean contiguous = true;
        for (long seq = from; seq < bound; seq++) {
            if (SoakRecords.broken(seq) != wantBroken || input.failed(seq)) {
                if (contiguous) {
                    from = seq + 1;
                }
                continue;
            }
            if (flags.count(seq) == 0) {
                late++;
                contiguous = false;
            } else if (contiguous) {
                from = seq + 1;
            }
        }
        firstUnseen.put(output, from);
        return late;
    }

    private SeqFlags flags(String output) {
        switch (output) {
            case "payloads":
                return payloads;
            case "dead letters":
                return deadLetters;
            default:
                return shards;
        }
    }

    /**
     * The tallies of the three outputs over the {@code produced} records (after the drain and a
     * last scan of the shards).
     */
    List<Tally> tallies(long produced) throws Exception {
        // after the drain every shard is whole: a shard is read once two scans saw its size
        io.tfstream.testkit.Waits.waitFor(
                () -> {
                    scanShards();
                    return unreadShards() == 0;
                },
                Duration.ofMinutes(2),
                "every finished shard read");
        List<Tally> out = new ArrayList<>();
        for (String output : List.of("payloads", "shards", "dead letters")) {
            SeqFlags flags = flags(output);
            boolean wantBroken = output.equals("dead letters");
            long expected = 0;
            long found = 0;
            long lost = 0;
            long duplicated = 0;
            for (long seq = 0; seq < produced; seq++) {
                if (SoakRecords.broken(seq) != wantBroken || input.failed(seq)) {
                    continue;
                }
                expected++;
                int c = flags.count(seq);
                if (c == 0) {
                    lost++;
                } else {
                    found++;
                    duplicated += c - 1;
                }
            }
            out.add(new Tally(output, expected, found, lost, duplicated));
        }
        return out;
    }

    private synchronized long unreadShards() throws IOException {
        return Files.isDirectory(shardDir)
                ? OutputAudit.shardFiles(shardDir).stream()
                        .filter(p -> !shardsRead.contains(p))
                        .count()
                : 0;
    }

    /** The finished shards read so far. */
    synchronized List<Path> shardsRead() {
        return new ArrayList<>(shardsRead);
    }

    private void payload(ConsumerRecord<byte[], byte[]> r) {
        TensorBatch b;
        try {
            b = TensorBatch.parseFrom(r.value());
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            event("payloads", "a committed payload that does not parse at " + r.offset());
            return;
        }
        synchronized (unresolved) {
            // its source ranges and row count, not its tensors: a backlog of payloads must stay
            // small
            unresolved.addLast(
                    new Payload(String.valueOf(b.getBatchId()), b.getRows(), b.getSourcesList()));
        }
        resolvePending();
    }

    /** What the checker needs of a payload. */
    private record Payload(String batchId, long rows, List<SourceRange> sources) {}

    /** Counts the payloads whose every offset the producer now knows; returns how many wait. */
    private int resolvePending() {
        synchronized (unresolved) {
            // a payload may name an offset whose acknowledgement the producer has not seen yet
            for (int n = unresolved.size(); n > 0; n--) {
                Payload next = unresolved.removeFirst();
                if (!count(next)) {
                    unresolved.addLast(next);
                }
            }
            return unresolved.size();
        }
    }

    /** Counts the good records of {@code b}'s source ranges, or returns false if one is unknown. */
    private boolean count(Payload b) {
        List<Long> seqs = new ArrayList<>();
        for (SourceRange range : b.sources()) {
            if (!range.getTopic().equals(inputTopic)) {
                event("payloads", "a source range of topic " + range.getTopic());
                return true;
            }
            for (long o = range.getFirstOffset(); o <= range.getLastOffset(); o++) {
                long seq = input.seqAt(range.getPartition(), o);
                if (seq < 0) {
                    return false;
                }
                if (!SoakRecords.broken(seq)) {
                    seqs.add(seq);
                }
            }
        }
        if (seqs.size() != b.rows()) {
            event(
                    "payloads",
                    "payload "
                            + b.batchId()
                            + " has "
                            + b.rows()
                            + " rows, its ranges "
                            + seqs.size()
                            + " good records");
        }
        for (long seq : seqs) {
            if (payloads.mark(seq) > 0) {
                event("payloads", "record " + seq + " duplicated (payload " + b.batchId() + ")");
            }
        }
        return true;
    }

    private void deadLetter(ConsumerRecord<byte[], byte[]> r) {
        long seq = SoakRecords.seqOfKey(r.key());
        if (seq < 0) {
            event("dead letters", "a dead letter with a key never produced at " + r.offset());
            return;
        }
        if (!SoakRecords.broken(seq)) {
            event(
                    "dead letters",
                    "good record "
                            + seq
                            + " dead-lettered: "
                            + header(r, DeadLetterHeaders.REASON));
        } else if (!Arrays.equals(SoakRecords.value(seq), r.value())) {
            event("dead letters", "dead letter " + seq + ": its bytes differ from the input's");
        } else if (!sourceMatches(seq, r)) {
            event("dead letters", "dead letter " + seq + ": its source position is not its own");
        }
        if (deadLetters.mark(seq) > 0) {
            event("dead letters", "record " + seq + " dead-lettered twice");
        }
    }

    private boolean sourceMatches(long seq, ConsumerRecord<byte[], byte[]> r) {
        String topic = header(r, DeadLetterHeaders.SOURCE_TOPIC);
        String partition = header(r, DeadLetterHeaders.SOURCE_PARTITION);
        String offset = header(r, DeadLetterHeaders.SOURCE_OFFSET);
        if (!inputTopic.equals(topic) || partition == null || offset == null) {
            return false;
        }
        long at = input.seqAt(Integer.parseInt(partition), Long.parseLong(offset));
        return at < 0 || at == seq; // not yet acknowledged to the producer: judged by the key
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private void scanShardsEvery10s() {
        while (!stop) {
            scanShards();
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Reads each finished shard once its size has held for one scan (S3Proxy writes an object's
     * file as it completes it); one that does not read is tried again at the next scan.
     */
    synchronized void scanShards() {
        List<Path> files;
        try {
            files = Files.isDirectory(shardDir) ? OutputAudit.shardFiles(shardDir) : List.of();
        } catch (IOException e) {
            return; // a bucket directory changing under the walk: the next scan sees it
        }
        for (Path shard : files) {
            if (shardsRead.contains(shard)) {
                continue;
            }
            long size;
            try {
                size = Files.size(shard);
            } catch (IOException e) {
                continue;
            }
            Long before = shardSizes.put(shard, size);
            if (before == null || before != size) {
                continue;
            }
            List<byte[]> records;
            try {
                records = OutputAudit.readShard(shard);
            } catch (IOException notYetWhole) {
                continue;
            }
            shardsRead.add(shard);
            for (byte[] record : records) {
                long seq = SoakRecords.seqOf(record);
                if (seq < 0 || SoakRecords.broken(seq)) {
                    event("shards", shard.getFileName() + " holds a record that is not good input");
                } else if (!Arrays.equals(SoakRecords.value(seq), record)) {
                    event("shards", shard.getFileName() + ": record " + seq + " differs");
                } else if (shards.mark(seq) > 0) {
                    event("shards", "record " + seq + " duplicated (" + shard.getFileName() + ")");
                }
            }
        }
    }

    private Thread consumer(String topic, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        Thread t =
                new Thread(
                        () -> {
                            Properties p = new Properties();
                            p.setProperty(
                                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
                            p.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
                            p.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
                            try (KafkaConsumer<byte[], byte[]> c =
                                    new KafkaConsumer<>(
                                            p,
                                            new ByteArrayDeserializer(),
                                            new ByteArrayDeserializer())) {
                                List<TopicPartition> parts = new ArrayList<>();
                                c.partitionsFor(topic, Duration.ofMinutes(5))
                                        .forEach(
                                                i ->
                                                        parts.add(
                                                                new TopicPartition(
                                                                        topic, i.partition())));
                                c.assign(parts);
                                c.seekToBeginning(parts);
                                while (!stop) {
                                    c.poll(Duration.ofMillis(500)).forEach(each);
                                }
                            } catch (RuntimeException e) {
                                if (!stop) {
                                    event(topic, "its consumer failed: " + e);
                                }
                            }
                        },
                        "soak-" + topic);
        t.setDaemon(true);
        return t;
    }

    /**
     * Waits until the consumers have read every committed record of their topics as of now (after
     * the drain, so that the tallies see everything).
     */
    void awaitCaughtUp(String payloadTopic, String deadLetterTopic) throws Exception {
        long rows = OutputAudit.payloadRows(bootstrapServers, payloadTopic);
        long letters =
                io.tfstream.e2e.cluster.CommittedRecords.forEach(
                        bootstrapServers, deadLetterTopic, r -> {});
        io.tfstream.testkit.Waits.waitFor(
                () ->
                        resolvePending() == 0
                                && payloads.marks() >= rows
                                && deadLetters.marks() >= letters,
                Duration.ofMinutes(3),
                "the checker's consumers at the end of the payloads and the dead letters");
    }

    /** Records what the harness saw of {@code source} (an output, the cluster). */
    void event(String output, String what) {
        Event e = new Event(clock.millis(), output, what);
        events.add(e);
        System.out.println("[soak] " + output + ": " + what);
    }

    @Override
    public void close() {
        stop = true;
        for (Thread t : threads) {
            t.interrupt();
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
