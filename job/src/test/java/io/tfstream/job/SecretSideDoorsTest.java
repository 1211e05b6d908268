package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Secrets that reach the job's configuration by a side door are refused at start, naming the key
 * and never the value: Flink settings that Flink or tfstream count as secret ({@code flink.*},
 * which the job graph and web UI carry), a JAAS line whose reference is beside an inline password,
 * and Kafka credentials that Kafka types as strings.
 */
class SecretSideDoorsTest {
    private static final String MARKER = "marker-secret-6b1f";

    private static Map<String, Object> with(String key, String value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source.bootstrap-servers", "localhost:9092");
        m.put("source.topics", "in");
        m.put("schema.path", "schema.pbtxt");
        m.put("dlq.topic", "dlq");
        m.put(key, value);
        return m;
    }

    private static String refused(String key, String value) {
        String msg =
                assertThrows(JobConfigException.class, () -> JobConfig.of(with(key, value)))
                        .getMessage();
        assertFalse(msg.contains(MARKER), msg);
        return msg;
    }

    @Test
    void flinkSettingsThatHoldSecretsAreRefusedWhateverTheirSpelling() {
        for (String key :
                List.of(
                        "flink.s3.secret-key",
                        "flink.s3.access-key",
                        "flink.fs.s3a.secret.key",
                        "flink.fs.s3a.access.key",
                        "flink.fs.azure.account.key.acct.blob.core.windows.net",
                        "flink.security.ssl.rest.keystore-password",
                        "flink.metrics.reporter.x.apikey",
                        "flink.kubernetes.token")) {
            String msg = refused(key, MARKER);
            assertTrue(msg.startsWith(key + ": secrets do not go into the job's Flink"), msg);
        }
    }

    @Test
    void flinkSettingsThatOnlyNameWhereASecretIsStayAccepted() {
        for (String key :
                List.of(
                        "flink.fs.s3a.aws.credentials.provider",
                        "flink.security.ssl.rest.keystore",
                        "flink.s3.endpoint")) {
            JobConfig.of(with(key, "x"));
        }
    }

    @Test
    void aJaasLineNeedsEveryCredentialAsAReferenceNotJustOne() {
        String mixed =
                "org.apache.kafka.common.security.plain.PlainLoginModule required"
                        + " username=\"${env:USER}\" password=\""
                        + MARKER
                        + "\";";
        String msg = refused("source.properties.sasl.jaas.config", mixed);
        assertTrue(
                msg.startsWith(
                        "source.properties.sasl.jaas.config (its JAAS option password): a secret is"
                                + " only taken as a reference"),
                msg);
        String oauth =
                "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required"
                        + " clientId=\"tfstream\" clientSecret="
                        + MARKER
                        + ";";
        assertTrue(
                refused("output.properties.sasl.jaas.config", oauth)
                        .contains("(its JAAS option clientSecret)"));
        // a key tab is a file, a user name no secret
        JobConfig.of(
                with(
                        "source.properties.sasl.jaas.config",
                        "com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true"
                                + " keyTab=\"/etc/security/kafka.keytab\""
                                + " principal=\"tfstream@EXAMPLE.COM\";"));
    }

    @Test
    void credentialsKafkaTypesAsStringsAreReferencesToo() {
        for (String key :
                List.of(
                        "output.properties.basic.auth.user.info",
                        "source.properties.schema.registry.basic.auth.user.info",
                        "output.properties.bearer.auth.token")) {
            assertTrue(refused(key, "user:" + MARKER).startsWith(key + ": a secret is only"));
            JobConfig.of(with(key, "${file:/run/secrets/registry.properties:userinfo}"));
        }
    }

    @Test
    void theRuleNamesTheOptionAndNeverItsValue() {
        assertNull(InlineCredentials.find("sasl.jaas.config", "${env:JAAS}", true));
        assertTrue(
                InlineCredentials.find(
                                "sasl.jaas.config",
                                "x.LoginModule required password='" + MARKER + "';",
                                true)
                        .equals("sasl.jaas.config (its JAAS option password)"));
        assertNull(InlineCredentials.find("client.id", MARKER, false));
    }
}
