package io.tfstream.validation;

import org.tensorflow.metadata.v0.Feature;
import org.tensorflow.metadata.v0.Feature.DomainInfoCase;
import org.tensorflow.metadata.v0.FeatureType;

/**
 * Which domain kinds TFDV allows for which feature type ({@code schema.cc::AllowedFeatureTypes}),
 * the domain names it prints ({@code GetDomainInfoName}) and the distribution-constraint rules of
 * {@code UpdateFeatureSelf}.
 */
final class DomainTypes {
    private DomainTypes() {}

    static boolean allowed(DomainInfoCase d, FeatureType t) {
        switch (d) {
            case DOMAIN:
            case STRING_DOMAIN:
            case IMAGE_DOMAIN:
            case MID_DOMAIN:
            case URL_DOMAIN:
                return t == FeatureType.BYTES;
            case BOOL_DOMAIN:
                return t == FeatureType.INT || t == FeatureType.BYTES || t == FeatureType.FLOAT;
            case INT_DOMAIN:
            case TIME_DOMAIN:
            case TIME_OF_DAY_DOMAIN:
                return t == FeatureType.INT || t == FeatureType.BYTES;
            case FLOAT_DOMAIN:
                return t == FeatureType.FLOAT || t == FeatureType.BYTES;
            case STRUCT_DOMAIN:
                return t == FeatureType.STRUCT;
            case NATURAL_LANGUAGE_DOMAIN:
                return t == FeatureType.BYTES || t == FeatureType.INT;
            case DOMAININFO_NOT_SET:
                return true;
            default:
                return true;
        }
    }

    /** The proto field name of the domain, e.g. {@code int_domain}. */
    static String name(DomainInfoCase d) {
        return d == DomainInfoCase.DOMAININFO_NOT_SET
                ? ""
                : Feature.getDescriptor().findFieldByNumber(d.getNumber()).getName();
    }

    /** The INVALID_SCHEMA_SPECIFICATION text for distribution constraints, or null if legal. */
    static String distributionConstraintsText(Feature f) {
        switch (f.getDomainInfoCase()) {
            case BOOL_DOMAIN:
                return "distribution constraints not supported for bool domains.";
            case INT_DOMAIN:
                return "distribution constraints not supported for int domains.";
            case FLOAT_DOMAIN:
                return "distribution constraints not supported for float domains.";
            case STRUCT_DOMAIN:
                return "distribution constraints not supported for struct domains.";
            case NATURAL_LANGUAGE_DOMAIN:
            case IMAGE_DOMAIN:
            case MID_DOMAIN:
            case URL_DOMAIN:
            case TIME_DOMAIN:
                return "distribution constraints not supported for semantic domains.";
            case DOMAININFO_NOT_SET:
                return "distribution constraints require domain or string domain.";
            default:
                return null;
        }
    }
}
