#!/usr/bin/env bash
# `npm test`: type check, unit and integration tests (PGlite and PostgreSQL), then end-to-end tests
# in Debian's Chromium against the built app.
set -euo pipefail
cd "$(dirname "$0")/.."
node scripts/ensure-system-deps.mjs
npx tsc --noEmit -p tsconfig.json
node scripts/build.mjs
npx vitest run --project unit --project integration "$@"
npx vitest run --project e2e "$@"
