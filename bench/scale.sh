#!/usr/bin/env bash
# The scale scenarios (issue 36; docs/BENCHMARKS.md "Scale"): several chat-server nodes on one PostgreSQL on this
# machine, loaded by chat-bench spread over several processes and loopback source addresses. Run through
# `scripts/bench.sh --scale`, which builds the binaries; not part of the tests. Prints one JSON line per scenario.
#
# Usage: bench/scale.sh BIN_DIR
#        BIN_DIR: where the release chat-server and chat-bench are.
# Env:   SCALE_SCENARIOS="1 2 3 4"     which scenarios to run (1 one node at its limit, 2 the lobby over the nodes,
#                                      3 the 50,000-member modern room, 4 the reconnect storm)
#        SCALE_NODES=4                 chat-server nodes on the one database
#        SCALE_ONE_NODE_CLIENTS=19000  connections of the one-node scenario, half /chat and half /api/v1/ws
#        SCALE_LOBBY_CLIENTS=72000     /chat clients of the lobby scenario, spread over the nodes
#        SCALE_ROOM_MEMBERS=50000      /api/v1/ws members of the one-room scenario, spread over the nodes
#        SCALE_ROOM_CONNECT_RATE=400   new connections a second of the one-room scenario, all nodes together
#        SCALE_PROCESSES=4             chat-bench processes (each holds at most its descriptor limit less 100)
#        SCALE_SOURCE_ADDRESSES=64     loopback source addresses the clients connect from
#        SCALE_SUSTAIN_SECONDS=60      length of the sustained-rate window
#        SCALE_STORM_CLIENTS=18000     /api/v1/ws clients on the node the reconnect storm kills
#        SCALE_NODE_ARGS=              more chat-server flags for every node (split on spaces)
#        SCALE_PORT=19000              node k listens on SCALE_PORT + 10k (TCP protocol and metrics on the next two)
#
# Before it starts, it checks what the scenarios need of the machine (descriptors per process, the ephemeral port
# range, memory, PostgreSQL's binaries) and says what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${1:?usage: bench/scale.sh BIN_DIR}
nodes=${SCALE_NODES:-4}
scenarios=" ${SCALE_SCENARIOS:-1 2 3 4} "
one_node_clients=${SCALE_ONE_NODE_CLIENTS:-19000}
lobby_clients=${SCALE_LOBBY_CLIENTS:-72000}
room_members=${SCALE_ROOM_MEMBERS:-50000}
storm_clients=${SCALE_STORM_CLIENTS:-18000}
processes=${SCALE_PROCESSES:-4}
sources=${SCALE_SOURCE_ADDRESSES:-64}
sustain=${SCALE_SUSTAIN_SECONDS:-60}
base_port=${SCALE_PORT:-19000}

# ---------------------------------------------------------------------------------------------------------------
# The machine's limits, checked first.
# ---------------------------------------------------------------------------------------------------------------
missing=()
descriptors=$(ulimit -Hn)
read -r low high </proc/sys/net/ipv4/ip_local_port_range
available_kib=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
# needs SCENARIO PER_NODE PER_PROCESS TOTAL KIB_PER_CLIENT [HINT]: what one scenario asks of the machine. A
# connection costs about 5 KiB in a node, 4 in the kernel and 3 in chat-bench on /chat, and up to 80 KiB on
# /api/v1/ws while a burst of upgrades is authenticated (BENCHMARKS.md "Scale"); 1 GiB besides.
needs() {
    local scenario=$1 per_node=$2 per_process=$3 total=$4 kib=$5 hint=${6:-}
    if [[ $descriptors != unlimited ]]; then
        ((per_node + 200 <= descriptors)) ||
            missing+=("scenario $scenario: a node would hold $per_node connections, but a process may open $descriptors descriptors$hint")
        ((per_process + 100 <= descriptors)) ||
            missing+=("scenario $scenario: a chat-bench process would open $per_process clients, but a process may open $descriptors descriptors$hint")
    fi
    local per_pair=$(((total + sources - 1) / sources))
    ((per_pair <= high - low)) ||
        missing+=("scenario $scenario: each source address would need $per_pair ephemeral ports, but $low-$high holds $((high - low)): raise SCALE_SOURCE_ADDRESSES")
    ((total * kib + 1048576 <= available_kib)) ||
        missing+=("scenario $scenario: about $(((total * kib + 1048576) / 1024)) MiB of memory is needed, $((available_kib / 1024)) MiB is available")
}
[[ $scenarios == *" 1 "* ]] && needs 1 "$one_node_clients" $(((one_node_clients + 1) / 2)) "$one_node_clients" 46
[[ $scenarios == *" 2 "* ]] &&
    needs 2 $(((lobby_clients + nodes - 1) / nodes)) $(((lobby_clients + processes - 1) / processes)) "$lobby_clients" 12 \
        ": raise SCALE_NODES and SCALE_PROCESSES"
[[ $scenarios == *" 3 "* ]] &&
    needs 3 $(((room_members + nodes - 1) / nodes)) $(((room_members + processes - 1) / processes)) "$room_members" 80 \
        ": raise SCALE_NODES and SCALE_PROCESSES"
[[ $scenarios == *" 4 "* ]] && needs 4 "$storm_clients" "$storm_clients" "$storm_clients" 80
per_node=$(((lobby_clients + nodes - 1) / nodes))
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
[[ -x $pg_bin/initdb ]] || missing+=("PostgreSQL's binaries: apt-get install postgresql")
for product in chat-server chat-bench; do
    [[ -x $bin/$product ]] || missing+=("$bin/$product: build it in release mode")
done
if ((${#missing[@]} > 0)); then
    echo "bench --scale cannot run here:" >&2
    printf '  - %s\n' "${missing[@]}" >&2
    exit 1
fi
echo "# machine: $(nproc) cores, $((available_kib / 1024)) MiB available, $descriptors descriptors per process," \
    "ephemeral ports $low-$high"

# ---------------------------------------------------------------------------------------------------------------
# PostgreSQL and the nodes.
# ---------------------------------------------------------------------------------------------------------------
work=$(mktemp -d)
chmod 755 "$work" # PostgreSQL runs as the postgres user when this runs as root
pg=$work/pg
mkdir -p "$pg"
as_owner=()
if [[ $(id -u) -eq 0 ]]; then
    chown postgres "$pg"
    as_owner=(runuser -u postgres --)
fi
"${as_owner[@]}" "$pg_bin/initdb" -D "$pg/data" -A trust -U chat -E UTF8 --locale=C.UTF-8 >/dev/null
"${as_owner[@]}" "$pg_bin/pg_ctl" -D "$pg/data" -l "$pg/log" -w \
    -o "-p 5432 -k $pg -c listen_addresses='' -c max_connections=400" start >/dev/null
node_pids=()
stop_all() {
    for pid in "${node_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${node_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    "${as_owner[@]}" "$pg_bin/pg_ctl" -D "$pg/data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap stop_all EXIT

read -r -a node_args <<<"${SCALE_NODE_ARGS:-}"
limits=(--max-connections-per-address 1000000 --tutorial-send-burst 100000 --tutorial-send-rate 100000
    --send-burst 100000 --send-rate 100000 --bcrypt-cost 4 --registrations-per-hour 1000000)
# Starts COUNT nodes (default SCALE_NODES) on a fresh database (on the last one's with KEEP=keep), each accepting MAX
# connections (default its share of the lobby).
start_nodes() {
    local count=${1:-$nodes} max=${2:-$((per_node + 100))} keep=${3:-}
    if [[ $keep != keep ]]; then
        "$pg_bin/psql" -X -q -h "$pg" -U chat -d postgres -c "DROP DATABASE IF EXISTS bench" -c "CREATE DATABASE bench"
    fi
    node_pids=()
    for k in $(seq 0 $((count - 1))); do
        local port=$((base_port + 10 * k))
        mkdir -p "$work/node$k"
        "$bin/chat-server" --port "$port" --tcp-port $((port + 1)) --metrics-port $((port + 2)) \
            --data-dir "$work/node$k" --attachments-dir "$work/attachments" --node-name "n$k" --log-level warning \
            --demo-bot false --database-url "postgres:///bench?host=$pg&user=chat" --attachments-shared true \
            --max-connections "$max" "${limits[@]}" "${node_args[@]}" >>"$work/node$k.log" 2>&1 &
        node_pids+=($!)
        # One at a time: the first migrates the database, the others find it done.
        wait_for_port "$port" $!
    done
}
wait_for_port() {
    local port=$1 pid=$2 _
    for _ in $(seq 1 300); do
        kill -0 "$pid" 2>/dev/null || { echo "node on port $port exited; its log:" >&2; cat "$work"/node*.log >&2; return 1; }
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "node on port $port did not listen within 30 s" >&2
    return 1
}
stop_nodes() {
    for pid in "${node_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${node_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    node_pids=()
}
# postgres_cpu: CPU seconds used so far by every PostgreSQL process.
source bench/postgres-cpu.sh
# chat-bench over every node, its clients spread over the processes and source addresses, started at connect_rate
# a second in all; one JSON line.
connect_rate=2000
bench() {
    local urls=() pids=() k before
    for k in $(seq 0 $((nodes - 1))); do
        urls+=(--url "ws://127.0.0.1:$((base_port + 10 * k))/chat" --server-pid "${node_pids[$k]}")
    done
    before=$(postgres_cpu)
    "$bin/chat-bench" "${urls[@]}" --processes "$processes" --source-addresses "$sources" --connect-rate "$connect_rate" \
        --json-only "$@" || echo "# chat-bench failed: exit $?"
    awk -v a="$before" -v b="$(postgres_cpu)" 'BEGIN { printf "# PostgreSQL CPU during the scenario: %.2f s\n", b - a }'
}

# ---------------------------------------------------------------------------------------------------------------
# Scenario 1: one node at its descriptor limit, half /chat and half /api/v1/ws clients (accounts, `resume`), opened
# at chat-bench's paced rate, held through two keepalive rounds (30 s each), then closed.
# ---------------------------------------------------------------------------------------------------------------
node_connections() {
    curl -s "http://127.0.0.1:$((base_port + 2))/metrics" |
        awk '/^swiftchat_connections\{/ { total += $2 } END { print total + 0 }'
}
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / hz }' "/proc/$1/stat"; }
# Kernel TCP buffer memory of the whole machine, both ends of every loopback connection, in KiB.
tcp_mem_kib() { awk -v page="$(getconf PAGESIZE)" '/^TCP:/ { print $NF * page / 1024 }' /proc/net/sockstat; }

if [[ $scenarios == *" 1 "* ]]; then
    start_nodes 1 "$one_node_clients"
    node=${node_pids[0]}
    half=$((one_node_clients / 2))
    echo "# one node at its limit: $one_node_clients connections ($half /chat, $((one_node_clients - half)) /api/v1/ws), held 30 s"
    rss_before=$(rss_kib "$node")
    tcp_before=$(tcp_mem_kib)
    opened_at=$(date +%s.%N)
    url=(--url "ws://127.0.0.1:$base_port/chat" --server-pid "$node" --source-addresses "$sources" --connect-rate 1000)
    # The modern clients first (their accounts are registered before they connect), then the /chat ones once those are in.
    "$bin/chat-bench" "${url[@]}" --idle --hold 65 --protocol modern --clients $((one_node_clients - half)) \
        --json-only >"$work/idle-modern.json" &
    modern_bench=$!
    until (($(node_connections) >= one_node_clients - half)); do
        kill -0 "$modern_bench" 2>/dev/null || break
        sleep 0.5
    done
    "$bin/chat-bench" "${url[@]}" --idle --hold 65 --clients "$half" --json-only >"$work/idle-chat.json" &
    chat_bench=$!
    until (($(node_connections) >= one_node_clients)); do
        kill -0 "$chat_bench" 2>/dev/null || kill -0 "$modern_bench" 2>/dev/null || break
        sleep 0.5
    done
    opened_seconds=$(awk -v a="$opened_at" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    held=$(node_connections)
    sleep 3
    rss_after=$(rss_kib "$node")
    tcp_after=$(tcp_mem_kib)
    cpu_before=$(cpu_seconds "$node")
    sleep 30
    cpu_after=$(cpu_seconds "$node")
    over_http=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$base_port/healthz" || true)
    over_tcp=$(timeout 5 bash -c "exec 3<>/dev/tcp/127.0.0.1/$((base_port + 1)); head -1 <&3" 2>/dev/null || true)
    wait "$chat_bench" "$modern_bench" || true
    awk -v n="$held" -v rb="$rss_before" -v ra="$rss_after" -v tb="$tcp_before" -v ta="$tcp_after" \
        -v cb="$cpu_before" -v ca="$cpu_after" -v open="$opened_seconds" -v http="$over_http" -v tcp="$over_tcp" 'BEGIN {
            printf "{\"mode\":\"one-node-limit\",\"connections\":%d,\"openSeconds\":%s,\"serverRSSKiBPerConnection\":%.2f,", n, open, (ra - rb) / n
            printf "\"kernelTCPKiBPerConnection\":%.2f,\"idleCPUPercent\":%.2f,\"overLimitHTTP\":\"%s\",\"overLimitTCP\":\"%s\"}\n", (ta - tb) / n, (ca - cb) / 30 * 100, http, tcp
        }'
    echo "# the two chat-bench runs (their RSS figures overlap each other; their pings and disconnects are theirs):"
    cat "$work/idle-chat.json" "$work/idle-modern.json"
    stop_nodes
fi

# ---------------------------------------------------------------------------------------------------------------
# Scenario 2: the /chat lobby as one room of every client, over every node.
# ---------------------------------------------------------------------------------------------------------------
if [[ $scenarios == *" 2 "* ]]; then
    start_nodes
    echo "# lobby: $lobby_clients /chat clients over $nodes nodes; one message to all"
    bench --clients "$lobby_clients" --senders 1 --rate 1 --warmup 0 --duration 1
    stop_nodes
    start_nodes
    echo "# lobby: $lobby_clients /chat clients over $nodes nodes; 2 msg/s for $sustain s, a sender on each node"
    bench --clients "$lobby_clients" --senders "$nodes" --rate 2 --warmup 2 --duration "$sustain"
    stop_nodes
fi

# ---------------------------------------------------------------------------------------------------------------
# Scenario 3: one room of SCALE_ROOM_MEMBERS members on /api/v1/ws over every node (an account each, registered
# before the window, over every node; every account is in the lobby): one message to all, then, on new nodes of the
# same database (the accounts registered once), 5 a second. First the small room it is compared with.
# ---------------------------------------------------------------------------------------------------------------
# The figure the room's cost per delivery is compared with, taken in the same run: one node with 100 members in the
# lobby, 10 senders, 200 msg/s for 10 s (bench.sh's scenario), on SQLite and then on this PostgreSQL; the node on
# CPU 0, chat-bench on CPU 1.
small_room() {
    local storage=$1 port=$((base_port + 100)) database=()
    if [[ $storage == PostgreSQL ]]; then
        "$pg_bin/psql" -X -q -h "$pg" -U chat -d postgres -c "DROP DATABASE IF EXISTS bench" -c "CREATE DATABASE bench"
        database=(--database-url "postgres:///bench?host=$pg&user=chat" --attachments-shared true)
    fi
    mkdir -p "$work/small-$storage"
    taskset -c 0 "$bin/chat-server" --port "$port" --tcp-port $((port + 1)) --metrics-port $((port + 2)) \
        --data-dir "$work/small-$storage" --log-level warning --demo-bot false "${limits[@]}" "${database[@]}" \
        >>"$work/small-$storage.log" 2>&1 &
    node_pids=($!)
    wait_for_port "$port" "${node_pids[0]}"
    echo "# one node on $storage: 100 /api/v1/ws members of the lobby, 10 senders, 200 msg/s"
    taskset -c 1 "$bin/chat-bench" --url "ws://127.0.0.1:$port/chat" --server-pid "${node_pids[0]}" --protocol modern \
        --clients 100 --senders 10 --rate 200 --duration 10 --message-bytes 128 --json-only ||
        echo "# chat-bench failed: exit $?"
    stop_nodes
}

if [[ $scenarios == *" 3 "* ]]; then
    small_room SQLite
    small_room PostgreSQL
    accounts="$work/room-accounts.json"
    # About what four nodes complete in upgrades and first `resume`s a second here: started faster, the requests
    # queue past the store's deadline and are refused after their work is done.
    connect_rate=${SCALE_ROOM_CONNECT_RATE:-400}
    start_nodes "$nodes" $((room_members / nodes + 100))
    echo "# one room of $room_members /api/v1/ws members over $nodes nodes; one message to all"
    bench --protocol modern --accounts "$accounts" --clients "$room_members" --senders 1 --rate 1 --warmup 0 --duration 1
    stop_nodes
    start_nodes "$nodes" $((room_members / nodes + 100)) keep
    echo "# one room of $room_members /api/v1/ws members over $nodes nodes; 5 msg/s for $sustain s, a sender on each node"
    bench --protocol modern --accounts "$accounts" --clients "$room_members" --senders "$nodes" --rate 5 --warmup 2 \
        --duration "$sustain"
    stop_nodes
    connect_rate=2000
fi

# ---------------------------------------------------------------------------------------------------------------
# Scenario 4: a reconnect storm. SCALE_STORM_CLIENTS /api/v1/ws clients on the first node, a sender on the second
# sending 5 numbered messages a second into the lobby; after 10 s the first node gets SIGKILL. Its clients come
# back on the others with a real client's backoff and resume; each checks it has every message once.
# ---------------------------------------------------------------------------------------------------------------
if [[ $scenarios == *" 4 "* ]]; then
    start_nodes "$nodes" $((storm_clients + 100))
    echo "# reconnect storm: $storm_clients /api/v1/ws clients on one of $nodes nodes, killed after 10 s at 5 msg/s"
    urls=()
    for k in $(seq 0 $((nodes - 1))); do
        urls+=(--url "ws://127.0.0.1:$((base_port + 10 * k))/chat" --server-pid "${node_pids[$k]}")
    done
    "$bin/chat-bench" "${urls[@]}" --protocol modern --clients "$storm_clients" --storm 10 --rate 5 --duration 10 \
        --source-addresses "$sources" --connect-rate 1000 || {
        echo "# chat-bench failed: exit $?; the nodes' last log lines:"
        tail -n 20 "$work"/node*.log
    }
    stop_nodes
fi
