#!/usr/bin/env bash
# `npm test`: lint and format check (Biome, seconds), type check, unit and integration tests (PGlite and
# PostgreSQL), and end-to-end tests in Debian's Chromium against the built app.
set -euo pipefail
cd "$(dirname "$0")/.."
# On the product's Node: the one `npm ci` fetched when the machine's is older (scripts/runtime.sh, decision 0095).
. scripts/runtime.sh
# First because it is the fastest to fail: any finding (error or warning) or unformatted file stops the run.
npx biome ci --error-on-warnings .
node scripts/ensure-system-deps.mjs
# The type check and the build are independent: run them side by side (one core each).
npx tsc --noEmit -p tsconfig.json &
typecheck=$!
node scripts/build.mjs
wait "$typecheck"
# The end-to-end files (one at a time, mostly waiting on Chromium and the server) run beside the unit and
# integration files rather than after them: each tier alone leaves a core idle much of the time
# (decision 0108). Their report is held in a file and printed after the other's, so neither is interleaved.
e2e_log=$(mktemp)
trap 'rm -f "$e2e_log"' EXIT
npx vitest run --project e2e "$@" >"$e2e_log" 2>&1 &
e2e=$!
status=0
npx vitest run --project unit --project integration "$@" || status=$?
e2e_status=0
wait "$e2e" || e2e_status=$?
cat "$e2e_log"
if [ "$status" -ne 0 ] || [ "$e2e_status" -ne 0 ]; then exit 1; fi
