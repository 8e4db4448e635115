#!/usr/bin/env bash
# Runs every test: the unit and integration suites (swift test, real sockets, real SQLite files), then the
# Autobahn WebSocket conformance suite against /echo.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build
# Strict mode turns misuse of a stopped event loop into a crash instead of a log line.
SWIFTNIO_STRICT=1 swift test
scripts/autobahn.sh
