#!/usr/bin/env bash
# Checks that headless Chromium and its ChromeDriver are there for the report's browser test
# (ReportBrowserITCase): Debian's chromium and chromium-driver, installed with apt-get when missing
# and it can (as root or through sudo), otherwise fails naming the command to run.
# TFSTREAM_CHROMIUM / TFSTREAM_CHROMEDRIVER name the binaries (Debian's by default; others are
# not installed). Arguments: Maven's skipTests and skipITs; either "true" skips the check.
set -euo pipefail
if [ "${1:-false}" = true ] || [ "${2:-false}" = true ]; then
  exit 0
fi
chromium="${TFSTREAM_CHROMIUM:-/usr/bin/chromium}"
driver="${TFSTREAM_CHROMEDRIVER:-/usr/bin/chromedriver}"
if [ -x "$chromium" ] && [ -x "$driver" ]; then
  exit 0
fi
if [ "$chromium" != /usr/bin/chromium ] || [ "$driver" != /usr/bin/chromedriver ]; then
  echo "check-browser.sh: $chromium or $driver is not an executable" >&2
  exit 1
fi
cmd="apt-get install -y --no-install-recommends chromium chromium-driver"
if [ "$(id -u)" = 0 ]; then sudo=(); elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo=(sudo -n); else
  echo "check-browser.sh: the report's browser test needs Chromium: run  sudo apt-get update && sudo $cmd" >&2
  exit 1
fi
echo "check-browser.sh: installing chromium chromium-driver" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]+"${sudo[@]}"}" apt-get install -y --no-install-recommends chromium chromium-driver >&2 \
  || { "${sudo[@]+"${sudo[@]}"}" apt-get update >&2 && "${sudo[@]+"${sudo[@]}"}" apt-get install -y --no-install-recommends chromium chromium-driver >&2; }
if ! [ -x "$chromium" ] || ! [ -x "$driver" ]; then
  echo "check-browser.sh: still missing after apt-get: $chromium or $driver" >&2
  exit 1
fi
