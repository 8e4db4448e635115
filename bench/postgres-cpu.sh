# Sourced by scripts/bench.sh and bench/scale.sh.
# CPU seconds used so far by every PostgreSQL process (its backends live as long as the server's pool keeps them).
postgres_cpu() {
    local ticks
    ticks=$(getconf CLK_TCK)
    for pid in $(pgrep -x postgres); do cat "/proc/$pid/stat" 2>/dev/null || true; done |
        awk -v hz="$ticks" '{ total += $14 + $15 } END { printf "%.2f", total / hz }'
}
