package io.tfstream.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.local.BrokerSecurity;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclBinding;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job's Kafka clients on a broker that authenticates (SCRAM-SHA-512 over TLS, mutual TLS) and
 * authorizes (Kafka's StandardAuthorizer, nothing allowed without an ACL): the job runs with
 * exactly the ACLs {@link KafkaAcls} lists, secrets given only as references into an owner-only
 * file; each missing ACL, a wrong password and an untrusted broker certificate fail the start in
 * one line naming the client and the cause.
 */
class SecuredKafkaITCase {
    @RegisterExtension static final MiniClusterExtension FLINK = JobTestSupport.oneTaskManager(2);

    private static KafkaTestCluster kafka;

    @TempDir static Path dir;

    @BeforeAll
    static void start() throws Exception {
        kafka = KafkaTestCluster.startSecured(Duration.ofMinutes(15).toMillis());
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    private static BrokerSecurity security() {
        return kafka.secured().security();
    }

    /** The job's settings on listener {@code servers} with client settings {@code client}. */
    private static Map<String, Object> settings(String name, String servers, Properties client)
            throws Exception {
        kafka.createTopic(name + "-in", 2);
        kafka.createTopic(name + "-dlq", 1);
        kafka.createTopic(name + "-records", 2);
        Path spec = dir.resolve(name + "-spec.json");
        Files.writeString(spec, SpecJsonWriter.write(Seed001Corpus.spec()));
        Map<String, Object> m =
                JobTestSupport.failureTestSettings(
                        name, servers, name + "-in", spec, name + "-dlq");
        m.put("output.records.topic", name + "-records");
        m.put("source.group-id", name + "-group");
        for (String k : client.stringPropertyNames()) {
            m.put(JobOptions.SOURCE_PROPERTIES_PREFIX + k, client.getProperty(k));
            m.put(JobOptions.OUTPUT_PROPERTIES_PREFIX + k, client.getProperty(k));
        }
        return m;
    }

    private static List<AclBinding> acls(JobConfig c, String principal) {
        List<AclBinding> all = new ArrayList<>(KafkaAcls.source(c, principal));
        all.addAll(KafkaAcls.outputs(c, principal));
        return all;
    }

    @Test
    void aScramJobRunsWithExactlyTheListedAclsAndEachMissingOneIsNamedAtStart() throws Exception {
        BrokerSecurity s = security();
        Map<String, Object> settings =
                settings("scram", kafka.secured().saslSslServers(), s.referenced(s.scramClient()));
        JobConfig c = JobConfig.of(settings);
        String principal = "User:" + BrokerSecurity.SCRAM_USER;
        List<AclBinding> acls = acls(c, principal);
        assertEquals(5, acls.size(), acls.toString());
        kafka.grant(acls);
        KafkaStartupChecks.check(c);
        for (AclBinding missing : acls) {
            kafka.revoke(List.of(missing));
            JobConfigException e =
                    assertThrows(JobConfigException.class, () -> KafkaStartupChecks.check(c));
            String m = e.getMessage();
            String client =
                    missing.pattern().name().endsWith("-in")
                                    || missing.pattern().name().endsWith("-group")
                            ? "Kafka source client"
                            : "Kafka outputs client";
            assertTrue(m.startsWith(client + " (" + kafka.secured().saslSslServers() + ")"), m);
            assertTrue(m.contains("the ACL " + missing.entry().operation().name() + " on "), m);
            assertTrue(m.contains("'" + missing.pattern().name() + "'"), m);
            assertFalse(m.contains("\n"), m);
            kafka.grant(List.of(missing));
        }
        runBounded(settings, "scram");
    }

    @Test
    void aMutualTlsJobRunsWithExactlyTheListedAcls() throws Exception {
        BrokerSecurity s = security();
        Map<String, Object> settings =
                settings("mtls", kafka.secured().sslServers(), s.referenced(s.tlsClient()));
        JobConfig c = JobConfig.of(settings);
        kafka.grant(acls(c, "User:" + BrokerSecurity.TLS_USER));
        KafkaStartupChecks.check(c);
        runBounded(settings, "mtls");
    }

    @Test
    void aWrongPasswordFailsAtStartInOneLineNamingTheClient() throws Exception {
        BrokerSecurity s = security();
        Path wrong = dir.resolve("wrong.properties");
        Files.writeString(
                wrong,
                "jaas=" + s.scramClientWithWrongPassword().getProperty("sasl.jaas.config") + "\n");
        Properties client = s.referenced(s.scramClient());
        client.setProperty("sasl.jaas.config", "${file:" + wrong + ":jaas}");
        JobConfig c = JobConfig.of(settings("wrong", kafka.secured().saslSslServers(), client));
        String m =
                assertThrows(JobConfigException.class, () -> KafkaStartupChecks.check(c))
                        .getMessage();
        assertTrue(
                m.startsWith(
                        "Kafka source client ("
                                + kafka.secured().saslSslServers()
                                + "): SASL authentication failed ("),
                m);
        assertTrue(m.contains("check sasl.mechanism and the credentials of sasl.jaas.config"), m);
        assertFalse(m.contains("\n"), m);
        assertFalse(m.contains(s.scramPassword()), m);
    }

    @Test
    void anUntrustedBrokerCertificateFailsAtStartInOneLineNamingTheClient() throws Exception {
        BrokerSecurity s = security();
        JobConfig c =
                JobConfig.of(
                        settings(
                                "untrusted",
                                kafka.secured().sslServers(),
                                s.referenced(s.tlsClientNotTrustingTheBroker())));
        String m =
                assertThrows(JobConfigException.class, () -> KafkaStartupChecks.check(c))
                        .getMessage();
        assertTrue(
                m.startsWith(
                        "Kafka source client ("
                                + kafka.secured().sslServers()
                                + "): TLS handshake failed ("),
                m);
        assertTrue(m.contains("ssl.truststore"), m);
        assertFalse(m.contains("\n"), m);
    }

    /** 300 records in, the job stops at the end of the input: every record once. */
    private static void runBounded(Map<String, Object> base, String name) throws Exception {
        List<byte[]> records = Seed001Corpus.records(300, 11);
        try (KafkaProducer<byte[], byte[]> p = kafka.idempotentProducer()) {
            for (int i = 0; i < records.size(); i++) {
                p.send(new ProducerRecord<>(name + "-in", i % 2, null, records.get(i)));
            }
            p.flush();
        }
        Map<String, Object> settings = new java.util.LinkedHashMap<>(base);
        settings.put("source.stopping-offsets", "latest");
        JobClient job =
                JobTestSupport.startPipeline(JobLauncher.prepare(JobConfig.of(settings)), name);
        job.getJobExecutionResult().get(3, TimeUnit.MINUTES);
        assertEquals(records.size(), kafka.readCommitted(name + "-records").size());
        assertEquals(0, kafka.readCommitted(name + "-dlq").size());
    }
}
