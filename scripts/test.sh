#!/usr/bin/env bash
# `npm test`: lint and format check (Biome, seconds), type check, unit and integration tests (PGlite and
# PostgreSQL), then end-to-end tests in Debian's Chromium against the built app.
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
npx vitest run --project unit --project integration "$@"
npx vitest run --project e2e "$@"
