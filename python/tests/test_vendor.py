"""The vendored protos: the committed _pb2 modules are what scripts/gen_protos.sh makes from the
project's protos, and their names never clash with TensorFlow's in protobuf's descriptor pool."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tfstream._vendor import tensor_batch_pb2, tensor_pb2

PACKAGE = Path(__file__).resolve().parent.parent
VENDOR = PACKAGE / "tfstream" / "_vendor"


@pytest.mark.skipif(shutil.which("protoc") is None,
                    reason="protoc not installed (apt-get install protobuf-compiler)")
def test_committed_modules_are_what_the_script_generates(tmp_path):
    subprocess.run([str(PACKAGE / "scripts" / "gen_protos.sh"), str(tmp_path)], check=True)
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted(p.name for p in VENDOR.iterdir() if p.suffix in (".proto", ".py")
                          and p.name != "__init__.py")
    for name in made:
        assert (tmp_path / name).read_text() == (VENDOR / name).read_text(), \
            f"{name} differs: run python/scripts/gen_protos.sh"


def test_names_are_the_packages_own():
    batch = tensor_batch_pb2.TensorBatch.DESCRIPTOR
    assert batch.full_name == "tfstream.vendor.v1.TensorBatch"
    assert tensor_pb2.TensorProto.DESCRIPTOR.full_name == "tfstream.vendor.tf.TensorProto"
    for module in (tensor_batch_pb2, tensor_pb2):
        assert module.DESCRIPTOR.name.startswith("tfstream/_vendor/")
    # wire-compatible: TensorBatch.tensors is field 1 of TensorProto values, as upstream
    assert batch.fields_by_name["tensors"].number == 1
    assert batch.fields_by_name["parts"].number == 9
