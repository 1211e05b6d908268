"""The decoded forms of a payload: Batch, Sparse, Ragged, SourceRange."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, NamedTuple, Union

import numpy as np


class Sparse(NamedTuple):
    """A ``tf.SparseTensor``'s parts: int64 ``indices [N, rank]``, ``values [N]``, int64
    ``dense_shape [rank]`` (VarLenFeature, SparseFeature, var_len feature lists)."""

    indices: np.ndarray
    values: np.ndarray
    dense_shape: np.ndarray


class Ragged(NamedTuple):
    """A ``tf.RaggedTensor`` as flat ``values`` (``[n, ...]``: trailing uniform partitions are
    inner dimensions) and ``row_splits``, one int32 or int64 array per ragged level, outermost
    (the batch) first: ``tf.RaggedTensor.from_nested_row_splits(values, row_splits)``."""

    values: np.ndarray
    row_splits: List[np.ndarray]


Value = Union[np.ndarray, Sparse, Ragged]


class SourceRange(NamedTuple):
    """The first and last Kafka offset of a batch's rows in one source topic partition."""

    topic: str
    partition: int
    first_offset: int
    last_offset: int


EXAMPLE = "example"
SEQUENCE_EXAMPLE = "sequence_example"


@dataclass
class Batch:
    """One decoded payload, or several put together.

    ``features`` (Example payloads) and ``context`` / ``feature_lists`` /
    ``feature_list_lengths`` (SequenceExample payloads) are keyed by feature name. Values are
    ``numpy.ndarray`` (FixedLen, FixedLenSequence; strings as object arrays of ``bytes``),
    :class:`Sparse` or :class:`Ragged`, with the batch dimension first, as ``tf.io.parse_example``
    / ``tf.io.parse_sequence_example`` give them. Arrays decoded from a payload are read-only
    views of its bytes.

    ``part`` / ``parts``: 0 / 0 for a whole batch; a payload of a batch split by size, or of an
    event-time window, carries its number and the total (0 for a window's early payloads, whose
    total is not known yet).

    ``payload_bytes``: the length of the payload(s) this batch was decoded from (summed by
    concat and assemble, shared out by rows when rebatch cuts it; 0 when not known, as for a
    Batch made by hand). It sets the default byte budget of the joins (see
    :func:`tfstream.payloads.default_max_total_bytes`).
    """

    rows: int
    batch_id: str = ""
    part: int = 0
    parts: int = 0
    schema_fingerprint: str = ""
    window_start_ms: int = 0
    window_end_ms: int = 0
    sources: List[SourceRange] = field(default_factory=list)
    features: Dict[str, Value] = field(default_factory=dict)
    context: Dict[str, Value] = field(default_factory=dict)
    feature_lists: Dict[str, Value] = field(default_factory=dict)
    feature_list_lengths: Dict[str, np.ndarray] = field(default_factory=dict)
    kind: str = EXAMPLE
    payload_bytes: int = field(default=0, compare=False)

    @property
    def is_window(self) -> bool:
        """True for a payload of an event-time window (``batch.mode: event_time_window``)."""
        return self.window_start_ms != 0 or self.window_end_ms != 0

    def groups(self) -> Dict[str, Dict[str, Value]]:
        """The feature dicts of this batch's kind by name (``features``; or ``context``,
        ``feature_lists``, ``feature_list_lengths``)."""
        if self.kind == EXAMPLE:
            return {"features": self.features}
        return {
            "context": self.context,
            "feature_lists": self.feature_lists,
            "feature_list_lengths": self.feature_list_lengths,
        }


class PayloadError(ValueError):
    """A payload that is not a valid ``tfstream.v1.TensorBatch`` of the contract (names the
    tensor and what is wrong)."""


class CorruptFileError(IOError):
    """A damaged TFRecord file: names the file, the byte offset and the record index."""

    def __init__(self, path: str, offset: int, record: int, reason: str):
        super().__init__(f"{path}: damaged at byte {offset} (record {record}): {reason}")
        self.path = path
        self.offset = offset
        self.record = record
        self.reason = reason


class IncompleteBatchError(RuntimeError):
    """Batches whose parts did not all arrive (never merged): ``incomplete`` lists them."""

    def __init__(self, incomplete: List["IncompleteBatch"]):
        super().__init__(
            f"{len(incomplete)} batch(es) incomplete at the end of the input: "
            + "; ".join(str(i) for i in incomplete[:10])
        )
        self.incomplete = incomplete


class IncompleteBatch(NamedTuple):
    """A batch id, the part numbers that arrived and the total (0: not known yet)."""

    batch_id: str
    parts_seen: List[int]
    parts: int

    def __str__(self) -> str:
        total = self.parts if self.parts else "?"
        return f"batch {self.batch_id!r}: parts {self.parts_seen} of {total}"
