#!/usr/bin/env bash
# Runs the benchmark scenarios of docs/BENCHMARKS.md against a release build: the server pinned to CPU 0 with a
# fresh data directory, chat-bench pinned to CPU 1. Prints each scenario's JSON line. Not part of the tests.
#
# Usage: scripts/bench.sh [--postgres [--two-nodes]] [--peers] [runs]
#        scripts/bench.sh --growth
#        scripts/bench.sh --scale
#        runs: runs of the 100-client scenario (default 3); with --peers, rounds of every scenario.
#        --postgres: the server on PostgreSQL instead of SQLite, a throwaway PostgreSQL 15 started here (Debian's
#        postgresql; as the postgres user when run as root), pinned to CPU 0 with the server, a fresh database per
#        scenario, fsync on (the durability an operator would run).
#        --two-nodes: with --postgres, two chat-server nodes on the one database (both pinned to CPU 0, with
#        PostgreSQL), chat-bench's clients spread over both in turn; CPU is the sum of both nodes.
#        --peers: SwiftChat side by side with the reference servers of bench/peers (the gorilla/websocket chat
#        hub in Go, a Node `ws` broadcast server) in one run, then a markdown table of medians and of SwiftChat's
#        ratio to the best peer. See "Peers" in docs/BENCHMARKS.md. Installs the Debian packages the peers need
#        when missing (golang-go, golang-github-gorilla-websocket-dev, node-ws; as root, else it says how).
#        --growth: how costs grow with the data (bench/growth.py): a lobby of 1,000,000 messages and 10,000 rooms
#        filled through the server, then start-up, history pages, resume, search, disk and memory per room. About
#        10 minutes; prints one JSON line. See "How cost grows with work" in docs/BENCHMARKS.md.
#        --scale: the scale scenarios (bench/scale.sh: its header lists their settings): several nodes on one
#        PostgreSQL, tens of thousands of clients from chat-bench spread over processes and source addresses. Checks
#        the machine's limits first. See "Scale" in docs/BENCHMARKS.md.
# Env:   SCRATCH_PATH=dir             build folder (default .build; a release build of Vapor takes ~15 min)
#        BENCH_SKIP_BUILD=1           no `swift build`: use chat-server and chat-bench already in $SCRATCH_PATH/release
#        BENCH_PORT=18480             the server's port (SwiftChat's TCP protocol and metrics on the next two)
#        BENCH_DURATION=10            seconds measured per load run (after chat-bench's 2 s warm-up)
#        BENCH_IDLE_CLIENTS=10000     connections of the idle-memory scenario
#        BENCH_LARGE_CLIENTS=1000     clients of the 1,000-client scenarios
#        BENCH_MANY_ROOMS_RATES="500 1000"  msg/s of the many-rooms scenario (500 clients in 50 rooms of 10)
#        BENCH_PG_CORE_RATES="3000 4000"    --postgres: msg/s of the scenario with PostgreSQL on a core of its own
#        BENCH_GRID="50 100 ..."      --peers: the 1,000-client saturation grid in msg/s (default 50 100 200 400
#                                     800 1600; 100 is always added: its p99 is reported on its own)
#        BENCH_SERVERS="gorilla node swiftchat"   --peers: which servers to run
#        BENCH_PEERS_OUT=.build-peers --peers: the peers' binaries, logs and results (ignored by git)
#        BENCH_GROWTH_MESSAGES=1000000 BENCH_GROWTH_ROOMS=10000   --growth: the size of the data
# Smoke test of the harness (figures meaningless):
#        BENCH_SKIP_BUILD=1 SCRATCH_PATH=.build-release BENCH_DURATION=1 BENCH_IDLE_CLIENTS=200 \
#        BENCH_LARGE_CLIENTS=50 BENCH_GRID="100 400" scripts/bench.sh --peers 1
set -euo pipefail
cd "$(dirname "$0")/.."

postgres=false
two_nodes=false
peers=false
growth=false
scale=false
while [[ $# -gt 0 ]]; do
    case $1 in
        --postgres) postgres=true ;;
        --two-nodes) two_nodes=true ;;
        --peers) peers=true ;;
        --growth) growth=true ;;
        --scale) scale=true ;;
        -h | --help)
            sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
            exit 0
            ;;
        -*)
            echo "unknown option $1 (see --help)" >&2
            exit 64
            ;;
        *) break ;;
    esac
    shift
done
runs=${1:-3}
if [[ $two_nodes == true && ($postgres == false || $peers == true) ]]; then
    echo "--two-nodes needs --postgres, and goes without --peers (see --help)" >&2
    exit 64
fi
if [[ $growth == true && ($postgres == true || $peers == true) ]]; then
    echo "--growth measures SQLite alone: it goes without --postgres and --peers (see --help)" >&2
    exit 64
fi
if [[ $scale == true && ($postgres == true || $peers == true || $growth == true || $two_nodes == true) ]]; then
    echo "--scale runs its own nodes on PostgreSQL: it goes alone (see --help)" >&2
    exit 64
fi
if ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then
    echo "runs must be a positive number, not $runs (see --help)" >&2
    exit 64
fi
port=${BENCH_PORT:-18480}
duration=${BENCH_DURATION:-10}
idle_clients=${BENCH_IDLE_CLIENTS:-10000}
large_clients=${BENCH_LARGE_CLIENTS:-1000}

if [[ ${BENCH_SKIP_BUILD:-0} == 1 ]]; then
    bin=${SCRATCH_PATH:-.build}/release
    for product in chat-server chat-bench; do
        if [[ ! -x $bin/$product ]]; then
            echo "BENCH_SKIP_BUILD=1 but $bin/$product is missing: build it, or unset BENCH_SKIP_BUILD" >&2
            exit 1
        fi
    done
    echo "# BENCH_SKIP_BUILD=1: using the binaries in $bin as they are"
else
    build=(swift build -c release ${SCRATCH_PATH:+--scratch-path "$SCRATCH_PATH"})
    "${build[@]}" --product chat-server
    "${build[@]}" --product chat-bench
    bin=$("${build[@]}" --show-bin-path)
fi
if [[ $scale == true ]]; then
    exec bench/scale.sh "$bin"
fi

# ---------------------------------------------------------------------------------------------------------------
# The peers (--peers): built from Debian packages only, offline, so that every machine runs the same code.
# ---------------------------------------------------------------------------------------------------------------
peers_out=${BENCH_PEERS_OUT:-.build-peers}
# Debian installs its node-* modules here; nodesource's Node does not look there by itself.
node_path=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

install_peer_packages() {
    local wanted=(golang-go golang-github-gorilla-websocket-dev node-ws) missing=() package
    for package in "${wanted[@]}"; do
        if ! dpkg-query -W -f '${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$package")
        fi
    done
    [[ ${#missing[@]} -eq 0 ]] && return 0
    if [[ $(id -u) -ne 0 ]]; then
        echo "the peers need Debian packages that are missing; run: sudo apt-get install ${missing[*]}" >&2
        exit 1
    fi
    echo "# installing the peers' Debian packages: apt-get install ${missing[*]}"
    # A fresh machine may have no package lists yet: update once if the first attempt fails.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null ||
        { apt-get update -q >/dev/null &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; }
}

build_peers() {
    install_peer_packages
    mkdir -p "$peers_out"
    : >"$peers_out/gorilla.log"
    : >"$peers_out/node.log"
    # GOPATH mode against Debian's source tree of gorilla/websocket (/usr/share/gocode), with the module proxy
    # off: nothing is fetched. The build cache lives beside the binary, out of the user's home.
    GO111MODULE=off GOPATH=/usr/share/gocode GOPROXY=off GOFLAGS="" GOCACHE="$PWD/$peers_out/go-cache" \
        go build -o "$peers_out/gorilla-chat" ./bench/peers/gorilla
    if ! command -v python3 >/dev/null; then
        echo "the table is made by bench/peers/summarize.py, which needs python3" >&2
        exit 1
    fi
    if ! command -v node >/dev/null || ! NODE_PATH=$node_path node -e 'require("ws")' 2>/dev/null; then
        echo "node cannot load the ws module (Debian's node-ws, expected in /usr/share/nodejs)" >&2
        exit 1
    fi
}

# ---------------------------------------------------------------------------------------------------------------
# Servers: one at a time, pinned to CPU 0, a fresh process (and for SwiftChat a fresh data directory) each time.
# ---------------------------------------------------------------------------------------------------------------
data=$(mktemp -d)
data_b=$(mktemp -d)
server_pid=""
node_b_pid=""
# The core SwiftChat's nodes run on: CPU 0 (with PostgreSQL, if any), except in the scenario that gives PostgreSQL
# a core of its own.
server_cpu=0
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
stop_postgres() {
    if [[ -n $pg ]]; then
        "${as_owner[@]}" "$pg_bin/pg_ctl" -D "$pg/data" -m fast stop >/dev/null 2>&1 || true
        rm -rf "$pg"
    fi
}
# Only the server this script started is stopped; server_pid is empty while none runs.
trap 'for pid in $server_pid $node_b_pid; do kill "$pid" 2>/dev/null || true; done; rm -rf "$data" "$data_b"; stop_postgres' EXIT

# Waits until the server accepts TCP connections on the port, or fails if it exits first.
wait_for_port() {
    local _
    for _ in $(seq 1 300); do
        if ! kill -0 "$server_pid" 2>/dev/null; then
            echo "the server exited before listening on port $port" >&2
            return 1
        fi
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            return 0
        fi
        sleep 0.1
    done
    echo "the server did not listen on port $port within 30 s" >&2
    return 1
}

limits=(--max-connections 1000000 --max-connections-per-address 1000000
    --tutorial-send-burst 100000 --tutorial-send-rate 100000 --send-burst 100000 --send-rate 100000
    --bcrypt-cost 4 --registrations-per-hour 1000000)
if [[ $growth == true ]]; then
    taskset -c 1 python3 bench/growth.py --server "$bin/chat-server" --data-dir "$data/growth" --port "$port" \
        --messages "${BENCH_GROWTH_MESSAGES:-1000000}" --rooms "${BENCH_GROWTH_ROOMS:-10000}" \
        -- "${limits[@]}" --log-level warning --demo-bot false
    exit 0
fi
start_swiftchat() {
    rm -rf "${data:?}"/*
    if [[ $postgres == true ]]; then
        "$pg_bin/psql" -X -q -h "$pg" -U chat -d postgres -c "DROP DATABASE IF EXISTS bench" -c "CREATE DATABASE bench"
        database=(--database-url "postgres:///bench?host=$pg&user=chat" --attachments-shared true)
    fi
    # Every load-generator connection comes from 127.0.0.1: the per-address limits are lifted. Metrics stay on (the
    # default) but on a port next to ours, so that a test server elsewhere on the machine does not block the start.
    # The modern scenarios register an account per client first (cheap bcrypt, no registration limit) and send
    # faster than a person (no send limit).
    taskset -c "$server_cpu" "$bin/chat-server" --port "$port" --tcp-port $((port + 1)) --metrics-port $((port + 2)) \
        --data-dir "$data" --log-level warning --demo-bot false "${limits[@]}" "${database[@]}" &
    server_pid=$!
    if [[ $two_nodes == true ]]; then
        rm -rf "${data_b:?}"/*
        # Node B shares node A's attachments directory, as the shared mount of a real deployment.
        taskset -c 0 "$bin/chat-server" --port $((port + 10)) --tcp-port $((port + 11)) --metrics-port $((port + 12)) \
            --data-dir "$data_b" --attachments-dir "$data/attachments" --node-name B --log-level warning \
            --demo-bot false "${limits[@]}" "${database[@]}" &
        node_b_pid=$!
    fi
}

# Starts one server by name: swiftchat, gorilla or node. The peers' output goes to a log file.
start_server() {
    local name=${1:-swiftchat}
    case $name in
        swiftchat) start_swiftchat ;;
        gorilla)
            taskset -c 0 "$peers_out/gorilla-chat" -port "$port" >>"$peers_out/gorilla.log" 2>&1 &
            server_pid=$!
            ;;
        node)
            NODE_PATH=$node_path taskset -c 0 node bench/peers/node/server.js "$port" >>"$peers_out/node.log" 2>&1 &
            server_pid=$!
            ;;
        *)
            echo "unknown server $name (expected gorilla, node or swiftchat)" >&2
            exit 64
            ;;
    esac
    wait_for_port
    # Time to finish starting up (SwiftChat opens and migrates its database) before memory is read.
    sleep 2
}
stop_server() {
    for pid in $server_pid $node_b_pid; do
        kill "$pid" 2>/dev/null || true # it may have died under load; wait reports that
        wait "$pid" || true
    done
    server_pid=""
    node_b_pid=""
}

# ---------------------------------------------------------------------------------------------------------------
# The load generator, pinned to CPU 1.
# ---------------------------------------------------------------------------------------------------------------
# postgres_cpu: CPU seconds used so far by every PostgreSQL process.
source bench/postgres-cpu.sh
# Messages stored in the benchmark's database so far.
stored_messages() {
    "$pg_bin/psql" -X -q -t -A -h "$pg" -U chat -d bench -c "SELECT count(*) FROM messages"
}
bench() {
    local before stored_before
    [[ $postgres == true ]] && before=$(postgres_cpu) && stored_before=$(stored_messages)
    local nodes=(--url "ws://127.0.0.1:$port/chat" --server-pid "$server_pid")
    if [[ -n $node_b_pid ]]; then nodes+=(--url "ws://127.0.0.1:$((port + 10))/chat" --server-pid "$node_b_pid"); fi
    # A scenario that fails (the server refused clients, say) is reported and the run goes on with the next.
    taskset -c 1 "$bin/chat-bench" "${nodes[@]}" --json-only "$@" || echo "# chat-bench failed: exit $?"
    # Connections and warm-up included, so the figure per message is an upper bound.
    [[ $postgres == true ]] && awk -v a="$before" -v b="$(postgres_cpu)" -v n=$(($(stored_messages) - stored_before)) \
        'BEGIN { printf "# PostgreSQL CPU during the scenario: %.2f s, %.0f µs per message stored (%d)\n",
                 b - a, (n > 0 ? (b - a) * 1e6 / n : 0), n }'
    return 0
}

# One modern scenario on a fresh server: LABEL CLIENTS ROOMS SENDERS RATE.
many_rooms() {
    local label=$1 clients=$2 rooms=$3 senders=$4 rate=$5
    start_server
    echo "# $label $clients clients in $rooms rooms of $((clients / rooms)), $senders senders, $rate msg/s"
    bench --protocol modern --clients "$clients" --rooms "$rooms" --senders "$senders" --rate "$rate" \
        --duration "$duration" --message-bytes 128
    stop_server
}

# ---------------------------------------------------------------------------------------------------------------
# Without --peers: SwiftChat alone, as before (one server for all runs of the 100-client scenario).
# ---------------------------------------------------------------------------------------------------------------
if [[ $peers == false ]]; then
    start_server
    echo "# idle memory: $idle_clients connections"
    bench --idle --clients "$idle_clients"
    stop_server

    start_server
    for run in $(seq 1 "$runs"); do
        echo "# 100 clients, 10 senders, 200 msg/s, 128-byte messages (run $run)"
        bench --clients 100 --senders 10 --rate 200 --duration "$duration" --message-bytes 128
    done
    echo "# $large_clients clients, 10 senders, 100 msg/s"
    bench --clients "$large_clients" --senders 10 --rate 100 --duration "$duration" --message-bytes 128
    stop_server

    # The modern protocol (/api/v1/ws): an account per client, acks to the senders, messages to every member.
    start_server
    echo "# /api/v1/ws: 100 members of the lobby, 10 senders, 200 msg/s"
    bench --protocol modern --clients 100 --senders 10 --rate 200 --duration "$duration" --message-bytes 128
    stop_server
    start_server
    echo "# /api/v1/ws: $large_clients members of the lobby, 10 senders, 100 msg/s"
    bench --protocol modern --clients "$large_clients" --senders 10 --rate 100 --duration "$duration" \
        --message-bytes 128
    stop_server
    # Many rooms: what one commit costs when many rooms commit at once (group commit per room, the database's
    # cost per message), at a rate no single room of people would reach.
    # (500 clients: with 1,000 the server fails to accept them all, see BENCHMARKS.md "The modern protocol".)
    for rate in ${BENCH_MANY_ROOMS_RATES:-500 1000}; do
        many_rooms "/api/v1/ws:" 500 50 50 "$rate"
    done
    if [[ $postgres == true && $two_nodes == false ]]; then
        # PostgreSQL's cost per message once it has a core of its own and batches grow with the load (issue 12's
        # target: one core for >= 5,000 msg/s): PostgreSQL alone on CPU 0, the node beside chat-bench on CPU 1,
        # rooms of two, so that the node can drive thousands of messages per second.
        server_cpu=1
        for rate in ${BENCH_PG_CORE_RATES:-3000 4000}; do
            many_rooms "PostgreSQL on a core of its own:" 200 100 100 "$rate"
        done
        server_cpu=0
    fi
    exit 0
fi

# ---------------------------------------------------------------------------------------------------------------
# --peers: every scenario against every server in one run.
#
# Fairness:
# - Same machine, same pinning (server on CPU 0, chat-bench on CPU 1), same generator and the same frames: chat-bench
#   finds its messages by a byte marker inside the frame, so the peers' verbatim relay and SwiftChat's JSON (which
#   adds an id and a date to each message, about 80 bytes) are measured alike.
# - A fresh server process for every scenario and every grid point, so that nothing one run left behind (queued
#   frames, a grown heap, a slow client the hub dropped) weighs on the next.
# - SwiftChat's /chat also sends each new client the lobby's recent history and announces a sender's first message
#   to everyone. With a fresh, empty data directory per scenario there is no history to send, and the ten
#   announcements fall in chat-bench's greeting phase, which ends before anything is measured. What is left is the
#   work a chat server does that the peers do not: every message is committed to SQLite before it is delivered.
# - Rounds are interleaved, scenario by scenario (round 1: idle on each server, then the 100-client scenario on
#   each, then each grid rate on each), and the order of the servers rotates from one round to the next, so that a
#   drift of the machine's speed during the run falls on every server alike.
# - Saturation grid: rates go up until a server fails one (less than 95 % delivered, or p99 ≥ 250 ms); that
#   server then skips the higher rates, except 100 msg/s, whose p99 is reported on its own. A server that cannot
#   keep up queues without bound (Node) or drops clients (gorilla), and higher rates would only cost time.
# ---------------------------------------------------------------------------------------------------------------
read -r -a servers <<<"${BENCH_SERVERS:-gorilla node swiftchat}"
for server in "${servers[@]}"; do
    if [[ ! $server =~ ^(gorilla|node|swiftchat)$ ]]; then
        echo "BENCH_SERVERS: unknown server $server (expected gorilla, node or swiftchat)" >&2
        exit 64
    fi
done
build_peers
read -r -a grid_rates <<<"${BENCH_GRID:-50 100 200 400 800 1600}"
grid=$(printf '%s\n' "${grid_rates[@]}" 100 | sort -n -u | tr '\n' ' ')
stamp=$(date -u +%Y%m%d-%H%M%S)
results=$peers_out/results-$stamp.jsonl
table=$peers_out/table-$stamp.md
# The idle scenario holds 10,000 sockets in the server; Node does not raise its own descriptor limit.
ulimit -n "$(ulimit -H -n)" 2>/dev/null || true
if [[ $(nproc) -lt 2 ]]; then
    echo "# warning: fewer than 2 CPUs, so the server and chat-bench share one and the figures mean little" >&2
fi

# What was run where, first line of the results (key value pairs, made JSON by python3 so nothing needs quoting).
go_version=$(go version | awk '{ print $3 }')
gorilla_version=$(dpkg-query -W -f '${Version}' golang-github-gorilla-websocket-dev)
ws_version=$(NODE_PATH=$node_path node -p 'require("ws/package.json").version')
python3 -c 'import json, sys; a = sys.argv[1:]; print(json.dumps({"meta": dict(zip(a[::2], a[1::2]))}))' \
    date "$(date -u +%Y-%m-%d)" \
    commit "$(git describe --always --dirty 2>/dev/null || echo unknown)" \
    rounds "$runs" duration "$duration" warmup 2 grid "${grid% }" \
    swiftchatStorage "$([[ $postgres == true ]] && echo "PostgreSQL on CPU 0" || echo SQLite)" \
    idleClients "$idle_clients" largeClients "$large_clients" \
    machine "$(nproc) CPUs, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), Linux $(uname -r)" \
    versions "$go_version, gorilla/websocket $gorilla_version, Node $(node --version), ws $ws_version" \
    >"$results"
echo "# results: $results"

# Runs one scenario on a fresh server and appends chat-bench's JSON line, labelled, to the results file; prints it
# too and leaves it in last_result. A failed chat-bench run (no report) is recorded as null and the run goes on.
# Not called in a $( ) subshell: the EXIT trap must see server_pid to stop the server on Ctrl-C.
last_result=null
measure() {
    local server=$1 scenario=$2 round=$3 rate=$4 line
    shift 4
    start_server "$server"
    echo "# round $round, $server, $scenario${rate:+ at $rate msg/s}"
    line=$(taskset -c 1 "$bin/chat-bench" --url "ws://127.0.0.1:$port/chat" --server-pid "$server_pid" \
        --json-only "$@" | tail -n 1) || line=""
    stop_server
    [[ $line == "{"* ]] || line=null
    printf '{"server":"%s","scenario":"%s","round":%d,"rate":%s,"result":%s}\n' \
        "$server" "$scenario" "$round" "${rate:-null}" "$line" >>"$results"
    echo "$line"
    last_result=$line
}

for round in $(seq 1 "$runs"); do
    # Rotate the servers' order: round 1 gorilla, node, swiftchat; round 2 node, swiftchat, gorilla; ...
    shift_by=$(((round - 1) % ${#servers[@]}))
    order=("${servers[@]:shift_by}" "${servers[@]:0:shift_by}")

    for server in "${order[@]}"; do
        measure "$server" idle "$round" "" --idle --clients "$idle_clients"
    done
    for server in "${order[@]}"; do
        measure "$server" moderate "$round" "" \
            --clients 100 --senders 10 --rate 200 --duration "$duration" --message-bytes 128
    done
    declare -A failed=()
    for rate in $grid; do
        for server in "${order[@]}"; do
            if [[ -n ${failed[$server]:-} && $rate != 100 ]]; then
                continue
            fi
            measure "$server" grid "$round" "$rate" \
                --clients "$large_clients" --senders 10 --rate "$rate" --duration "$duration" --message-bytes 128
            python3 bench/peers/summarize.py passes <<<"$last_result" || failed[$server]=1
        done
    done
    unset failed
done

python3 bench/peers/summarize.py table "$results" | tee "$table"
echo
echo "# table saved as $table; every run's chat-bench report is in $results"
