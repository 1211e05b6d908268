"""Shared fixtures: the tfstream CLI (`bin/tfstream`), one `tfstream local` run per record kind
over a random corpus of every feature kind, `tfstream parse` of chosen rows, and a real Kafka
broker process (io.tfstream.local.EmbeddedKafkaMain from the CLI jar)."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Dict, List, Sequence

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import corpus  # noqa: E402
import parse_json  # noqa: E402
from tfstream.payloads import write_records  # noqa: E402

ROOT = HERE.parent.parent
CLI = ROOT / "bin" / "tfstream"
JAR = ROOT / "cli" / "target" / "tfstream-cli.jar"
RECORDS = 300
SEED = 7


def run_cli(*args: str, timeout: float = 600) -> str:
    """stdout of `bin/tfstream ARGS` (which builds the CLI jar first when it is stale)."""
    p = subprocess.run([str(CLI), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=timeout)
    if p.returncode != 0:
        raise AssertionError(f"bin/tfstream {' '.join(args)} exited {p.returncode}:\n"
                             f"{p.stderr[-4000:]}")
    return p.stdout


class Corpus:
    """A spec, records and the files of one `tfstream local` run over them."""

    def __init__(self, workdir: Path, sequence: bool):
        self.sequence = sequence
        self.name = "seq" if sequence else "ex"
        self.spec, self.records = corpus.corpus(SEED, RECORDS, sequence)
        self.dir = workdir / self.name
        self.dir.mkdir()
        self.spec_path = self.dir / "spec.json"
        self.spec_path.write_text(json.dumps(self.spec))
        self.input = self.dir / "input.tfrecord"
        write_records(self.input, self.records)
        self._parsed: Dict[tuple, list] = {}

    def run_local(self, name: str = "local", *settings: str) -> Path:
        """`tfstream local` over the corpus; the path of its payload file."""
        out = self.dir / name
        # One partition and source order: a payload's rows are records first..last_offset.
        # Small batches and a small message limit make batches split into many parts.
        sets = ["batch.max-records=64", "batch.max-delay=1 min",
                "output.batches.max-message-bytes=8kb", *settings]
        run_cli("local", "--input", str(self.input), "--feature-spec", str(self.spec_path),
                "--records", str(RECORDS), "--partitions", "1", "--parallelism", "1",
                "--rest-port", "0", "--out", str(out), *[a for s in sets for a in ("--set", s)])
        return out / "batches.tfrecord"

    def parse(self, row_groups: Sequence[Sequence[int]]) -> List[dict]:
        """`tfstream parse` (`parse-seq`) of each group of rows, as one batch per group; one
        run per distinct group size."""
        by_size: Dict[int, List[int]] = {}
        for i, g in enumerate(row_groups):
            by_size.setdefault(len(g), []).append(i)
        out: List[dict] = [None] * len(row_groups)
        for size, idx in by_size.items():
            key = tuple(tuple(row_groups[i]) for i in idx)
            if key not in self._parsed:
                path = self.dir / f"rows-{size}-{len(self._parsed)}.tfrecord"
                write_records(path, [self.records[r] for i in idx for r in row_groups[i]])
                text = run_cli("parse-seq" if self.sequence else "parse", "--feature-spec",
                               str(self.spec_path), "--input", str(path),
                               "--batch-size", str(max(size, 1)))
                self._parsed[key] = parse_json.batches(text)
            for i, parsed in zip(idx, self._parsed[key]):
                out[i] = parsed
        return out


@pytest.fixture(scope="session")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("tfstream-py")


@pytest.fixture(scope="session")
def example_corpus(workdir) -> Corpus:
    c = Corpus(workdir, sequence=False)
    c.payloads = c.run_local()
    return c


@pytest.fixture(scope="session")
def sequence_corpus(workdir) -> Corpus:
    c = Corpus(workdir, sequence=True)
    c.payloads = c.run_local()
    return c


@pytest.fixture(scope="session")
def window_payloads(example_corpus) -> Path:
    """The Example corpus through event-time windows of 1 s whose buffer is emitted early every
    16 KiB: windows of several payloads, early ones with `parts` 0."""
    return example_corpus.run_local(
        "windows", "batch.mode=event_time_window", "batch.window=1 s",
        "batch.window-max-buffered-bytes=16kb")


@pytest.fixture(params=["example", "sequence"])
def any_corpus(request):
    return request.getfixturevalue(f"{request.param}_corpus")


class Broker:
    """A single-node KRaft broker in a JVM of its own, stopped by closing its stdin. A secured one
    also listens with SASL_SSL (SCRAM-SHA-512) and mutual TLS, authorizes with ACLs, and tells
    where its CA certificate and passwords are (`info`); `bootstrap_servers` is then its
    plaintext listener, a super user's."""

    def __init__(self, secured: bool = False):
        if not JAR.exists():
            run_cli("count", "--help")  # builds the CLI jar
        flags = subprocess.run([str(ROOT / "deploy" / "jvm-flags.sh")], stdout=subprocess.PIPE,
                               text=True, check=True).stdout.split()
        self.process = subprocess.Popen(
            ["java", *flags, "-Xmx512m", "-cp", str(JAR), "io.tfstream.local.EmbeddedKafkaMain",
             *(["--secured"] if secured else [])],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = []
        self.info = {}
        for line in self.process.stdout:
            lines.append(line)
            key, _, value = line.strip().partition("=")
            self.info[key] = value
            if line.startswith("bootstrap.servers="):
                self.bootstrap_servers = line.strip().split("=", 1)[1]
                break
        else:
            raise AssertionError("the broker process ended before it was ready:\n"
                                 + "".join(lines[-50:]))
        # keep draining its output so that it never blocks on a full pipe; answers to commands
        # (lines starting with "acl ") are kept for grant()
        self._answers = queue.Queue()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        for line in self.process.stdout:
            if line.startswith("acl "):
                self._answers.put(line.strip())

    def grant(self, resource_type: str, name: str, principal: str, operation: str,
              pattern: str = "LITERAL") -> None:
        """Adds an ALLOW ACL on a secured broker, once it applies."""
        self.process.stdin.write(f"acl {resource_type} {name} {pattern} {principal} {operation}\n")
        self.process.stdin.flush()
        answer = self._answers.get(timeout=60)
        assert answer == "acl ok", answer

    def create_topic(self, name: str, partitions: int) -> None:
        from confluent_kafka.admin import AdminClient, NewTopic

        admin = AdminClient({"bootstrap.servers": self.bootstrap_servers})
        for f in admin.create_topics([NewTopic(name, partitions, 1)]).values():
            f.result(30)

    def stop(self) -> None:
        self.process.stdin.close()
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="session")
def broker():
    b = Broker()
    yield b
    b.stop()


@pytest.fixture(scope="session")
def secured_broker():
    b = Broker(secured=True)
    yield b
    b.stop()


def pytest_sessionfinish(session, exitstatus):
    """Only the TensorFlow adapter's tests may skip: any other skip fails the run."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = [r.nodeid for r in (reporter.stats.get("skipped", []) if reporter else [])
               if "test_tf.py" not in r.nodeid]
    if skipped:
        print(f"\nfailing the run: tests skipped that must run: {skipped}")
        session.exitstatus = 1
