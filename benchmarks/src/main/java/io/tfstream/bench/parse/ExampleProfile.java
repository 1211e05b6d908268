package io.tfstream.bench.parse;

import io.tfstream.spec.FeatureSpecs;
import io.tfstream.testing.Seed001Corpus;
import io.tfstream.testing.WideProfileCorpus;
import java.util.List;

/** The Example inputs of the parser benchmarks: a feature spec and a generator of its records. */
public enum ExampleProfile {
    /** Four scalars of about 80 bytes, TensorFlow's TFRecord tutorial data. */
    SEED001 {
        @Override
        public FeatureSpecs spec() {
            return Seed001Corpus.spec();
        }

        @Override
        public List<byte[]> records(int n) {
            return Seed001Corpus.records(n, 1);
        }
    },
    /** 45 scalars, 5 VarLen int64 lists and 2 ragged float lists: about 900 bytes. */
    WIDE {
        @Override
        public FeatureSpecs spec() {
            return WideProfileCorpus.spec();
        }

        @Override
        public List<byte[]> records(int n) {
            return WideProfileCorpus.records(n, 1);
        }
    },
    /** 200 scalars present, all 200 requested: the reference for {@link #PROJECT_4_OF_200}. */
    ALL_200 {
        @Override
        public FeatureSpecs spec() {
            return Wide200Corpus.all();
        }

        @Override
        public List<byte[]> records(int n) {
            return Wide200Corpus.records(n, 1);
        }
    },
    /** The records of {@link #ALL_200}, 4 features requested. */
    PROJECT_4_OF_200 {
        @Override
        public FeatureSpecs spec() {
            return Wide200Corpus.projection();
        }

        @Override
        public List<byte[]> records(int n) {
            return Wide200Corpus.records(n, 1);
        }
    };

    public abstract FeatureSpecs spec();

    public abstract List<byte[]> records(int n);
}
