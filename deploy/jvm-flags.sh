#!/usr/bin/env bash
# Prints the flags every Flink JVM (JobManager, TaskManager, client, local embedded mode) needs:
# Java 17's --add-opens/--add-exports, and the allow-list of Kafka config providers (file and env
# only, so that no client setting, a SQL table's included, can instantiate another). They are read from the root pom's `jvm.module.flags`
# property, the one place they are defined; surefire and failsafe use the same property.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
flags="$(sed -n 's:.*<jvm.module.flags>\(.*\)</jvm.module.flags>.*:\1:p' "$root/pom.xml")"
if [ -z "$flags" ]; then
  echo "jvm-flags.sh: no <jvm.module.flags> property in $root/pom.xml" >&2
  exit 1
fi
printf '%s\n' "$flags"
