#!/usr/bin/env bash
# Checks that the Python interpreter of the tests has the client's dependencies (numpy, protobuf,
# pytest, hypothesis, confluent-kafka) and that protoc is there; installs the missing Debian packages with apt-get when it can (as root
# or through sudo), otherwise fails naming the command to run.
# The interpreter: $TFSTREAM_PYTHON, else /usr/bin/python3 (Debian's, which the apt packages
# serve), else python3 on PATH. Prints the interpreter's path on stdout when all is there.
set -euo pipefail
python="${TFSTREAM_PYTHON:-}"
if [ -z "$python" ]; then
  if [ -x /usr/bin/python3 ]; then python=/usr/bin/python3; else python="$(command -v python3 || true)"; fi
fi
if [ -z "$python" ] || ! "$python" -c 'import sys; assert sys.version_info >= (3, 9)' 2>/dev/null; then
  echo "check-deps.sh: no Python >= 3.9 (set TFSTREAM_PYTHON, or apt-get install -y python3)" >&2
  exit 1
fi

missing() { # the Debian packages whose module the interpreter cannot import
  local out=()
  "$python" -c 'import numpy' 2>/dev/null || out+=(python3-numpy)
  "$python" -c 'import google.protobuf' 2>/dev/null || out+=(python3-protobuf)
  "$python" -c 'import pytest' 2>/dev/null || out+=(python3-pytest)
  "$python" -c 'import hypothesis' 2>/dev/null || out+=(python3-hypothesis)  # the fuzz tests
  "$python" -c 'import confluent_kafka' 2>/dev/null || out+=(python3-confluent-kafka)
  command -v protoc >/dev/null || out+=(protobuf-compiler)  # the generated-modules check
  echo "${out[@]+"${out[@]}"}"
}

need="$(missing)"
if [ -n "$need" ]; then
  cmd="apt-get install -y --no-install-recommends $need"
  if [ "$python" != /usr/bin/python3 ]; then
    echo "check-deps.sh: $python lacks $need; Debian's packages serve /usr/bin/python3 only:" \
      "install them for $python (pip install numpy protobuf pytest hypothesis confluent-kafka) or unset TFSTREAM_PYTHON" >&2
    exit 1
  fi
  if [ "$(id -u)" = 0 ]; then sudo=(); elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo=(sudo -n); else
    echo "check-deps.sh: missing Python packages for $python: run  sudo apt-get update && sudo $cmd" >&2
    exit 1
  fi
  echo "check-deps.sh: installing $need" >&2
  export DEBIAN_FRONTEND=noninteractive
  # shellcheck disable=SC2086
  "${sudo[@]+"${sudo[@]}"}" apt-get install -y --no-install-recommends $need >&2 \
    || { "${sudo[@]+"${sudo[@]}"}" apt-get update >&2 && "${sudo[@]+"${sudo[@]}"}" apt-get install -y --no-install-recommends $need >&2; }
  need="$(missing)"
  if [ -n "$need" ]; then
    echo "check-deps.sh: still missing after apt-get: $need" >&2
    exit 1
  fi
fi
echo "$python"
