package io.tfstream.operators.shards.store;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import org.junit.jupiter.api.Test;

/**
 * The AWS SDK's default credential chain takes web-identity tokens (IAM roles for Kubernetes
 * service accounts) only when it finds the STS module's provider factory by this name; without it
 * the S3 shard writer silently falls through to the next provider.
 */
class S3CredentialsClasspathTest {
    @Test
    void theWebIdentityProviderOfTheDefaultChainIsOnTheClasspath() {
        assertDoesNotThrow(
                () ->
                        Class.forName(
                                "software.amazon.awssdk.services.sts.internal"
                                        + ".StsWebIdentityCredentialsProviderFactory"));
    }
}
