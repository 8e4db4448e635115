#!/usr/bin/env bash
# chat-bench against a real server, briefly, in every mode the benchmarks use: /chat and /api/v1/ws, one process and
# several over loopback source addresses, accounts kept and reused, idle. The tests run it (scripts/test.sh) so that
# a change that breaks the load generator is found there and not on the day of a benchmark. It checks only what
# holds at any speed: every message delivered, no client disconnected. Not a measurement.
#
# Usage: bench/smoke.sh BIN_DIR
#        BIN_DIR: where chat-server and chat-bench are (the tests use the debug build's).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${1:?usage: bench/smoke.sh BIN_DIR}
work=$(mktemp -d)
server_pid=""
trap '[[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
"$bin/chat-server" --port "$port" --tcp-port "$(free_port)" --metrics-port "$(free_port)" --data-dir "$work/data" \
    --log-level warning --demo-bot false --max-connections-per-address 100000 --send-burst 100000 \
    --send-rate 100000 --tutorial-send-burst 100000 --tutorial-send-rate 100000 --bcrypt-cost 4 \
    --registrations-per-hour 100000 >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 300); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
    sleep 0.1
done

# run NAME CHAT-BENCH-ARGS...: one chat-bench run; fails unless its report says every message arrived and no client
# was disconnected.
run() {
    local name=$1 report
    shift
    report=$("$bin/chat-bench" --url "ws://127.0.0.1:$port/chat" --server-pid "$server_pid" --json-only "$@") || {
        echo "bench smoke: $name: chat-bench failed (exit $?)" >&2
        return 1
    }
    python3 - "$name" "$report" <<'EOF'
import json, sys
name, report = sys.argv[1], json.loads(sys.argv[2])
problems = []
if report.get("disconnects", 0) != 0:
    problems.append(f"{report['disconnects']} disconnects")
if report.get("mode") != "idle" and report.get("deliveredPercent") != 100:
    problems.append(f"{report.get('deliveredPercent')} % delivered")
if problems:
    sys.exit(f"bench smoke: {name}: {', '.join(problems)}\n{json.dumps(report)}")
print(f"bench smoke: {name}: ok")
EOF
}

load=(--clients 20 --senders 2 --rate 20 --warmup 0.5 --duration 1)
run "/chat" "${load[@]}"
run "/chat, 2 processes over 4 source addresses" "${load[@]}" --processes 2 --source-addresses 4
run "/api/v1/ws, accounts registered and kept" "${load[@]}" --protocol modern --accounts "$work/accounts.json"
run "/api/v1/ws, the kept accounts reused" "${load[@]}" --protocol modern --accounts "$work/accounts.json"
run "/api/v1/ws, 2 processes, 4 rooms" "${load[@]}" --protocol modern --rooms 4 --processes 2
run "idle" --idle --clients 20 --hold 0.5
