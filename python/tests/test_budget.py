"""The byte budget of decoding and joining: what a payload declares in total (TensorFlow's
last-value fill lets a few bytes declare gigabytes) and what padding to the widest row takes are
checked before anything is allocated, and over the budget raise PayloadError, never MemoryError.

The refusals that matter are checked in a child process whose address space is capped
(RLIMIT_AS), so an allocation that slipped through shows as MemoryError there instead of
swapping the machine; the fuzz test decodes Hypothesis's payloads in such a process."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from encode import encode, encode_filled, put_filled
from tfstream import payloads
from tfstream._vendor import tensor_batch_pb2, types_pb2

HERE = Path(__file__).resolve().parent
CAP = 1536 * 2**20  # the children's address space: 1.5 GiB

# Runs first in every child: the cap, then the imports (numpy's own reservations fit under it).
_PRELUDE = f"""
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({CAP}, resource.getrlimit(resource.RLIMIT_AS)[1]))
from tfstream import payloads
"""


def _child_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(HERE.parent), str(HERE)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["OPENBLAS_NUM_THREADS"] = "1"  # no per-thread buffers eating into the cap
    return env


def _decode_capped(payload: bytes, **kwargs) -> subprocess.CompletedProcess:
    """``payloads.decode(payload, **kwargs)`` in a child capped at 1.5 GiB; its stdout says
    ``decoded``, ``PayloadError: ...``, ``MemoryError: ...`` or ``OtherError: ...``."""
    code = _PRELUDE + textwrap.dedent(f"""
        data = sys.stdin.buffer.read()
        try:
            payloads.decode(data, **{kwargs!r})
        except payloads.PayloadError as e:
            print("PayloadError:", e)
        except MemoryError as e:
            print("MemoryError:", e)
        except BaseException as e:
            print("OtherError:", type(e).__name__, e)
        else:
            print("decoded")
    """)
    return subprocess.run([sys.executable, "-c", code], input=payload, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=_child_env(), timeout=120)


def _eight_filled_int64_tensors() -> bytes:
    """8 int64 tensors of 2^26 elements (each within max_elements) holding one value each:
    4 GiB declared in under 200 bytes."""
    return encode_filled(1, {f"f{i}": (np.int64, [1 << 26], [7]) for i in range(8)})


def test_a_payload_declaring_4_gib_in_181_bytes_is_refused_not_allocated():
    payload = _eight_filled_int64_tensors()
    assert 170 <= len(payload) <= 190
    p = _decode_capped(payload)
    out = p.stdout.decode()
    assert p.returncode == 0, p.stderr.decode()[-3000:]
    assert "MemoryError" not in out + p.stderr.decode()
    assert out.startswith("PayloadError:"), out
    assert f"declare {8 * 8 << 26} bytes in total" in out  # the declared total: 4 GiB
    assert f"more than max_total_bytes {64 << 20}" in out  # the limit, named by its keyword
    # In-process too, with the message naming the declared total, the limit and the keyword.
    with pytest.raises(payloads.PayloadError,
                       match=r"declare 4294967296 bytes in total, more than max_total_bytes "
                             r"67108864 \(max\(64 MiB, 1024 x \d+ payload bytes\)\)"):
        payloads.decode(payload)


def test_the_cap_is_real_without_the_budget():
    # Allowing the 4 GiB does allocate it, which the capped child cannot: the check above is
    # what keeps that payload from reaching numpy.
    p = _decode_capped(_eight_filled_int64_tensors(), max_total_bytes=1 << 33)
    assert p.stdout.decode().startswith("MemoryError:"), p.stdout.decode() + p.stderr.decode()


def _normal_payload() -> bytes:
    b = payloads.Batch(rows=10)
    b.features["x"] = np.arange(1000, dtype=np.int64).reshape(10, 100)  # 8000 bytes
    b.features["s"] = np.array([b"a%d" % i for i in range(10)], dtype=object)  # 10 references
    return encode(b)


def test_max_total_bytes_refuses_below_and_accepts_at_the_declared_total(tmp_path):
    payload = _normal_payload()
    total = 8000 + 10 * 8
    assert payloads.decode(payload).features["x"].shape == (10, 100)
    with pytest.raises(payloads.PayloadError,
                       match=rf"declare {total} bytes in total, more than max_total_bytes "
                             rf"{total - 1} \(given\); pass max_total_bytes="):
        payloads.decode(payload, max_total_bytes=total - 1)
    assert payloads.decode(payload, max_total_bytes=total).features["x"][9, 99] == 999
    message = tensor_batch_pb2.TensorBatch.FromString(payload)
    with pytest.raises(payloads.PayloadError, match="max_total_bytes 100 "):
        payloads.from_message(message, max_total_bytes=100)
    path = tmp_path / "b.tfrecord"
    payloads.write_records(path, [payload])
    with pytest.raises(payloads.PayloadError, match="record at byte 0: .*max_total_bytes 100 "):
        list(payloads.read_file(path, max_total_bytes=100))
    assert next(payloads.read_file(path, max_total_bytes=total)).rows == 10
    for bad in (-1, 1.5, "1", True):
        with pytest.raises(ValueError, match="max_total_bytes must be None or a non-negative"):
            payloads.decode(payload, max_total_bytes=bad)


def test_a_larger_limit_accepts_what_the_default_refuses():
    payload = encode_filled(2, {"x": (np.int64, [2, 1 << 23], [5])})  # 128 MiB from one value
    with pytest.raises(payloads.PayloadError, match="more than max_total_bytes 67108864"):
        payloads.decode(payload)
    x = payloads.decode(payload, max_total_bytes=1 << 27).features["x"]
    assert x.shape == (2, 1 << 23) and x[1, -1] == 5


def test_the_default_budget_grows_with_the_payload():
    assert payloads.default_max_total_bytes(0) == 64 << 20
    assert payloads.default_max_total_bytes(65536) == 64 << 20
    assert payloads.default_max_total_bytes(1 << 20) == 1 << 30
    b = payloads.decode(_normal_payload())
    assert b.payload_bytes == len(_normal_payload())


def test_the_total_counts_only_the_tensors_decoded():
    # A SequenceExample payload decodes the prefixed tensors only; the others are not counted.
    payload = encode_filled(1, {"context/a": (np.int64, [1], [1]),
                                "other": (np.int64, [1 << 26], [1])})
    b = payloads.decode(payload, kind="sequence_example")
    assert b.context["a"].tolist() == [1]
    with pytest.raises(payloads.PayloadError, match="declare 536870920 bytes"):
        payloads.decode(payload, kind="example")


def test_an_unknown_dtype_number_is_a_payload_error():
    m = tensor_batch_pb2.TensorBatch(rows=1)
    put_filled(m, "x", 999, [1], [])
    with pytest.raises(payloads.PayloadError, match="tensor 'x' has dtype 999"):
        payloads.decode(m.SerializeToString())


def test_a_zero_element_shape_too_large_for_numpy_is_a_payload_error():
    # 0 elements, but dimensions whose product numpy cannot size (found by the fuzz test)
    with pytest.raises(payloads.PayloadError, match="too large for numpy"):
        payloads.decode(encode_filled(1, {"x": (np.int64, [0, 1 << 40, 1 << 40], [])}))
    x = payloads.decode(encode_filled(1, {"x": (np.int64, [0, 1 << 20, 1 << 20], [])}))
    assert x.features["x"].shape == (0, 1 << 20, 1 << 20)


SPEC = {"x": {"type": "fixed_len_seq", "dtype": "int64", "default": -1}}


def _dense(rows: int, width: int, value: int, **meta) -> payloads.Batch:
    """A decoded payload whose feature ``x`` is ``rows`` x ``width`` filled with ``value``."""
    b = payloads.decode(encode_filled(rows, {"x": (np.int64, [rows, width], [value])}))
    for k, v in meta.items():
        setattr(b, k, v)
    return b


def test_concat_refuses_padding_to_the_widest_row_over_the_budget():
    # Two payloads of about 20 bytes, 128 KiB each decoded, whose join pads 2^14 + 1 rows to
    # 2^14 steps: 2 GiB, refused before np.full.
    tall, wide = _dense(1 << 14, 1, 1), _dense(1, 1 << 14, 2)
    assert tall.payload_bytes + wide.payload_bytes < 100
    padded = ((1 << 14) + 1) * (1 << 14) * 8
    with pytest.raises(payloads.PayloadError,
                       match=rf"padded to their widest row \('x': {padded} bytes\) in a join of 2 "
                             rf"batches declare {padded} bytes in total, more than "
                             rf"max_total_bytes 67108864 .*pass max_total_bytes="):
        payloads.concat([tall, wide], spec=SPEC)


def test_concat_max_total_bytes_both_ways():
    a, b = _dense(3, 1, 1), _dense(1, 4, 2)
    padded = 4 * 4 * 8  # all 4 rows x the widest row (4) x 8 bytes
    with pytest.raises(payloads.PayloadError, match=rf"max_total_bytes {padded - 1} \(given\)"):
        payloads.concat([a, b], spec=SPEC, max_total_bytes=padded - 1)
    out = payloads.concat([a, b], spec=SPEC, max_total_bytes=padded)
    assert out.features["x"].tolist() == [[1, -1, -1, -1]] * 3 + [[2, 2, 2, 2]]
    assert payloads.concat([a, b], spec=SPEC).features["x"].shape == (4, 4)
    assert out.payload_bytes == a.payload_bytes + b.payload_bytes
    # No padding, no padding budget: equal widths join whatever the limit.
    assert payloads.concat([a, a], max_total_bytes=0).features["x"].shape == (6, 1)


def test_a_batch_made_by_hand_is_budgeted_by_its_arrays():
    a = payloads.Batch(rows=3, features={"x": np.ones((3, 1), dtype=np.int64)})
    b = payloads.Batch(rows=1, features={"x": np.ones((1, 1 << 14), dtype=np.int64)})
    assert a.payload_bytes == b.payload_bytes == 0
    assert payloads.concat([a, b], spec=SPEC).features["x"].shape == (4, 1 << 14)  # 512 KiB
    tall = payloads.Batch(rows=1 << 14, features={"x": np.ones((1 << 14, 1), dtype=np.int64)})
    with pytest.raises(payloads.PayloadError, match="padded to their widest row"):
        payloads.concat([tall, b], spec=SPEC)


def test_assemble_and_rebatch_take_max_total_bytes():
    parts = [_dense(3, 1, 1, batch_id="b", part=0, parts=2),
             _dense(1, 4, 2, batch_id="b", part=1, parts=2)]
    with pytest.raises(payloads.PayloadError, match=r"max_total_bytes 100 \(given\)"):
        list(payloads.assemble(parts, spec=SPEC, max_total_bytes=100))
    (whole,) = payloads.assemble(parts, spec=SPEC, max_total_bytes=128)
    assert whole.features["x"].shape == (4, 4)
    assert whole.payload_bytes == sum(p.payload_bytes for p in parts)
    wholes = [_dense(3, 1, 1), _dense(1, 4, 2)]
    with pytest.raises(payloads.PayloadError, match=r"max_total_bytes 100 \(given\)"):
        list(payloads.rebatch(wholes, 4, spec=SPEC, max_total_bytes=100))
    (four,) = payloads.rebatch(wholes, 4, spec=SPEC, max_total_bytes=128)
    assert four.features["x"].shape == (4, 4)
    # Cutting a batch shares its payload bytes out by rows.
    halves = list(payloads.rebatch([_dense(4, 2, 1)], 2, spec=SPEC))
    assert sum(h.payload_bytes for h in halves) >= _dense(4, 2, 1).payload_bytes


def test_consume_passes_max_total_bytes_to_decode_and_assemble(monkeypatch):
    confluent_kafka = pytest.importorskip("confluent_kafka")
    from tfstream import kafka

    messages = [encode_filled(1, {"x": (np.int64, [1 << 24], [1])})]  # 128 MiB declared

    class Message:
        def __init__(self, value, offset):
            self._value, self._offset = value, offset

        def value(self):
            return self._value

        def topic(self):
            return "t"

        def partition(self):
            return 0

        def offset(self):
            return self._offset

        def error(self):
            return None

    class Consumer:  # what PayloadConsumer needs of confluent_kafka.Consumer, without a broker
        def __init__(self, conf):
            self.queue = [Message(m, i) for i, m in enumerate(messages)]

        def subscribe(self, topics, on_revoke=None):
            pass

        def poll(self, timeout):
            return self.queue.pop(0) if self.queue else None

        def commit(self, offsets=None, asynchronous=True):
            pass

        def close(self):
            pass

    monkeypatch.setattr(confluent_kafka, "Consumer", Consumer)
    with pytest.raises(ValueError, match="max_total_bytes must be"):
        kafka.consume("t", "localhost:1", "g", max_total_bytes=-1)
    with kafka.consume("t", "localhost:1", "g", idle_timeout=0.01, poll_timeout=0.01) as c:
        with pytest.raises(payloads.PayloadError,
                           match="t-0 offset 0: .*more than max_total_bytes 67108864"):
            next(c)
    with kafka.consume("t", "localhost:1", "g", idle_timeout=0.01, poll_timeout=0.01,
                       max_total_bytes=1 << 27) as c:
        assert next(c).features["x"].shape == (1 << 24,)
    messages[:] = [encode(p) for p in (_dense(3, 1, 1, batch_id="b", part=0, parts=2),
                                       _dense(1, 4, 2, batch_id="b", part=1, parts=2))]
    with kafka.consume("t", "localhost:1", "g", spec=SPEC, idle_timeout=0.01,
                       poll_timeout=0.01, max_total_bytes=100) as c:
        with pytest.raises(payloads.PayloadError,
                           match=r"batch 'b' completed by t-0 offset 1: .*max_total_bytes 100"):
            next(c)


# --- fuzzing: random payloads decoded in a capped process -------------------------------------

_WORKER = _PRELUDE + textwrap.dedent("""
    import struct, traceback
    inp, out = sys.stdin.buffer, sys.stdout

    def frame():
        head = inp.read(5)
        if len(head) < 5:
            return None, None
        op, n = head[:1], struct.unpack("<I", head[1:])[0]
        return op, inp.read(n)

    while True:
        op, data = frame()
        if op is None:
            break
        try:
            if op == b"c":  # two payloads joined, every dense feature a FixedLenSequence
                n = struct.unpack("<I", data[:4])[0]
                a = payloads.decode(data[4:4 + n])
                b = payloads.decode(data[4 + n:])
                spec = {k: {"type": "fixed_len_seq",
                            "dtype": "string" if v.dtype == object else "int64"
                            if v.dtype.kind == "i" else "float32"}
                        for k, v in a.features.items()}
                payloads.concat([a, b], spec=spec)
            else:
                kind = {b"d": None, b"e": "example", b"s": "sequence_example"}[op]
                payloads.decode(data, kind)
            result = "ok"
        except payloads.PayloadError:
            result = "PayloadError"
        except ValueError as e:
            result = "ValueError" if op == b"c" else "OtherError: " + repr(e)
        except MemoryError as e:
            result = "MemoryError: " + str(e)
        except BaseException:
            result = "OtherError: " + traceback.format_exc().replace("\\n", " | ")
        out.write(result + "\\n")
        out.flush()
""")


class _CappedWorker:
    """One child under the 1.5 GiB cap that decodes what it is sent, answering with the
    outcome's name (restarted if it dies, the death reported as the outcome)."""

    def __init__(self):
        self.proc = None

    def _start(self):
        self.proc = subprocess.Popen([sys.executable, "-c", _WORKER], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=_child_env())

    def run(self, op: bytes, data: bytes) -> str:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        try:
            self.proc.stdin.write(op + struct.pack("<I", len(data)) + data)
            self.proc.stdin.flush()
            line = self.proc.stdout.readline().decode()
        except BrokenPipeError:
            line = ""
        if not line:
            self.proc.kill()
            err = self.proc.stderr.read().decode()[-2000:]
            self.proc.wait()
            self.proc = None
            return f"Crash: {err}"
        return line.strip()

    def close(self):
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
            self.proc.stdout.close()
            self.proc.stderr.close()


@pytest.fixture(scope="module")
def worker():
    w = _CappedWorker()
    yield w
    w.close()


_NAMES = ["x", "y", "sp/indices", "sp/values", "sp/dense_shape", "rg/values", "rg/row_splits",
          "rg/row_splits/1", "context/a", "context/b/indices", "context/b/values",
          "context/b/dense_shape", "feature_list/f", "feature_list_lengths/f", "feature_list/r/values",
          "feature_list/r/row_splits", "", "\u00e9/x"]
_DTYPES = [types_pb2.DT_INT64, types_pb2.DT_INT32, types_pb2.DT_FLOAT, types_pb2.DT_STRING,
           types_pb2.DT_DOUBLE, types_pb2.DT_BOOL, types_pb2.DT_INVALID, 999]
_DIMS = st.one_of(
    st.sampled_from([0, 1, 2, 3, 8, 1 << 10, 1 << 16, 1 << 20, 1 << 22, 1 << 24, 1 << 26,
                     (1 << 26) + 1, 1 << 31, 1 << 40, (1 << 63) - 1, -1]),
    st.integers(min_value=-3, max_value=1 << 20))
_ITEMSIZE = {types_pb2.DT_INT64: 8, types_pb2.DT_INT32: 4, types_pb2.DT_FLOAT: 4,
             types_pb2.DT_DOUBLE: 8, types_pb2.DT_BOOL: 1}


@st.composite
def _tensor(draw, message, name):
    dtype = draw(st.sampled_from(_DTYPES))
    shape = draw(st.lists(_DIMS, max_size=4))
    n = 1
    for d in shape:
        n *= d
    how = draw(st.sampled_from(["values", "values", "content", "exact", "none"]))
    t = message.tensors[name]
    t.dtype = dtype
    for d in shape:
        t.tensor_shape.dim.add().size = d
    if how == "content":
        t.tensor_content = draw(st.binary(max_size=64))
    elif how == "exact" and 0 < n <= 256:  # content of the size the shape needs
        t.tensor_content = draw(st.binary(min_size=n * _ITEMSIZE.get(dtype, 4),
                                          max_size=n * _ITEMSIZE.get(dtype, 4)))
        if dtype == types_pb2.DT_STRING:
            t.string_val.extend(draw(st.lists(st.binary(max_size=4), min_size=n, max_size=n)))
    elif how == "values":
        k = draw(st.integers(0, 4))
        if dtype == types_pb2.DT_STRING:
            t.string_val.extend(draw(st.lists(st.binary(max_size=8), min_size=k, max_size=k)))
        elif dtype == types_pb2.DT_FLOAT:
            t.float_val.extend(draw(st.lists(st.floats(width=32), min_size=k, max_size=k)))
        elif dtype == types_pb2.DT_INT32:
            t.int_val.extend(draw(st.lists(st.integers(-2**31, 2**31 - 1), min_size=k, max_size=k)))
        else:
            t.int64_val.extend(draw(st.lists(st.integers(-2**63, 2**63 - 1), min_size=k,
                                             max_size=k)))


@st.composite
def _payload(draw):
    m = tensor_batch_pb2.TensorBatch(rows=draw(st.integers(0, 1 << 20)))
    for name in draw(st.lists(st.sampled_from(_NAMES), max_size=6, unique=True)):
        draw(_tensor(m, name))
    data = m.SerializeToString()
    mutation = draw(st.sampled_from(["none", "none", "truncate", "flip", "insert", "random"]))
    if mutation == "truncate" and data:
        data = data[:draw(st.integers(0, len(data) - 1))]
    elif mutation == "flip" and data:
        i = draw(st.integers(0, len(data) - 1))
        data = data[:i] + bytes([data[i] ^ draw(st.integers(1, 255))]) + data[i + 1:]
    elif mutation == "insert":
        i = draw(st.integers(0, len(data)))
        data = data[:i] + draw(st.binary(min_size=1, max_size=8)) + data[i:]
    elif mutation == "random":
        data = draw(st.binary(max_size=200))
    return data


_FUZZ = settings(max_examples=400, deadline=None, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@_FUZZ
@given(data=_payload(), op=st.sampled_from([b"d", b"d", b"e", b"s"]))
def test_fuzzed_payloads_raise_payload_error_or_decode(worker, data, op):
    outcome = worker.run(op, data)
    assert outcome in ("ok", "PayloadError"), outcome


@st.composite
def _dense_payload(draw, dtype):
    rows = draw(st.sampled_from([0, 1, 2, 5, 1 << 10, 1 << 14, 1 << 20]))
    width = draw(st.sampled_from([0, 1, 3, 1 << 10, 1 << 14, 1 << 20]))
    inner = draw(st.lists(st.sampled_from([1, 2, 1 << 10]), max_size=1))
    values = [b"v"] if dtype == object else [draw(st.integers(-5, 5))]
    if rows * width * (inner[0] if inner else 1) > (1 << 26):
        values = values[:draw(st.integers(0, 1))]
    return encode_filled(rows, {"x": (dtype, [rows, width] + inner, values)})


@_FUZZ
@given(st.data())
def test_fuzzed_joins_are_refused_or_padded_within_the_cap(worker, data):
    dtype = data.draw(st.sampled_from([np.int64, np.int32, np.float32, object]))
    a = data.draw(_dense_payload(dtype))
    b = data.draw(_dense_payload(dtype))
    outcome = worker.run(b"c", struct.pack("<I", len(a)) + a + b)
    assert outcome in ("ok", "PayloadError", "ValueError"), outcome
