package io.tfstream.spec.schema;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.tfstream.spec.FeatureSpec;
import io.tfstream.spec.FeatureSpecs;
import io.tfstream.spec.RaggedFeature;
import io.tfstream.spec.SparseFeature;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tensorflow.metadata.v0.Feature;
import org.tensorflow.metadata.v0.Schema;
import org.tensorflow.metadata.v0.StringDomain;

/**
 * The {@code domains} half of tensorflow_transform's {@code schema_as_feature_spec}: for each
 * output tensor, the {@code domain_info} of its value feature ({@code IntDomain}, {@code
 * StringDomain}, …). A {@code domain: "name"} reference resolves against the schema-level {@code
 * string_domain}s only (TFT's {@code _get_domain}); an unresolved reference gives no domain.
 */
final class SchemaDomains {
    private SchemaDomains() {}

    /** TFT's {@code _get_domain(feature, string_domains)}; null when the feature has none. */
    static Message of(Feature f, Map<String, StringDomain> stringDomains) {
        Feature.DomainInfoCase c = f.getDomainInfoCase();
        if (c == Feature.DomainInfoCase.DOMAININFO_NOT_SET) {
            return null;
        }
        if (c == Feature.DomainInfoCase.DOMAIN) {
            return stringDomains.get(f.getDomain());
        }
        FieldDescriptor field = Feature.getDescriptor().findFieldByNumber(c.getNumber());
        return (Message) f.getField(field);
    }

    static Map<String, StringDomain> stringDomains(Schema schema) {
        Map<String, StringDomain> result = new LinkedHashMap<>();
        for (StringDomain d : schema.getStringDomainList()) {
            result.put(d.getName(), d);
        }
        return result;
    }

    /**
     * Domains of a merged SequenceExample spec: the source of a FixedLen / VarLen spec is its name,
     * of a Sparse / Ragged spec its value key, looked up among all leaf features (TFT's {@code
     * _get_source_feature_domains}).
     */
    static Map<String, Message> forSequence(Schema schema, FeatureSpecs merged) {
        Map<String, StringDomain> stringDomains = stringDomains(schema);
        Map<String, Message> bySource = new LinkedHashMap<>();
        collectLeafDomains(schema.getFeatureList(), stringDomains, bySource);
        Map<String, Message> result = new LinkedHashMap<>();
        for (Map.Entry<String, FeatureSpec> e : merged.features().entrySet()) {
            FeatureSpec s = e.getValue();
            String source = e.getKey();
            if (s instanceof SparseFeature sparse) {
                source = sparse.valueKey();
            } else if (s instanceof RaggedFeature ragged) {
                source = ragged.valueKey();
            }
            Message d = bySource.get(source);
            if (d != null) {
                result.put(e.getKey(), d);
            }
        }
        return result;
    }

    private static void collectLeafDomains(
            List<Feature> features,
            Map<String, StringDomain> stringDomains,
            Map<String, Message> out) {
        for (Feature f : features) {
            if (f.getDomainInfoCase() == Feature.DomainInfoCase.STRUCT_DOMAIN) {
                collectLeafDomains(f.getStructDomain().getFeatureList(), stringDomains, out);
            } else {
                Message d = of(f, stringDomains);
                if (d != null) {
                    out.put(f.getName(), d);
                }
            }
        }
    }
}
