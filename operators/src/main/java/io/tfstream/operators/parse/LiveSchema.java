package io.tfstream.operators.parse;

import io.tfstream.api.model.EventTimeSettings;
import io.tfstream.api.model.SchemaCompatibility;
import io.tfstream.api.model.ValidationOutput;
import io.tfstream.operators.shards.SchemaCopies;
import io.tfstream.operators.validation.ValidationOutputSerializer;
import io.tfstream.parse.LenientBatchParser;
import io.tfstream.spec.MalformedSpecFileException;
import io.tfstream.spec.ParseSpec;
import io.tfstream.spec.diff.SpecChange;
import io.tfstream.spec.diff.SpecDiff;
import io.tfstream.validation.Alert;
import io.tfstream.validation.AlertJson;
import io.tfstream.validation.Alerts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The schema in force in one batch-and-parse subtask, and the switch to a new one ({@code
 * schema.update: poll}, docs/schema-changes.md). The operator calls {@link #switchIfChanged} on its
 * task thread between two batches (after the flush before a checkpoint barrier), so a batch is
 * parsed with one schema and the schema snapshotted ({@link SchemaInForceState}) is the one the
 * next batch uses. A candidate from the {@link SchemaPoller} is taken up only if it converts to a
 * spec of the same record kind that the parser accepts, still gives the event-time feature, and
 * with {@link SchemaCompatibility#BACKWARD} passes {@link SpecDiff#compatible()}; otherwise a
 * {@code SCHEMA} alert with the reason goes to {@link #ALERTS} and the log, once per refused
 * content, and the schema in force stays. With JSON or Avro input ({@link
 * ParseSettings#conversion}, decoded into the parse with the schema in force) a candidate the input
 * cannot convert to is refused; with {@link #keyedBy a key feature} one that removes or changes it
 * ({@link InputChecks}).
 */
@Internal
public final class LiveSchema implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LiveSchema.class);

    /** Alerts of refused schema files, as the validation alerts ({@code AlertJson}, key = id). */
    public static final OutputTag<ValidationOutput> ALERTS =
            new OutputTag<>("schema-alerts", ValidationOutputSerializer.typeInfo());

    private final String job;
    private final Set<String> refused = new HashSet<>();
    private ParseSettings settings;
    private ParseSpec spec;
    private String fingerprint;
    private String contentSha;
    private long switchedAt;
    private SchemaPoller poller;
    private SchemaInForceState state;
    private String keyFeature;

    /**
     * @param settings the settings with the schema in force (the configured one, or the one
     *     restored from a checkpoint)
     * @param job the job's name, part of the alert ids
     */
    public LiveSchema(ParseSettings settings, String job) throws MalformedSpecFileException {
        this.job = Objects.requireNonNull(job, "job");
        inForce(settings, settings.spec());
        if (settings.schemaCopies() != null) {
            try {
                copySchema();
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot write the copy of the schema in force beside the shards", e);
            }
        }
    }

    /** Writes the copy of the schema in force beside the shards (once per fingerprint). */
    private void copySchema() throws IOException, MalformedSpecFileException {
        SchemaCopies.write(
                settings.schemaCopies(), fingerprint, settings.specFile(), settings.specFileName());
    }

    private void inForce(ParseSettings s, ParseSpec parsed) throws MalformedSpecFileException {
        this.settings = s;
        this.spec = parsed;
        this.fingerprint = s.schemaFingerprint();
        this.contentSha = SchemaPoller.sha256(s.specFile());
    }

    /**
     * The live schema of a subtask of an operator configured with {@code configured}: with schema
     * updates on, its state is opened and a restored schema replaces the configured one.
     */
    public static LiveSchema restore(
            ParseSettings configured,
            String job,
            org.apache.flink.runtime.state.StateInitializationContext context,
            int subtask)
            throws Exception {
        if (configured.schemaUpdates() == null) {
            return new LiveSchema(configured, job);
        }
        SchemaInForceState state = SchemaInForceState.open(context, subtask);
        SchemaInForceState.Entry e = state.restored();
        ParseSettings s = e == null ? configured : configured.withSchema(e.content(), e.fileName());
        LiveSchema live = new LiveSchema(s, job);
        live.state = state;
        live.switchedAt = e == null ? 0 : e.switchedAt();
        if (e != null) {
            LOG.info(
                    "schema.update: subtask {} restored the schema with fingerprint {}",
                    subtask,
                    live.fingerprint);
        }
        return live;
    }

    /** Writes the schema in force to the checkpoint being taken (with updates on). */
    public void snapshot(int subtask) throws Exception {
        if (state != null) {
            state.snapshot(
                    new SchemaInForceState.Entry(
                            subtask, switchedAt, settings.specFileName(), settings.specFile()));
        }
    }

    /** Starts the poller when the settings ask for updates; {@code subtask} names its thread. */
    public void start(int subtask) {
        SchemaUpdates u = settings.schemaUpdates();
        if (u == null) {
            return;
        }
        poller = new SchemaPoller(u.path(), settings.specFile());
        poller.start(u.pollMillis(), "tfstream-schema-poll-" + subtask);
    }

    /** The settings with the schema in force. */
    public ParseSettings settings() {
        return settings;
    }

    /** The fingerprint of the schema in force. */
    public String fingerprint() {
        return fingerprint;
    }

    /**
     * Takes up the poller's candidate, if any and acceptable; returns whether the schema changed.
     * Refusals are emitted through {@code alerts} with {@code now} as their time.
     */
    public boolean switchIfChanged(AlertSink alerts, long now, long checkpointId) {
        SchemaPoller.Candidate c = poller == null ? null : poller.take();
        if (c != null && consider(c.content(), c.sha256(), alerts, now)) {
            switchedAt = checkpointId;
            return true;
        }
        return false;
    }

    /**
     * {@link #switchIfChanged(AlertSink, long, long)} at an operator's barrier: refusals go to its
     * {@link #ALERTS} side output.
     */
    public boolean switchIfChanged(Output<?> output, long now, long checkpointId) {
        return switchIfChanged(
                a -> output.collect(ALERTS, new StreamRecord<>(a)), now, checkpointId);
    }

    /** Judges {@code content} (the poller's candidate); returns whether it is now in force. */
    boolean consider(byte[] content, String sha, AlertSink alerts, long now) {
        if (sha.equals(contentSha) || refused.contains(sha)) {
            return false;
        }
        String fileName = settings.specFileName();
        String why;
        try {
            ParseSettings next = settings.withSchema(content, fileName);
            ParseSpec parsed = next.spec();
            why = refusal(parsed, next);
            if (why == null) {
                String old = fingerprint;
                inForce(next, parsed);
                if (settings.schemaCopies() != null) {
                    try {
                        copySchema();
                    } catch (IOException e) {
                        // The schema is in force all the same; manifests name a copy only once
                        // it is there.
                        LOG.warn(
                                "schema.update: no copy of the schema {} beside the shards: {}",
                                fingerprint,
                                e.toString());
                    }
                }
                LOG.info(
                        "schema.update: {} taken up, fingerprint {} (was {})",
                        path(),
                        fingerprint,
                        old);
                return true;
            }
        } catch (MalformedSpecFileException | RuntimeException e) {
            // Whatever the file holds, a refusal never fails the job (SpecRejectedException, the
            // parser's IllegalArgumentException and the like).
            why = "it does not convert to a feature spec: " + e.getMessage();
        }
        refused.add(sha);
        String message = "schema.update: the new content of " + path() + " was refused: " + why;
        LOG.warn("{}; the schema with fingerprint {} stays in force", message, fingerprint);
        Alert a = Alerts.schemaRejected(job, fingerprint, path(), sha, message, now);
        alerts.emit(
                new ValidationOutput(
                        a.alertId(), AlertJson.write(a).getBytes(StandardCharsets.UTF_8)));
        return false;
    }

    /** Why {@code next} may not replace the spec in force, or null. */
    private String refusal(ParseSpec next, ParseSettings nextSettings) {
        if (next.isSequence() != spec.isSequence()) {
            return "it describes "
                    + (next.isSequence() ? "SequenceExample" : "Example")
                    + " data, the job parses "
                    + (spec.isSequence() ? "SequenceExample" : "Example")
                    + " data";
        }
        LenientBatchParser.create(next, nextSettings.limits()); // throws on what TF refuses
        if (nextSettings.validation() != null) {
            try {
                nextSettings.validation().buildSchema(); // a TFMD schema without fatal lint
            } catch (RuntimeException e) {
                return "validation cannot use it: " + e.getMessage();
            }
        }
        EventTimeSettings et = settings.eventTime();
        if (et.source() == EventTimeSettings.Source.FEATURE) {
            String problem = EventTimeSettings.featureProblem(next, et.feature());
            if (problem != null) {
                return "event-time feature '" + et.feature() + "' must be int64; " + problem;
            }
        }
        SchemaUpdates u = settings.schemaUpdates();
        String input = InputChecks.problem(spec, next, settings.conversion(), keyFeature);
        if (input != null) {
            return input;
        }
        if (u != null && u.compatibility() == SchemaCompatibility.BACKWARD) {
            SpecDiff diff = SpecDiff.of(spec, next);
            if (!diff.compatible()) {
                StringBuilder b =
                        new StringBuilder(
                                "schema.compatibility backward: records the schema in force"
                                        + " accepts would be refused:");
                for (SpecChange ch : diff.breakingChanges()) {
                    b.append(" feature '")
                            .append(ch.qualifiedFeature())
                            .append("' ")
                            .append(ch.change().jsonName())
                            .append(" (")
                            .append(ch.reason())
                            .append(");");
                }
                return b.substring(0, b.length() - 1);
            }
        }
        return null;
    }

    /** Refuses candidates that remove or change {@code feature}, the one batches are keyed by. */
    public void keyedBy(String feature) {
        this.keyFeature = feature;
    }

    private String path() {
        SchemaUpdates u = settings.schemaUpdates();
        return u == null ? settings.specFileName() : u.path();
    }

    @Override
    public void close() {
        if (poller != null) {
            poller.close();
            poller = null;
        }
    }

    /** Where refusal alerts go (the operator's side output). */
    @FunctionalInterface
    public interface AlertSink {
        void emit(ValidationOutput alert);
    }
}
