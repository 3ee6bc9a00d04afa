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
# Property suites ran their full count on Node 20; here a few cases each show they run at all.
export CONFORMANCE_RUNS="${CONFORMANCE_RUNS:-10}"
# Test files do not register, on this run, what the Node 20 run has done and that does not depend on the Node
# version (PostgreSQL and process-killing scenarios, load runs, transcript sweeps, and the CLI's files of plain
# code: parsers, formats, policies, the simulation); each says so where it chooses its `describe` or `it`.
export COMPACTION_COMPATIBILITY_RUN=1
# Only the packages whose code meets the runtime: Node's own modules (files, processes, HTTP, SQLite), the
# WebAssembly scanners, and the SDKs over fetch, with the server's example run end to end. Core, the strategy
# kit and the strategies import nothing from the runtime (core must run in browsers and edge runtimes too), so a
# second Node version tells nothing about them that the Node 20 run has not.
runtime_packages=(
  @compaction/cli @compaction/server @compaction/store-sqlite @compaction/token-estimator @compaction/tokenizer-tiktoken
  @compaction/provider-anthropic @compaction/provider-openai @compaction/ai-sdk @compaction/mcp @compaction/example-serve
)
pnpm -r --workspace-concurrency=2 --reporter=append-only "${runtime_packages[@]/#/--filter=}" run test
