#!/usr/bin/env bash
# Regenerates tfstream/_vendor/: copies of the project's tensor_batch.proto, of TensorFlow's
# tensor, tensor_shape, types and resource_handle protos and of TensorFlow Metadata's statistics,
# path and derived_feature protos (from proto/src/main/proto) with their proto package renamed
# (tensorflow -> tfstream.vendor.tf, tfstream.v1 -> tfstream.vendor.v1, tensorflow.metadata.v0 ->
# tfstream.vendor.tfmd) and
# their file names moved under tfstream/_vendor/, so that they never clash with TensorFlow's own
# modules in protobuf's descriptor pool; then the _pb2 modules by protoc (the committed ones by
# Debian 12's protoc 3.21.12, matching the declared runtime range).
# Usage: scripts/gen_protos.sh [OUT_DIR]   (default: this package's tfstream/_vendor)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
src="$here/../proto/src/main/proto"
out="${1:-$here/tfstream/_vendor}"
command -v protoc >/dev/null || { echo "gen_protos.sh: protoc not found (apt-get install protobuf-compiler)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tfstream/_vendor" "$out"
vendor() { # SRC_FILE NAME: the renamed copy, without the Java/Go options of the original
  { echo "// Copy of proto/src/main/proto/${1#"$src"/} made by python/scripts/gen_protos.sh (package renamed); do not edit."
  sed -e 's/^package tensorflow;/package tfstream.vendor.tf;/' \
      -e 's/^package tfstream\.v1;/package tfstream.vendor.v1;/' \
      -e 's/^package tensorflow\.metadata\.v0;/package tfstream.vendor.tfmd;/' \
      -e 's#^import "tensorflow_metadata/proto/v0/\([a-z_]*\)\.proto";#import "tfstream/_vendor/\1.proto";#' \
      -e 's#^import "tensorflow/core/framework/\([a-z_]*\)\.proto";#import "tfstream/_vendor/\1.proto";#' \
      -e 's/map<string, tensorflow\.TensorProto>/map<string, tfstream.vendor.tf.TensorProto>/' \
      -e '/^option \(java_\|go_\|cc_\|objc_\|csharp_\)/d' \
      "$1"; } > "$work/tfstream/_vendor/$2.proto"
}
for p in tensor tensor_shape types resource_handle; do
  vendor "$src/tensorflow/core/framework/$p.proto" "$p"
done
vendor "$src/tfstream/v1/tensor_batch.proto" tensor_batch
# TFDV's statistics (the job's statistics.topic, `tfstream stats --out`), package tfstream.vendor.tfmd
for p in statistics path derived_feature; do
  vendor "$src/tensorflow_metadata/proto/v0/$p.proto" "$p"
done
# The same wire format with `tensors` read as its repeated map entries: protobuf's Python map
# wrapper costs more than the rest of decoding, a repeated field does not.
cat > "$work/tfstream/_vendor/tensor_batch_entries.proto" <<'PROTO'
// Made by python/scripts/gen_protos.sh; do not edit.
// tfstream.v1.TensorBatch's wire format with its `tensors` map as the repeated entries a map is on
// the wire, for reading (a map with a key twice: the last entry wins, as for the map).
syntax = "proto3";

package tfstream.vendor.v1;

import "tfstream/_vendor/tensor.proto";
import "tfstream/_vendor/tensor_batch.proto";

message TensorBatchEntries {
  message Entry {
    string key = 1;
    tfstream.vendor.tf.TensorProto value = 2;
  }
  repeated Entry tensors = 1;
  int64 rows = 2;
  string schema_fingerprint = 3;
  repeated SourceRange sources = 4;
  int64 window_start_ms = 5;
  int64 window_end_ms = 6;
  string batch_id = 7;
  int32 part = 8;
  int32 parts = 9;
}
PROTO
# google/protobuf/any.proto (statistics.proto imports it) from protobuf-java in the Maven repository;
# the generated module imports the runtime's own any_pb2.
jar="$(ls "${MAVEN_REPO:-$HOME/.m2/repository}"/com/google/protobuf/protobuf-java/*/protobuf-java-*.jar | grep -v sources | head -1)"
mkdir -p "$work/google/protobuf"
python3 -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read("google/protobuf/any.proto"))' \
  "$jar" > "$work/google/protobuf/any.proto"
protoc -I "$work" --python_out="$work" "$work"/tfstream/_vendor/*.proto
cp "$work"/tfstream/_vendor/*.proto "$work"/tfstream/_vendor/*_pb2.py "$out/"
