package io.tfstream.api;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** How the builders' errors name a setting. */
final class BuilderErrors {
    private BuilderErrors() {}

    /**
     * A builder error names {@code setting}: it starts with the name, or is an option check's
     * "invalid value '...' for NAME: expected ...".
     */
    static void assertNamed(String message, String setting) {
        assertTrue(
                message.startsWith(setting) || message.contains(" for " + setting + ": expected"),
                message);
    }
}
