#!/usr/bin/env bash
# Runs the benchmark scenarios of docs/BENCHMARKS.md against a release build: the server pinned to CPU 0 with a
# fresh data directory, chat-bench pinned to CPU 1. Prints each scenario's JSON line. Not part of the tests.
#
# Usage: scripts/bench.sh [--postgres] [runs]   (runs of the 100-client scenario, default 3)
#        --postgres: the server on PostgreSQL instead of SQLite, a throwaway PostgreSQL 15 started here (Debian's
#        postgresql; as the postgres user when run as root), pinned to CPU 0 with the server, a fresh database per
#        scenario, fsync on (the durability an operator would run).
# Env:   SCRATCH_PATH=dir             build folder (default .build; a release build of Vapor takes ~15 min)
set -euo pipefail
cd "$(dirname "$0")/.."
postgres=false
if [[ "${1:-}" == --postgres ]]; then
    postgres=true
    shift
fi
runs=${1:-3}
build=(swift build -c release ${SCRATCH_PATH:+--scratch-path "$SCRATCH_PATH"})

"${build[@]}" --product chat-server
"${build[@]}" --product chat-bench
bin=$("${build[@]}" --show-bin-path)

data=$(mktemp -d)
port=18480
database=()
pg=""
if [[ $postgres == true ]]; then
    pg=$(mktemp -d)
    pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
    as_owner=()
    if [[ $(id -u) -eq 0 ]]; then
        chown postgres "$pg"
        as_owner=(runuser -u postgres --)
    fi
    "${as_owner[@]}" "$pg_bin/initdb" -D "$pg/data" -A trust -U chat -E UTF8 --locale=C.UTF-8 >/dev/null
    "${as_owner[@]}" taskset -c 0 "$pg_bin/pg_ctl" -D "$pg/data" -l "$pg/log" -w \
        -o "-p 5432 -k $pg -c listen_addresses='' -c max_connections=200" start >/dev/null
fi
start_server() {
    rm -rf "$data"/*
    if [[ $postgres == true ]]; then
        "$pg_bin/psql" -X -q -h "$pg" -U chat -d postgres -c "DROP DATABASE IF EXISTS bench" -c "CREATE DATABASE bench"
        database=(--database-url "postgres:///bench?host=$pg&user=chat" --attachments-shared true)
    fi
    # Every load-generator connection comes from 127.0.0.1: the per-address limits are lifted.
    taskset -c 0 "$bin/chat-server" --port "$port" --tcp-port $((port + 1)) --data-dir "$data" --log-level warning --demo-bot false \
        --max-connections 1000000 --max-connections-per-address 1000000 \
        --tutorial-send-burst 100000 --tutorial-send-rate 100000 "${database[@]}" &
    server_pid=$!
    sleep 3
}
stop_server() { kill "$server_pid"; wait "$server_pid" || true; }
stop_postgres() {
    if [[ -n $pg ]]; then
        "${as_owner[@]}" "$pg_bin/pg_ctl" -D "$pg/data" -m fast stop >/dev/null 2>&1 || true
        rm -rf "$pg"
    fi
}
trap 'kill "${server_pid:-0}" 2>/dev/null || true; rm -rf "$data"; stop_postgres' EXIT
# CPU seconds used so far by every PostgreSQL process (its backends live as long as the server's pool keeps them).
postgres_cpu() {
    local ticks
    ticks=$(getconf CLK_TCK)
    for pid in $(pgrep -x postgres); do cat "/proc/$pid/stat" 2>/dev/null || true; done |
        awk -v hz="$ticks" '{ total += $14 + $15 } END { printf "%.2f", total / hz }'
}
bench() {
    local before
    [[ $postgres == true ]] && before=$(postgres_cpu)
    taskset -c 1 "$bin/chat-bench" --url "ws://127.0.0.1:$port/chat" --server-pid "$server_pid" --json-only "$@"
    [[ $postgres == true ]] && awk -v a="$before" -v b="$(postgres_cpu)" \
        'BEGIN { printf "# PostgreSQL CPU during the scenario: %.2f s\n", b - a }'
    return 0
}

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
