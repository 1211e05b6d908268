"""assemble, concat and rebatch as property tests over random splits: whatever the cut, the
result equals `tfstream parse` of the same rows (tf.io.parse_example's output)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tfstream import payloads
from tfstream.payloads import IncompleteBatchError, SourceRange, slice_rows
from encode import batch_of, encode
from values import assert_batch_matches


def _parts(corpus, size):
    """Batches of `size` rows from `tfstream parse`, as decoded payloads (through our encoder)."""
    n = len(corpus.records)
    groups = [list(range(lo, min(lo + size, n))) for lo in range(0, n, size)]
    parsed = corpus.parse(groups)
    out = []
    for g, p in zip(groups, parsed):
        b = batch_of(p, len(g), corpus.sequence)
        b.sources = [SourceRange("in", 0, g[0], g[-1])]
        out.append(payloads.decode(encode(b)))
    return groups, out


def test_the_runs_parts_assemble_to_the_parse_of_their_rows(any_corpus):
    whole = list(payloads.assemble(payloads.read_file(any_corpus.payloads),
                                   spec=any_corpus.spec_path))
    assert sum(b.rows for b in whole) == len(any_corpus.records)
    assert len({b.batch_id for b in whole}) == len(whole)
    rows = [list(range(b.sources[0].first_offset, b.sources[0].last_offset + 1)) for b in whole]
    for i, (b, e) in enumerate(zip(whole, any_corpus.parse(rows))):
        assert (b.part, b.parts, b.rows) == (0, 0, len(rows[i]))
        assert_batch_matches(b, e, f"assembled batch {i}")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_assemble_over_random_splits_windows_and_arrival_orders(any_corpus, seed):
    r = random.Random(seed * 31 + any_corpus.sequence)
    size, per_batch = r.randint(1, 9), r.randint(1, 4)
    _, parts = _parts(any_corpus, size)
    groups, expected = _parts(any_corpus, size * per_batch)
    spec = payloads.load_spec(any_corpus.spec_path)
    sent = []
    for g in range(len(groups)):
        mine = parts[g * per_batch:(g + 1) * per_batch]
        window = r.random() < 0.5
        if window and r.random() < 0.5:  # a close with nothing left: a payload of 0 rows
            empty = slice_rows(mine[0], 0, 0, spec)
            empty.sources = []
            mine = mine + [empty]
        early = r.randint(0, len(mine) - 1) if window else 0
        for i, p in enumerate(mine):
            p = dataclasses.replace(p, batch_id=f"b{g}", part=i)
            p.parts = 0 if i < early or (len(mine) == 1 and not window) else len(mine)
            if window:
                p.window_start_ms, p.window_end_ms = 10_000 * g, 10_000 * (g + 1)
            sent.append(payloads.decode(encode(p)))
    r.shuffle(sent)
    sent += r.sample(sent, len(sent) // 5)  # redeliveries
    got = {b.batch_id: b for b in payloads.assemble(sent, spec=any_corpus.spec_path)}
    assert sorted(got) == sorted(f"b{g}" for g in range(len(groups)))
    for g, e in enumerate(expected):
        b = got[f"b{g}"]
        assert b.rows == e.rows and (b.part, b.parts) == (0, 0)
        assert_batch_matches(b, e.groups(), f"seed {seed} batch b{g} ({per_batch}x{size} rows)")


def test_a_batch_missing_a_part_is_reported_never_merged(example_corpus):
    _, parts = _parts(example_corpus, 10)
    sent = [dataclasses.replace(p, batch_id="x" if i < 3 else f"y{i}", part=i if i < 3 else 0,
                                parts=3 if 0 < i < 3 else 0) for i, p in enumerate(parts[:6])]
    sent[0].window_end_ms = sent[1].window_end_ms = sent[2].window_end_ms = 1000
    del sent[1]
    got, reported = [], []
    with pytest.raises(IncompleteBatchError, match=r"batch 'x': parts \[0, 2\] of 3"):
        for b in payloads.assemble(sent, spec=example_corpus.spec_path):
            got.append(b.batch_id)
    assert got == ["y3", "y4", "y5"]
    list(payloads.assemble(sent, spec=example_corpus.spec_path, on_incomplete=reported.append))
    assert [(i.batch_id, i.parts_seen, i.parts) for i in reported] == [("x", [0, 2], 3)]


def test_concat_is_the_parse_of_all_rows(any_corpus):
    (whole,) = any_corpus.parse([list(range(len(any_corpus.records)))])
    for size in (7, 64):
        _, parts = _parts(any_corpus, size)
        joined = payloads.concat(parts, spec=any_corpus.spec_path)
        assert joined.rows == len(any_corpus.records)
        assert joined.sources == [SourceRange("in", 0, 0, len(any_corpus.records) - 1)]
        assert_batch_matches(joined, whole, f"concat of batches of {size}")
    run = payloads.concat(payloads.read_file(any_corpus.payloads), spec=any_corpus.spec_path)
    assert_batch_matches(run, whole, "concat of the run's payloads")


def test_concat_needs_the_spec_to_pad_a_fixed_len_sequence(example_corpus):
    _, parts = _parts(example_corpus, 5)
    with pytest.raises(ValueError, match="pass spec="):
        payloads.concat(parts)


@pytest.mark.parametrize("seed", [1, 2])
def test_rebatch_over_random_sizes_is_the_parse_of_each_batchs_rows(any_corpus, seed):
    r = random.Random(seed + 10 * any_corpus.sequence)
    size = r.choice([1, 3, 10, 50, 128])
    groups, expected = _parts(any_corpus, size)
    for source in ("run", "parts"):
        if source == "run":
            batches = payloads.read_file(any_corpus.payloads)
        else:
            batches = _parts(any_corpus, r.randint(2, 40))[1]
        got = list(payloads.rebatch(batches, size, spec=any_corpus.spec_path))
        assert [b.rows for b in got] == [len(g) for g in groups]
        for i, (b, e) in enumerate(zip(got, expected)):
            assert_batch_matches(b, e.groups(), f"{source}: batch {i} of {size} rows")
    dropped = list(payloads.rebatch(payloads.read_file(any_corpus.payloads), 128,
                                    drop_remainder=True, spec=any_corpus.spec_path))
    assert [b.rows for b in dropped] == [128] * (len(any_corpus.records) // 128)


def test_rebatch_needs_the_spec_to_cut_ambiguous_example_features(example_corpus):
    with pytest.raises(ValueError, match="pass spec="):
        list(payloads.rebatch(payloads.read_file(example_corpus.payloads), 7))


def test_a_windowed_runs_payloads_assemble_to_the_parse_of_each_window(example_corpus,
                                                                     window_payloads):
    sent = list(payloads.read_file(window_payloads))
    assert any(b.parts == 0 and b.is_window for b in sent), "no early window payload"
    windows = list(payloads.assemble(sent, spec=example_corpus.spec_path))
    assert all(b.is_window for b in windows)
    assert sum(b.rows for b in windows) == len(example_corpus.records)
    rows = [list(range(b.sources[0].first_offset, b.sources[0].last_offset + 1))
            for b in windows]
    assert sorted(r for g in rows for r in g) == list(range(len(example_corpus.records)))
    for i, (b, e) in enumerate(zip(windows, example_corpus.parse(rows))):
        assert b.rows == len(rows[i])
        assert_batch_matches(b, e, f"window [{b.window_start_ms}, {b.window_end_ms})")
