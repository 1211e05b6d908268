#!/usr/bin/env bash
# Regenerates tfstream/_vendor/: copies of the project's tensor_batch.proto and of TensorFlow's
# tensor, tensor_shape, types and resource_handle protos (from proto/src/main/proto) with their
# proto package renamed (tensorflow -> tfstream.vendor.tf, tfstream.v1 -> tfstream.vendor.v1) and
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
      -e 's#^import "tensorflow/core/framework/\([a-z_]*\)\.proto";#import "tfstream/_vendor/\1.proto";#' \
      -e 's/map<string, tensorflow\.TensorProto>/map<string, tfstream.vendor.tf.TensorProto>/' \
      -e '/^option \(java_\|go_\|cc_\|objc_\|csharp_\)/d' \
      "$1"; } > "$work/tfstream/_vendor/$2.proto"
}
for p in tensor tensor_shape types resource_handle; do
  vendor "$src/tensorflow/core/framework/$p.proto" "$p"
done
vendor "$src/tfstream/v1/tensor_batch.proto" tensor_batch
protoc -I "$work" --python_out="$work" "$work"/tfstream/_vendor/*.proto
cp "$work"/tfstream/_vendor/*.proto "$work"/tfstream/_vendor/*_pb2.py "$out/"
