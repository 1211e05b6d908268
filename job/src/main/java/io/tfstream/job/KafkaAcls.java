package io.tfstream.job;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The least Kafka ACLs a job needs, the set {@link KafkaStartupChecks} asks for and
 * docs/operations.md lists: the source's principal READ on each input topic and on its group (READ
 * implies DESCRIBE, which partition discovery and offset lookups use); the outputs' principal WRITE
 * on each output topic and on the transactional ids {@code <job.name>-*} (PREFIXED) of the
 * exactly-once sinks. Nothing on the cluster: transactional producers need no IDEMPOTENT_WRITE, and
 * the start-up checks skip what they may not describe.
 */
public final class KafkaAcls {
    private KafkaAcls() {}

    /** The ACLs of {@code config}'s source client, for {@code principal} (e.g. User:alice). */
    public static List<AclBinding> source(JobConfig config, String principal) {
        List<AclBinding> out = new ArrayList<>();
        if (!config.sourceTopics().isEmpty()) {
            for (String t : config.sourceTopics()) {
                out.add(
                        allow(
                                principal,
                                ResourceType.TOPIC,
                                t,
                                PatternType.LITERAL,
                                AclOperation.READ));
            }
        } else {
            throw new JobConfigException(
                    "source.topic-pattern: ACLs for a pattern are the broker operator's choice"
                            + " (a PREFIXED READ on the topics it matches)");
        }
        out.add(
                allow(
                        principal,
                        ResourceType.GROUP,
                        config.sourceGroupId(),
                        PatternType.LITERAL,
                        AclOperation.READ));
        return out;
    }

    /** The ACLs of {@code config}'s output clients (every Kafka sink), for {@code principal}. */
    public static List<AclBinding> outputs(JobConfig config, String principal) {
        List<AclBinding> out = new ArrayList<>();
        for (String t : config.outputTopics().values()) {
            out.add(
                    allow(
                            principal,
                            ResourceType.TOPIC,
                            t,
                            PatternType.LITERAL,
                            AclOperation.WRITE));
        }
        out.add(
                allow(
                        principal,
                        ResourceType.TRANSACTIONAL_ID,
                        config.transactionalIdPrefix(),
                        PatternType.PREFIXED,
                        AclOperation.WRITE));
        return out;
    }

    /** An ALLOW ACL of {@code operation} on the resource, for {@code principal} from any host. */
    public static AclBinding allow(
            String principal,
            ResourceType type,
            String name,
            PatternType pattern,
            AclOperation operation) {
        return new AclBinding(
                new ResourcePattern(type, name, pattern),
                new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW));
    }
}
