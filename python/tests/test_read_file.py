"""read_file: compression detected, both CRCs checked, damage reported with its byte offset."""

from __future__ import annotations

import gzip
import zlib

import pytest

from tfstream import payloads
from tfstream.payloads import CorruptFileError, records
from values import assert_batch_matches


def _same(actual, expected):
    assert len(actual) == len(expected)
    for i, (a, e) in enumerate(zip(actual, expected)):
        assert (a.batch_id, a.part, a.parts, a.rows) == (e.batch_id, e.part, e.parts, e.rows)
        assert_batch_matches(a, e.groups(), f"payload {i}")


@pytest.mark.parametrize("name,pack", [
    ("batches.tfrecord.gz", gzip.compress), ("batches.tfrecord.zz", zlib.compress),
    ("gzip-by-magic.tfrecord", gzip.compress), ("zlib-by-magic.bin", zlib.compress)])
def test_compressed_files_are_detected(example_corpus, tmp_path, name, pack):
    raw = example_corpus.payloads.read_bytes()
    path = tmp_path / name
    path.write_bytes(pack(raw))
    assert payloads.detect_compression(path) in ("gzip", "zlib")
    _same(list(payloads.read_file(path)), list(payloads.read_file(example_corpus.payloads)))


def _damaged(example_corpus, tmp_path, change):
    raw = bytearray(example_corpus.payloads.read_bytes())
    offsets = [o for o, _ in records(example_corpus.payloads)]
    k = len(offsets) // 2
    change(raw, offsets[k])
    path = tmp_path / "damaged.tfrecord"
    path.write_bytes(bytes(raw))
    seen = []
    with pytest.raises(CorruptFileError) as e:
        for b in payloads.read_file(path):
            seen.append(b)
    assert len(seen) == k, "every payload before the damage is read"
    assert e.value.offset == offsets[k] and e.value.record == k
    assert f"damaged at byte {offsets[k]} (record {k})" in str(e.value)
    return e.value


def test_a_flipped_data_byte_names_the_records_offset(example_corpus, tmp_path):
    def flip(raw, at):
        raw[at + 12 + 5] ^= 0x40
    assert "data CRC mismatch" in _damaged(example_corpus, tmp_path, flip).reason


def test_a_damaged_length_names_the_records_offset(example_corpus, tmp_path):
    def flip(raw, at):
        raw[at + 2] ^= 0x01
    assert "length CRC mismatch" in _damaged(example_corpus, tmp_path, flip).reason


def test_a_truncated_file_names_the_last_records_offset(example_corpus, tmp_path):
    raw = example_corpus.payloads.read_bytes()
    last = [o for o, _ in records(example_corpus.payloads)][-1]
    path = tmp_path / "cut.tfrecord"
    path.write_bytes(raw[: last + 20])
    with pytest.raises(CorruptFileError, match=f"damaged at byte {last} .*truncated record"):
        list(payloads.read_file(path))


def test_a_record_that_is_not_a_payload_names_its_offset(tmp_path):
    path = tmp_path / "other.tfrecord"
    payloads.write_records(path, [b"", b"\xff\xff"])
    with pytest.raises(payloads.PayloadError, match="record at byte 16: not a tfstream"):
        list(payloads.read_file(path))


def test_crc32c_matches_the_standard_check_value():
    from tfstream.payloads import _crc32c

    # CRC-32C check value (RFC 3720 B.4); the accelerated module, when installed, agrees
    assert _crc32c._crc32c_python(b"123456789") == 0xE3069283
    assert _crc32c.crc32c(b"123456789") == 0xE3069283
    assert _crc32c.crc32c(bytes(range(256)) * 3) == _crc32c._crc32c_python(bytes(range(256)) * 3)
