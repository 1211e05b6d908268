package io.tfstream.job.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfstream.embedded.BrokerSecurity;
import io.tfstream.embedded.S3ProxyProcess;
import io.tfstream.job.JobConfig;
import io.tfstream.job.JobConfigException;
import io.tfstream.job.JobLauncher;
import io.tfstream.job.JobOptions;
import io.tfstream.job.JobTestSupport;
import io.tfstream.job.KafkaAcls;
import io.tfstream.job.KafkaStartupChecks;
import io.tfstream.job.TfstreamPipeline;
import io.tfstream.spec.json.SpecJsonWriter;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testkit.KafkaTestCluster;
import io.tfstream.testkit.MiniClusters;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.InstantiationUtil;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
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
    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.oneTaskManager(2);

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
    void aScramJobRunsWithExactlyTheListedAclsAndEachMissingOneIsNamedAtStart(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
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
        // The secrets (the SCRAM and key store passwords, the S3 secret key of the shards) are
        // nowhere a cluster keeps, shows or logs: not in the job graph, the REST API's
        // configurations, the logs, or the outputs.
        Path objects = dir.resolve("s3-objects");
        S3ProxyProcess proxy =
                S3ProxyProcess.start(Files.createDirectories(dir.resolve("s3proxy")), objects);
        List<String> secrets = List.of(s.scramPassword(), s.storePassword(), proxy.secretKey());
        proxy.createBucket("secured");
        settings.put("shards.path", "s3://secured/shards");
        settings.put(
                "flink.execution.checkpointing.dir", dir.resolve("checkpoints").toUri().toString());
        settings.put("s3.endpoint", proxy.endpoint());
        settings.put("s3.path-style-access", true);
        settings.put(
                "s3.credentials-file",
                proxy.writeCredentials(dir.resolve("s3.properties")).toString());
        JobLauncher.Prepared prepared = JobLauncher.prepare(JobConfig.of(settings));
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(
                        JobLauncher.flinkConfiguration(prepared.config()));
        TfstreamPipeline.build(env, prepared.config(), prepared.schema());
        String graph =
                new String(
                        InstantiationUtil.serializeObject(env.getStreamGraph().getJobGraph()),
                        StandardCharsets.ISO_8859_1);
        assertTrue(graph.contains("${file:" + s.secretsFile()), "the graph has the references");
        String logs;
        JobID id;
        try (CapturedLogs captured = new CapturedLogs()) {
            id = runBounded(settings, "scram");
            logs = captured.text();
        }
        assertTrue(logs.contains("sasl.jaas.config = [hidden]"), "the clients logged settings");
        URI rest = cluster.getRestAddress().get();
        String seen =
                graph
                        + logs
                        + get(rest, "/jobs/" + id + "/config")
                        + get(rest, "/jobmanager/config")
                        + get(rest, "/jobs/" + id + "/plan")
                        + kafka.readCommitted("scram-records").stream()
                                .map(r -> new String(r.value(), StandardCharsets.ISO_8859_1))
                                .reduce("", String::concat);
        int shards = 0;
        try (var files = Files.walk(objects)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                seen += new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                shards += f.getFileName().toString().endsWith(".tfrecord") ? 1 : 0;
            }
        } finally {
            proxy.close();
        }
        assertTrue(shards > 0, "shards were written");
        for (String secret : secrets) {
            assertFalse(seen.contains(secret), "a secret shows");
        }
    }

    private static String get(URI rest, String path) throws Exception {
        HttpResponse<String> r =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(rest.resolve(path)).build(),
                                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return r.body();
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
        String servers = kafka.secured().saslSslServers();
        String m = startFailure(settings("wrong", servers, client), servers);
        assertTrue(m.contains("): SASL authentication failed ("), m);
        assertTrue(m.contains("check sasl.mechanism and the credentials of sasl.jaas.config"), m);
        assertFalse(m.contains(s.scramPassword()), m);
    }

    /** The one line the start-up checks fail with, which names the source client first. */
    private static String startFailure(Map<String, Object> settings, String servers) {
        JobConfig c = JobConfig.of(settings);
        String m =
                assertThrows(JobConfigException.class, () -> KafkaStartupChecks.check(c))
                        .getMessage();
        assertTrue(m.startsWith("Kafka source client (" + servers + "): "), m);
        assertFalse(m.contains("\n"), m);
        return m;
    }

    @Test
    void anUntrustedBrokerCertificateFailsAtStartInOneLineNamingTheClient() throws Exception {
        BrokerSecurity s = security();
        String servers = kafka.secured().sslServers();
        String m =
                startFailure(
                        settings(
                                "untrusted",
                                servers,
                                s.referenced(s.tlsClientNotTrustingTheBroker())),
                        servers);
        assertTrue(m.contains("): TLS handshake failed ("), m);
        assertTrue(m.contains("ssl.truststore"), m);
    }

    /**
     * A SQL table with {@code 'format' = 'tf-example'} on the SASL_SSL listener, its password a
     * reference resolved by Kafka's file config provider declared in the table: rows written and
     * read back. A table that declares a config provider outside the JVM's allow-list (the root
     * pom's JVM flags, as on every tfstream JVM) is refused when its client starts.
     */
    @Test
    void aSqlTfExampleTableOverSaslSslWithItsSecretInAFile() throws Exception {
        BrokerSecurity s = security();
        kafka.createTopic("sql-secured", 1);
        String principal = "User:" + BrokerSecurity.SCRAM_USER;
        kafka.grant(
                List.of(
                        KafkaAcls.allow(
                                principal,
                                ResourceType.TOPIC,
                                "sql-secured",
                                PatternType.LITERAL,
                                AclOperation.WRITE),
                        KafkaAcls.allow(
                                principal,
                                ResourceType.TOPIC,
                                "sql-secured",
                                PatternType.LITERAL,
                                AclOperation.READ),
                        KafkaAcls.allow(
                                principal,
                                ResourceType.GROUP,
                                "sql-secured",
                                PatternType.LITERAL,
                                AclOperation.READ)));
        Properties client = s.referenced(s.scramClient());
        StringBuilder with =
                new StringBuilder(
                        " WITH ('connector' = 'kafka', 'topic' = 'sql-secured',"
                                + " 'properties.bootstrap.servers' = '"
                                + kafka.secured().saslSslServers()
                                + "', 'properties.group.id' = 'sql-secured',"
                                + " 'scan.startup.mode' = 'earliest-offset',"
                                + " 'scan.bounded.mode' = 'latest-offset', 'format' = 'tf-example',"
                                + " 'properties.config.providers' = 'file',"
                                + " 'properties.config.providers.file.class' ="
                                + " 'org.apache.kafka.common.config.provider.FileConfigProvider',"
                                + " 'properties.config.providers.file.param.allowed.paths' = '"
                                + s.secretsFile()
                                + "'");
        for (String k : client.stringPropertyNames()) {
            with.append(", 'properties.")
                    .append(k)
                    .append("' = '")
                    .append(client.getProperty(k).replace("'", "''"))
                    .append("'");
        }
        with.append(")");
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        env.executeSql("CREATE TABLE k (id BIGINT, name STRING)" + with);
        env.executeSql("INSERT INTO k VALUES (1, 'a'), (2, 'b'), (3, 'c')").await();
        List<String> rows = new ArrayList<>();
        CloseableIterator<Row> it = env.executeSql("SELECT id, name FROM k").collect();
        try {
            it.forEachRemaining(r -> rows.add(r.getField(0) + "=" + r.getField(1)));
        } finally {
            it.close();
        }
        rows.sort(null);
        assertEquals(List.of("1=a", "2=b", "3=c"), rows);

        String other =
                with.toString()
                        .replace(
                                "'properties.config.providers' = 'file'",
                                "'properties.config.providers' = 'file,dir',"
                                        + " 'properties.config.providers.dir.class' ="
                                        + " 'org.apache.kafka.common.config.provider"
                                        + ".DirectoryConfigProvider'");
        env.executeSql("CREATE TABLE d (id BIGINT, name STRING)" + other);
        Exception e =
                assertThrows(
                        Exception.class,
                        () -> env.executeSql("INSERT INTO d VALUES (4, 'd')").await());
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        assertTrue(
                String.valueOf(root.getMessage()).contains("DirectoryConfigProvider"),
                String.valueOf(root));
    }

    /** 300 records in, the job stops at the end of the input: every record once. */
    private static JobID runBounded(Map<String, Object> base, String name) throws Exception {
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
        return job.getJobID();
    }
}
