package io.tfstream.operators.shards;

import io.tfstream.api.model.SourceRecord;
import io.tfstream.operators.source.SourceRecordSerializer;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.clusterframework.types.ResourceID;
import org.apache.flink.runtime.executiongraph.ExecutionGraphTestUtils;
import org.apache.flink.runtime.metrics.groups.TaskManagerMetricGroup;
import org.apache.flink.runtime.metrics.groups.TaskMetricGroup;
import org.apache.flink.runtime.metrics.util.TestingMetricRegistry;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;

/** A shard guard in Flink's operator test harness, its metrics registered in a real group. */
final class GuardHarness {
    private GuardHarness() {}

    /**
     * The opened harness of {@code guard} at processing time {@code now}; every metric it registers
     * goes into {@code metrics} as "{group}.{name}".
     */
    static OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> open(
            ProcessFunction<SourceRecord, SourceRecord> guard,
            Map<String, Metric> metrics,
            long now)
            throws Exception {
        TestingMetricRegistry registry =
                TestingMetricRegistry.builder()
                        .setRegisterConsumer(
                                (metric, name, group) -> {
                                    String[] scope = group.getScopeComponents();
                                    metrics.put(scope[scope.length - 1] + "." + name, metric);
                                })
                        .build();
        TaskMetricGroup task =
                TaskManagerMetricGroup.createTaskManagerMetricGroup(
                                registry, "localhost", ResourceID.generate())
                        .addJob(new JobID(), "job")
                        .addTask(ExecutionGraphTestUtils.createExecutionAttemptId(), "task");
        MockEnvironment env = new MockEnvironmentBuilder().setMetricGroup(task).build();
        OneInputStreamOperatorTestHarness<SourceRecord, SourceRecord> h =
                new OneInputStreamOperatorTestHarness<>(
                        new ProcessOperator<>(guard), SourceRecordSerializer.INSTANCE, env);
        h.setup(SourceRecordSerializer.INSTANCE);
        h.open();
        h.setProcessingTime(now);
        return h;
    }
}
