#!/usr/bin/env bash
# Runs the benchmark scenarios of docs/BENCHMARKS.md against a release build: the server pinned to CPU 0 with a
# fresh data directory, chat-bench pinned to CPU 1. Prints each scenario's JSON line. Not part of the tests.
#
# Usage: scripts/bench.sh [runs]      (runs of the 100-client scenario, default 3)
# Env:   SCRATCH_PATH=dir             build folder (default .build; a release build of Vapor takes ~15 min)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
build=(swift build -c release ${SCRATCH_PATH:+--scratch-path "$SCRATCH_PATH"})

"${build[@]}" --product chat-server
"${build[@]}" --product chat-bench
bin=$("${build[@]}" --show-bin-path)

data=$(mktemp -d)
port=18480
start_server() {
    rm -rf "$data"/*
    # Every load-generator connection comes from 127.0.0.1: the per-address limits are lifted.
    taskset -c 0 "$bin/chat-server" --port "$port" --tcp-port $((port + 1)) --data-dir "$data" --log-level warning --demo-bot false \
        --max-connections 1000000 --max-connections-per-address 1000000 \
        --tutorial-send-burst 100000 --tutorial-send-rate 100000 &
    server_pid=$!
    sleep 2
}
stop_server() { kill "$server_pid"; wait "$server_pid" || true; }
trap 'kill "${server_pid:-0}" 2>/dev/null || true; rm -rf "$data"' EXIT
bench() { taskset -c 1 "$bin/chat-bench" --url "ws://127.0.0.1:$port/chat" --server-pid "$server_pid" --json-only "$@"; }

start_server
echo "# idle memory: 10,000 connections"
bench --idle --clients 10000
stop_server

start_server
for run in $(seq 1 "$runs"); do
    echo "# 100 clients, 10 senders, 200 msg/s, 128-byte messages (run $run)"
    bench --clients 100 --senders 10 --rate 200 --duration 10 --message-bytes 128
done
echo "# 1,000 clients, 10 senders, 100 msg/s"
bench --clients 1000 --senders 10 --rate 100 --duration 10 --message-bytes 128
stop_server
