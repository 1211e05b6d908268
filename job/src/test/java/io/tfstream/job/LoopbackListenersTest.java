package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.junit.jupiter.api.Test;

/** The listeners' rule: loopback and no jar upload by default, what is configured wins. */
class LoopbackListenersTest {
    @Test
    void everyListenerOnLoopbackAndNoJarUploadByDefault() {
        Configuration c = LoopbackListeners.apply(new Configuration());
        assertEquals("localhost", c.get(RestOptions.BIND_ADDRESS));
        assertEquals("localhost", c.get(JobManagerOptions.BIND_HOST));
        assertEquals("localhost", c.get(TaskManagerOptions.BIND_HOST));
        assertFalse(c.get(WebOptions.SUBMIT_ENABLE), "web.submit.enable");
    }

    @Test
    void whatIsConfiguredWins() {
        Configuration given = new Configuration();
        given.set(RestOptions.BIND_ADDRESS, "0.0.0.0");
        given.set(WebOptions.SUBMIT_ENABLE, true);
        Configuration c = LoopbackListeners.apply(given);
        assertEquals("0.0.0.0", c.get(RestOptions.BIND_ADDRESS));
        assertEquals(true, c.get(WebOptions.SUBMIT_ENABLE));
        assertEquals("localhost", c.get(JobManagerOptions.BIND_HOST));
    }
}
