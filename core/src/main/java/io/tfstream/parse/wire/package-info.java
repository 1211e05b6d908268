/**
 * The protobuf wire format of a feature's values, shared by the Example and SequenceExample
 * parsers: a bounds-checked cursor ({@link io.tfstream.parse.wire.WireCursor}, protobuf's {@code
 * CodedInputStream} rules as TensorFlow's fast parser applies them), the raw keys a spec is lowered
 * to ({@link io.tfstream.parse.wire.RawKey}, found through {@link
 * io.tfstream.parse.wire.KeyTable}), and the decoders that append a {@code Feature}'s packed or
 * unpacked values to a per-key column ({@link io.tfstream.parse.wire.FeatureListDecoder}, {@link
 * io.tfstream.parse.wire.ScalarFeature}, {@link io.tfstream.parse.wire.KeyColumn}). Internal: no
 * type here is published.
 */
package io.tfstream.parse.wire;
