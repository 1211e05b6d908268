#!/usr/bin/env bash
# Draws the layout of tfstream-dashboard.json (panels, titles, their queries) into
# docs/images/dashboard-layout.png, the picture of docs/operations.md#dashboard. Needs JDK 17 and
# Maven; compiles the job module's tests (DashboardLayoutImage) first.
#
#   deploy/monitoring/render-layout.sh [OUT.png]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:-$root/docs/images/dashboard-layout.png}"
cd "$root"
cp="$(mktemp)"
trap 'rm -f "$cp"' EXIT
# One reactor run: the modules' classes come from their target/ directories (the job module, built
# last, writes the classpath last).
mvn -B -q -ntp -pl job -am test-compile dependency:build-classpath -Dspotless.check.skip=true \
  -Dmdep.includeScope=test -Dmdep.outputFile="$cp"
java -Djava.awt.headless=true -cp "job/target/test-classes:job/target/classes:$(cat "$cp")" \
  io.tfstream.job.deploy.DashboardLayoutImage deploy/monitoring/tfstream-dashboard.json "$out"
echo "$out"
