#!/usr/bin/env bash
# Browser tests of the web client (Public/) against a real server.
#   Tests/Web/run.sh PATH/TO/chat-server [test_area[.Class[.test_name]] ...]
# The tests are Tests/Web/test_*.py, one file per area (test_groups.py, test_offline.py…), on the shared base in
# webcase.py; with no names, run_tests.py runs them all.
# Starts the server on free ports with a temporary data dir, drives headless Chromium through Selenium, stops the
# server, and exits non-zero if any test fails. Needs Debian's chromium, chromium-driver and python3-selenium, and
# PyPI's axe-selenium-python for the accessibility check (scripts/install-test-deps.sh installs all of them).
# Screenshots go to docs/screenshots/ (or $SCREENSHOT_DIR).
set -euo pipefail

if [[ $# -lt 1 ]]; then
    echo "usage: $0 PATH/TO/chat-server [test names...]" >&2
    exit 2
fi
server_binary="$(realpath "$1")"
shift
if [[ ! -x "$server_binary" ]]; then
    echo "not an executable: $server_binary" >&2
    exit 2
fi

# Debian's Selenium belongs to the system Python, which may not be the first python3 on PATH.
python=/usr/bin/python3
if ! "$python" -c 'import selenium' 2>/dev/null; then
    echo "Selenium is missing: apt-get install -y chromium chromium-driver python3-selenium" >&2
    exit 2
fi
if ! "$python" -c 'import axe_selenium_python' 2>/dev/null; then
    echo "axe-selenium-python is missing: scripts/install-test-deps.sh installs it" >&2
    exit 2
fi

cd "$(dirname "$0")"
export SWIFTCHAT_SERVER_BIN="$server_binary"
export PYTHONDONTWRITEBYTECODE=1
exec "$python" run_tests.py "$@"
