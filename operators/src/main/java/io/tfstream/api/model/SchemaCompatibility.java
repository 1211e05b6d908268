package io.tfstream.api.model;

import org.apache.flink.annotation.PublicEvolving;

/** {@code schema.compatibility}: which new schemas are taken up. */
@PublicEvolving
public enum SchemaCompatibility {
    /** Every schema that converts to a spec of the same record kind. */
    ANY,
    /**
     * Only a schema under which every record the schema in force accepts stays accepted, as {@code
     * io.tfstream.spec.diff.SpecDiff#compatible()} decides ({@code tfstream schema diff}).
     */
    BACKWARD
}
