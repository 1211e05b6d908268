#!/usr/bin/env bash
# Runs the Python client's tests (pytest) with the interpreter check-deps.sh picks (Debian's
# /usr/bin/python3 by default, TFSTREAM_PYTHON to choose), after making sure its dependencies are
# installed. The tests run bin/tfstream (building the CLI jar when it is stale) and start a Kafka
# broker process. Extra arguments go to pytest. Only the TensorFlow adapter's tests may skip.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="$("$here/check-deps.sh")"
cd "$here"
export PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1
echo "python tests: $python $("$python" --version 2>&1 | cut -d' ' -f2)" >&2
exec "$python" -m pytest -p no:cacheprovider -rs -q "$@" tests
