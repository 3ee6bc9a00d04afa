#!/usr/bin/env bash
# Runs every package's tests again on Node 22. The binary comes from the `node` package of the npm registry,
# installed once into node_modules/.cache; nothing is fetched from anywhere else.
set -euo pipefail
cd "$(dirname "$0")/.."
version=22.23.3
prefix="$PWD/node_modules/.cache/node-$version"
if [ ! -x "$prefix/node_modules/.bin/node" ]; then
  npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$prefix" "node@$version" >/dev/null
fi
export PATH="$prefix/node_modules/.bin:$PATH"
echo "Running the test suite on Node $(node --version)"
# pnpm -r rather than turbo: turbo's cache does not know the Node version and would replay the Node 20 results.
# Property suites already ran 1,000 cases per property on Node 20; here they check compatibility with fewer.
export CONFORMANCE_RUNS="${CONFORMANCE_RUNS:-100}"
# Test files do not register, on this run, the long scenarios whose work the Node 20 run has done and that
# do not depend on the Node version (PostgreSQL and process-killing scenarios, load runs, transcript sweeps);
# each says so where it chooses its `describe` or `it`.
export COMPACTION_COMPATIBILITY_RUN=1
pnpm -r --workspace-concurrency=2 --reporter=append-only run test
