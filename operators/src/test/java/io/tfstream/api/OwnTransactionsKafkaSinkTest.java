package io.tfstream.api;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which transactional ids a sink that owns one prefix leaves alone. */
class OwnTransactionsKafkaSinkTest {
    @Test
    void onlyThePrefixsOwnIdsAreOwned() {
        assertTrue(OwnTransactionsKafkaSink.owns("blue-dlq", "blue-dlq-0-5"));
        assertTrue(OwnTransactionsKafkaSink.owns("blue-dlq", "blue-dlq-12-1234567"));
        // another job whose name starts with this prefix
        assertFalse(OwnTransactionsKafkaSink.owns("blue-dlq", "blue-dlq-green-dlq-0-5"));
        assertFalse(OwnTransactionsKafkaSink.owns("blue-dlq", "green-dlq-0-5"));
        assertFalse(OwnTransactionsKafkaSink.owns("blue-dlq", "blue-dlq-0"));
        assertFalse(OwnTransactionsKafkaSink.owns("blue-dlq", null));
    }
}
