package io.tfstream.e2e.soak;

import java.time.Clock;
import java.util.Arrays;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Appends {@link SoakRecords} to the input topic at a steady rate, as an upstream service would
 * (idempotent, {@code acks=all}, retrying through a broker outage and catching up after it), and
 * remembers where each record landed: the sequence number at every offset of every partition, and
 * when each was acknowledged, so that the checker can tell a record that is late from one that is
 * lost.
 */
final class SoakProducer implements AutoCloseable {
    private final String topic;
    private final int rate;
    private final Clock clock;
    private final KafkaProducer<byte[], byte[]> producer;
    private final Thread thread;
    private final Map<Integer, OffsetTable> partitions = new ConcurrentHashMap<>();
    private final Map<Long, Long> failed = new ConcurrentHashMap<>();

    /** Acknowledgement time (epoch ms) → every seq below this one had been acknowledged by then. */
    private final ConcurrentSkipListMap<Long, Long> ackedBelow = new ConcurrentSkipListMap<>();

    private final AtomicLong sent = new AtomicLong();
    private final SeqFlags acks = new SeqFlags();
    private volatile boolean stop;
    private volatile Throwable error;

    SoakProducer(String bootstrapServers, String topic, int rate, Clock clock) {
        this.topic = topic;
        this.rate = rate;
        this.clock = clock;
        Properties p = io.tfstream.e2e.cluster.InputProducer.settings(bootstrapServers);
        p.setProperty(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "600000");
        // a broker outage blocks send() instead of failing it; the schedule catches up afterwards
        p.setProperty(ProducerConfig.MAX_BLOCK_MS_CONFIG, "600000");
        producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        thread = new Thread(this::run, "soak-producer");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run() {
        long start = System.nanoTime();
        try {
            for (long seq = 0; !stop; seq++) {
                long s = seq;
                producer.send(
                        new ProducerRecord<>(topic, SoakRecords.key(s), SoakRecords.value(s)),
                        (m, e) -> {
                            if (e != null) {
                                failed.put(s, clock.millis());
                            } else {
                                partitions
                                        .computeIfAbsent(m.partition(), k -> new OffsetTable())
                                        .put(m.offset(), s);
                            }
                            acks.mark(s);
                        });
                sent.set(seq + 1);
                if (seq % 50 == 49) {
                    long wait = start + (seq + 1) * 1_000_000_000L / rate - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                    noteAcknowledged();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            error = e;
        }
    }

    /** Notes, with the time, the first seq whose send has not called back yet. */
    private void noteAcknowledged() {
        long below = acks.contiguous();
        Map.Entry<Long, Long> last = ackedBelow.lastEntry();
        if (last == null || last.getValue() < below) {
            ackedBelow.put(clock.millis(), below);
        }
    }

    /** Stops producing; returns once every record sent is acknowledged or failed. */
    void stopAndFlush() throws InterruptedException {
        stop = true;
        thread.join();
        producer.flush();
        noteAcknowledged();
    }

    /** Records sent (acknowledged or not). */
    long sent() {
        return sent.get();
    }

    /** Every seq below the result had been acknowledged at {@code epochMillis}. */
    long acknowledgedBelow(long epochMillis) {
        Map.Entry<Long, Long> e = ackedBelow.floorEntry(epochMillis);
        return e == null ? 0 : e.getValue();
    }

    /** The seq at {@code offset} of {@code partition}, or -1 while its acknowledgement is due. */
    long seqAt(int partition, long offset) {
        OffsetTable t = partitions.get(partition);
        return t == null ? -1 : t.get(offset);
    }

    /** Whether the broker never acknowledged {@code seq} (its output is then not judged). */
    boolean failed(long seq) {
        return failed.containsKey(seq);
    }

    int failedCount() {
        return failed.size();
    }

    Throwable error() {
        return error;
    }

    @Override
    public void close() {
        stop = true;
        producer.close();
    }

    /** The seq at each offset of one partition; offsets of a partition are dense from 0. */
    private static final class OffsetTable {
        private int[] seqs = filled(new int[1 << 16], 0);
        private long size;

        synchronized void put(long offset, long seq) {
            if (offset >= seqs.length) {
                int n = seqs.length;
                while (n <= offset) {
                    n *= 2;
                }
                int old = seqs.length;
                seqs = filled(Arrays.copyOf(seqs, n), old);
            }
            seqs[(int) offset] = (int) seq;
            size = Math.max(size, offset + 1);
        }

        /** {@code a} with every element from {@code from} on set to -1 (no seq known). */
        private static int[] filled(int[] a, int from) {
            Arrays.fill(a, from, a.length, -1);
            return a;
        }

        synchronized long get(long offset) {
            return offset < size ? seqs[(int) offset] : -1;
        }
    }
}
