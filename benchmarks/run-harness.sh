#!/usr/bin/env bash
# The throughput harness (BENCHMARKS.md, "Throughput harness"): pass-through vs tfstream on one
# machine, then latency at a fixed rate; report, JSON and charts in e2e-tests/target/harness/.
# Settings (system properties, defaults in brackets): harness.records [1000000] (per profile:
# harness.records.<profile>),
# harness.profiles [seed001,wide], harness.partitions [4], harness.parallelism [2],
# harness.checkpoint-ms [1000], harness.batch-delays-ms [50,200,1000], harness.latency-rate [5000],
# harness.latency-seconds [30], harness.s3 [true], harness.shard-cost [true] (the job without
# shards, with gzip shards, and Flink's FileSink writing the same bytes), harness.batch-sizes [128,1024,4096],
# harness.warm-up [true] (one unmeasured run of each job first), harness.repeat [1] (interleaved
# repeats of the measured runs, the median of each job reported), harness.validation [true] (the
# job with TFDV validation on, from the profile's TFMD schema, with window statistics too, and the
# shards local job with bucket statistics, shards.statistics), harness.profiled-job [local] (the
# job profiled with JFR: local, "local, validation", "local, validation, statistics", none, ...,
# or off; the recording is kept as <out>/<profile>.jfr), harness.inputs [json,avro] (the same
# records as JSON and Avro, each read by the job without shards and compared with the Example
# input; empty: none), harness.out [target/harness].
# --quick (first argument): a before/after check in under 5 minutes: 500 000 seed-001 and
# 120 000 wide records; the pass-through job, shards local, no shards, JSON and Avro input, one
# latency point of 10 s; no S3, gzip, validation, batch-size or JFR runs. Later -D settings win.
# Example: benchmarks/run-harness.sh -Dharness.records=200000
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
quick=()
if [[ "${1:-}" == "--quick" ]]; then
  shift
  quick=(-Dharness.records.seed001=500000 -Dharness.records.wide=120000 -Dharness.s3=false
    -Dharness.shard-cost=false -Dharness.validation=false -Dharness.batch-sizes=1024
    -Dharness.batch-delays-ms=200 -Dharness.latency-seconds=10 -Dharness.profiled-job=off
    -Dharness.out=target/harness-quick)
fi
mvn -B -ntp -q -pl cli -am install -DskipTests -Dspotless.check.skip=true
exec mvn -B -ntp -pl e2e-tests verify -Dspotless.check.skip=true \
  -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=ThroughputHarnessITCase -Dharness.records=1000000 "${quick[@]}" "$@"
