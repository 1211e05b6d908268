"""Payloads of one batch id put back together: parts of a batch split by size, payloads of an
event-time window (early ones included), in any order and from any partition."""

from __future__ import annotations

from collections import OrderedDict
from typing import Callable, Dict, Iterable, Iterator, List, Optional

from tfstream.payloads._rows import concat_values, merge_sources
from tfstream.payloads._spec import Spec
from tfstream.payloads._types import Batch, IncompleteBatch, IncompleteBatchError


class Assembler:
    """Collects payloads by ``batch_id`` until a batch is complete.

    Complete means: a payload with ``parts`` 0 of a count batch (``window_*_ms`` 0) is whole; a
    batch split by size, or a window, is complete once a payload has told its total (``parts`` >
    0; a window's early payloads have 0) and parts 0..parts-1 have all arrived. A part that
    arrives twice (a redelivery) is kept once, and a payload of one of the last ``remember``
    batches handed out is dropped as a redelivery.

    ``max_total_bytes`` bounds the padding of each join (see
    :func:`tfstream.payloads.concat`): None for the default of the parts' payload bytes.
    """

    def __init__(self, spec: Optional[Spec] = None, remember: int = 100_000,
                 max_total_bytes: Optional[int] = None):
        self._spec = spec
        self._max_total_bytes = max_total_bytes
        self._pending: Dict[str, Dict[int, Batch]] = {}
        self._totals: Dict[str, int] = {}
        self._done: "OrderedDict[str, None]" = OrderedDict()
        self._remember = remember

    def _handed_out(self, batch: Batch) -> Batch:
        if batch.batch_id:
            self._done[batch.batch_id] = None
            if len(self._done) > self._remember:
                self._done.popitem(last=False)
        return batch

    def add(self, batch: Batch) -> Optional[Batch]:
        """The assembled batch when ``batch`` completes one, else None (also for a
        redelivered payload of a batch already handed out)."""
        key = batch.batch_id
        if key in self._done:
            return None
        if batch.parts == 0 and not batch.is_window:
            return self._handed_out(batch)
        parts = self._pending.setdefault(key, {})
        parts.setdefault(batch.part, batch)
        if batch.parts > 0:
            total = self._totals.setdefault(key, batch.parts)
            if total != batch.parts:
                raise ValueError(
                    f"batch {key!r}: part {batch.part} says {batch.parts} parts, "
                    f"an earlier one {total}")
        total = self._totals.get(key, 0)
        if total == 0 or len(parts) < total:
            return None
        if any(p >= total for p in parts):
            raise ValueError(f"batch {key!r}: part numbers {sorted(parts)} beyond {total} parts")
        del self._pending[key]
        del self._totals[key]
        return self._handed_out(
            join([parts[i] for i in range(total)], self._spec, self._max_total_bytes))

    def is_pending(self, batch_id: str) -> bool:
        """True when payloads of ``batch_id`` are held for a batch not complete yet."""
        return batch_id in self._pending

    def pending(self) -> List[IncompleteBatch]:
        """The batches still waiting for parts."""
        return [IncompleteBatch(k, sorted(v), self._totals.get(k, 0))
                for k, v in self._pending.items()]

    def pending_parts(self) -> Iterable[Batch]:
        """Every payload held for an incomplete batch."""
        for parts in self._pending.values():
            yield from parts.values()


def join(parts: List[Batch], spec: Optional[Spec],
         max_total_bytes: Optional[int] = None) -> Batch:
    """Parts of one batch in part order as one whole batch (``part``/``parts`` 0)."""
    out = concat_values(parts, spec, max_total_bytes)
    first = parts[0]
    out.batch_id = first.batch_id
    out.schema_fingerprint = first.schema_fingerprint
    out.window_start_ms = first.window_start_ms
    out.window_end_ms = first.window_end_ms
    out.sources = merge_sources(parts)
    return out


def assemble(
    batches: Iterable[Batch],
    spec=None,
    on_incomplete: Optional[Callable[[IncompleteBatch], None]] = None,
    max_total_bytes: Optional[int] = None,
) -> Iterator[Batch]:
    """See :func:`tfstream.payloads.assemble`."""
    from tfstream.payloads._spec import load_spec

    assembler = Assembler(load_spec(spec), max_total_bytes=max_total_bytes)
    for b in batches:
        whole = assembler.add(b)
        if whole is not None:
            yield whole
    left = assembler.pending()
    if left:
        if on_incomplete is None:
            raise IncompleteBatchError(left)
        for i in left:
            on_incomplete(i)
