package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cluster entry point names the options a cluster does not take from the job. */
class TfstreamJobTest {
    private static Map<String, Object> minimal() {
        Map<String, Object> m = new HashMap<>();
        m.put("source.bootstrap-servers", "localhost:9092");
        m.put("source.topics", "in");
        m.put("spec.path", "spec.json");
        m.put("dlq.topic", "dlq");
        return m;
    }

    @Test
    void optionsThatDoNothingOnAClusterAreNamed() {
        assertEquals(List.of(), TfstreamJob.clusterWarnings(JobConfig.of(minimal())));
        Map<String, Object> m = minimal();
        m.put("rest.port", 9000);
        m.put("s3.endpoint", "http://127.0.0.1:9000");
        m.put("s3.path-style-access", true);
        List<String> w = TfstreamJob.clusterWarnings(JobConfig.of(m));
        assertEquals(2, w.size(), w.toString());
        assertTrue(w.get(0).startsWith("rest.port applies to tfstream run only"), w.get(0));
        assertTrue(w.get(1).startsWith("s3.endpoint reaches tfstream's S3 shard writer only"));
    }
}
