#!/usr/bin/env bash
# Runs the Autobahn|Testsuite WebSocket cases against /echo with kosoku (PyPI), which drives Autobahn's own
# case files on Python 3. Groups 12 and 13 (permessage-deflate) are skipped: SwiftChat does not offer
# compression. Every other case must be OK, NON-STRICT or INFORMATIONAL.
#
# Usage: scripts/autobahn.sh            (builds nothing: run `swift build` first)
# Env:   AUTOBAHN_REPORTS=dir           where the HTML/JSON reports go (default .build/autobahn)
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.venv
if [ ! -x "$venv/bin/kosoku" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "kosoku==0.1.0"
fi

server=.build/debug/chat-server
[ -x "$server" ] || { echo "autobahn: $server is missing; run swift build first" >&2; exit 1; }

port=$("$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
tcp_port=$("$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
data=$(mktemp -d)
reports=${AUTOBAHN_REPORTS:-.build/autobahn}
rm -rf "$reports"

"$server" --port "$port" --tcp-port "$tcp_port" --data-dir "$data" --log-level warning --metrics-port 0 &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 1 100); do
    "$venv/bin/python" -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null && break
    sleep 0.1
done

# kosoku exits non-zero if any case is not OK; the verdicts below decide instead, since NON-STRICT and
# INFORMATIONAL are acceptable outcomes.
"$venv/bin/kosoku" "ws://127.0.0.1:$port/echo/?id=autobahn" -x '12.*' -x '13.*' -o "$reports" >/dev/null || true

"$venv/bin/python" - "$reports/index.json" <<'PY'
import collections, json, sys
index = json.load(open(sys.argv[1]))
verdicts, failures = collections.Counter(), []
for cases in index.values():
    for case, result in sorted(cases.items()):
        behavior, close = result["behavior"], result.get("behaviorClose", "OK")
        verdicts[behavior] += 1
        if behavior not in ("OK", "NON-STRICT", "INFORMATIONAL") or close not in ("OK", "INFORMATIONAL"):
            failures.append(f"{case}: {behavior} / close {close}")
for failure in failures:
    print("autobahn case failed:", failure)
total = sum(verdicts.values())
print("autobahn verdicts:", ", ".join(f"{name} {count}" for name, count in sorted(verdicts.items())))
print(f"autobahn: {total - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures or total == 0 else 0)
PY
