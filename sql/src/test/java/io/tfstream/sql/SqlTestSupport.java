package io.tfstream.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/** The Flink SQL ITCases' recovering configuration and how they read a query's rows. */
public final class SqlTestSupport {
    private SqlTestSupport() {}

    /**
     * Checkpoints every 300 ms and a restart strategy that keeps retrying while a killed
     * TaskManager is replaced.
     */
    static Configuration recoveringConfiguration() {
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.interval", "300 ms");
        conf.setString("restart-strategy.type", "fixed-delay");
        conf.setString("restart-strategy.fixed-delay.attempts", "1000");
        conf.setString("restart-strategy.fixed-delay.delay", "200 ms");
        return conf;
    }

    /** The rows of bounded query {@code sql} as {@code Row#toString()}, in their order. */
    public static List<String> rows(TableEnvironment env, String sql) throws Exception {
        List<String> rows = new ArrayList<>();
        // Not try-with-resources: CloseableIterator#close throws Exception (lint "try").
        CloseableIterator<Row> it = env.executeSql(sql).collect();
        try {
            it.forEachRemaining(r -> rows.add(r.toString()));
        } finally {
            it.close();
        }
        return rows;
    }
}
