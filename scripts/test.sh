#!/usr/bin/env bash
# Runs every test: the unit and integration suites (swift test, real sockets, real SQLite files), then the
# Autobahn WebSocket conformance suite against /echo.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build
swift test
scripts/autobahn.sh
