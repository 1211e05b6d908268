package io.tfstream.sql;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfstream.testkit.KafkaTestBase;
import io.tfstream.testkit.MiniClusters;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.tensorflow.example.Example;
import org.tensorflow.example.Feature;

/**
 * {@code upsert-kafka} with {@code 'key.format' = 'tf-example'} and {@code 'value.format' =
 * 'tf-example'} on a real broker: a changelog of inserts, an update and a delete is written as one
 * keyed Example per upsert and a tombstone (null value) per delete, and read back through SQL as
 * the same changelog.
 */
class SqlUpsertKafkaITCase extends KafkaTestBase {
    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

    private static final String TABLE =
            "CREATE TABLE u (id BIGINT, name STRING, score DOUBLE, PRIMARY KEY (id) NOT ENFORCED)"
                    + " WITH ('connector' = 'upsert-kafka', 'topic' = 'upserts',"
                    + " 'properties.bootstrap.servers' = '%s', 'properties.group.id' = 'u',"
                    + " 'scan.bounded.mode' = 'latest-offset',"
                    + " 'key.format' = 'tf-example', 'value.format' = 'tf-example')";

    @Test
    void upsertsAndDeletesAreKeyedExamplesAndTombstones() throws Exception {
        kafka.createTopic("upserts", 1);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.executeSql(String.format(TABLE, kafka.bootstrapServers()));
        var changes =
                env.fromData(
                        Types.ROW_NAMED(
                                new String[] {"id", "name", "score"},
                                Types.LONG,
                                Types.STRING,
                                Types.DOUBLE),
                        Row.ofKind(RowKind.INSERT, 1L, "a", 0.5),
                        Row.ofKind(RowKind.INSERT, 2L, "b", 1.5),
                        Row.ofKind(RowKind.INSERT, 3L, "c", 2.5),
                        Row.ofKind(RowKind.UPDATE_BEFORE, 1L, "a", 0.5),
                        Row.ofKind(RowKind.UPDATE_AFTER, 1L, "a2", 0.75),
                        Row.ofKind(RowKind.DELETE, 2L, "b", 1.5),
                        Row.ofKind(RowKind.INSERT, 4L, null, 4.0));
        tEnv.createTemporaryView(
                "changes",
                tEnv.fromChangelogStream(
                        changes,
                        Schema.newBuilder()
                                .column("id", DataTypes.BIGINT().notNull())
                                .column("name", DataTypes.STRING())
                                .column("score", DataTypes.DOUBLE())
                                .primaryKey("id")
                                .build()));
        tEnv.executeSql("INSERT INTO u SELECT id, name, score FROM changes").await();

        List<String> messages = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : kafka.readCommitted("upserts")) {
            Map<String, Feature> key = Example.parseFrom(r.key()).getFeatures().getFeatureMap();
            assertEquals(List.of("id"), List.copyOf(key.keySet()), "the key holds the key column");
            long id = key.get("id").getInt64List().getValue(0);
            if (r.value() == null) {
                messages.add(id + "=tombstone");
                continue;
            }
            Map<String, Feature> v =
                    new TreeMap<>(Example.parseFrom(r.value()).getFeatures().getFeatureMap());
            assertEquals(id, v.get("id").getInt64List().getValue(0));
            String name =
                    v.containsKey("name")
                            ? v.get("name").getBytesList().getValue(0).toStringUtf8()
                            : "absent";
            messages.add(id + "=" + name + "/" + v.get("score").getFloatList().getValue(0));
        }
        assertEquals(
                List.of(
                        "1=a/0.5",
                        "2=b/1.5",
                        "3=c/2.5",
                        "1=a2/0.75",
                        "2=tombstone",
                        "4=absent/4.0"),
                messages);

        List<String> read = SqlTestSupport.rows(tEnv, "SELECT id, name, score FROM u");
        assertArrayEquals(
                new String[] {
                    "+I[1, a, 0.5]",
                    "+I[2, b, 1.5]",
                    "+I[3, c, 2.5]",
                    "-U[1, a, 0.5]",
                    "+U[1, a2, 0.75]",
                    "-D[2, b, 1.5]",
                    "+I[4, null, 4.0]"
                },
                read.toArray(new String[0]),
                "read back as the changelog written: " + read);
    }
}
