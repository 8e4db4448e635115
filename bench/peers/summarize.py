#!/usr/bin/env python3
"""Turns the results of `scripts/bench.sh --peers` into a markdown table, and judges one grid point.

    summarize.py table RESULTS.jsonl   prints the side-by-side table of RESULTS.jsonl
    summarize.py passes < LINE.json    exit status 0 if one chat-bench load run counts as keeping up

RESULTS.jsonl holds one JSON object a line, written by scripts/bench.sh: first {"meta": {...}} (what was run
where), then for each chat-bench run {"server", "scenario", "round", "rate", "result"}, where result is
chat-bench's JSON line, or null when chat-bench failed (no report: it could not connect, or the server died).
Scenarios: "idle" (idle memory), "moderate" (100 clients, 200 msg/s), "grid" (1,000 clients at `rate`).

Each figure is the median over rounds, with the range beside it when there was more than one round. Only the
standard library is used, so that the Debian python3 is enough.
"""

import json
import statistics
import sys

# The saturation grid's test, from issue 13: a rate is kept up with when at least this share of the expected
# deliveries arrived and the 99th percentile of latency stayed under this bound.
MIN_DELIVERED_PERCENT = 95.0
MAX_P99_MS = 250.0
# The 1,000-client rate whose latency is reported on its own ("p99 at 100 msg/s").
REFERENCE_RATE = 100.0
# chat-bench's own thresholds: its core saturated (it reports that itself), and the whole machine busy.
BUSY_MACHINE_PERCENT = 95.0

SWIFTCHAT = "swiftchat"
NAMES = {"gorilla": "Go gorilla hub", "node": "Node `ws` broadcast", SWIFTCHAT: "**SwiftChat `/chat`**"}


def passes(result):
    """Whether one load run kept up: enough delivered, and p99 under the bound."""
    if not result:
        return False
    delivered = result.get("deliveredPercent")
    p99 = (result.get("latencyMs") or {}).get("p99")
    return delivered is not None and p99 is not None and delivered >= MIN_DELIVERED_PERCENT and p99 < MAX_P99_MS


def load(path):
    meta, runs = {}, []
    with open(path, encoding="utf-8") as file:
        for line in file:
            line = line.strip()
            if not line:
                continue
            record = json.loads(line)
            if "meta" in record:
                meta = record["meta"]
            else:
                runs.append(record)
    return meta, runs


def number(value, decimals):
    return f"{value:,.{decimals}f}"


class Cell:
    """One figure of one server: the values of its rounds, and marks for runs that need a word of caution."""

    def __init__(self, values, decimals, saturated=False, busy=False, failed=0, capped=False, floor=False):
        self.values = [v for v in values if v is not None]
        self.decimals = decimals
        self.saturated = saturated
        self.busy = busy
        self.failed = failed
        # capped: the median is the grid's top rate, so the server may manage more; floor: below the lowest.
        self.capped = capped
        self.floor = floor

    @property
    def median(self):
        return statistics.median(self.values) if self.values else None

    def text(self):
        if not self.values:
            return "failed" if self.failed else "—"
        median = self.median
        text = number(median, self.decimals)
        if self.capped:
            text = f"≥ {text} (top of the grid)"
        elif self.floor:
            text = f"< {text} (the lowest rate failed)"
        elif len(self.values) > 1:
            low, high = min(self.values), max(self.values)
            if number(low, self.decimals) != number(high, self.decimals):
                text += f" ({number(low, self.decimals)}–{number(high, self.decimals)})"
        if self.saturated:
            text += " †"
        if self.busy:
            text += " ‡"
        if self.failed:
            text += f" ({self.failed} failed)"
        return text


def cell_from(runs, key, decimals):
    """A figure read from each run's chat-bench result by `key` (a function of the result)."""
    results = [run["result"] for run in runs]
    return Cell(
        [key(result) for result in results if result],
        decimals,
        saturated=any(result and result.get("generatorSaturated") for result in results),
        busy=any(result and (result.get("machineCPUPercent") or 0) >= BUSY_MACHINE_PERCENT for result in results),
        failed=sum(1 for result in results if not result),
    )


def saturation_cell(grid_runs):
    """The highest rate kept up with, per round: rates are tried upwards until one fails (bench.sh stops a
    server's grid there, apart from the reference rate), and the round's figure is the rate before the first
    failure. The median over rounds is taken among the grid's own rates (the lower middle one when even)."""
    rates = sorted({run["rate"] for run in grid_runs})
    if not rates:
        return Cell([], 0)
    per_round = {}
    for run in grid_runs:
        per_round.setdefault(run["round"], {})[run["rate"]] = run["result"]
    figures, saturated, busy = [], False, False
    for results in per_round.values():
        best = 0.0
        for rate in rates:
            result = results.get(rate)
            if rate not in results or not passes(result):
                break
            saturated = saturated or bool(result.get("generatorSaturated"))
            busy = busy or (result.get("machineCPUPercent") or 0) >= BUSY_MACHINE_PERCENT
            best = rate
        figures.append(best)
    median = statistics.median_low(figures)
    cell = Cell(figures, 0, saturated=saturated, busy=busy, capped=median == rates[-1], floor=median == 0)
    if cell.floor:
        cell.values = [rates[0]]
    return cell


def ratio(cells, servers, lower_is_better):
    """SwiftChat's figure divided by the best peer's, with the peer named."""
    swift = cells.get(SWIFTCHAT)
    peers = {s: cells[s] for s in servers if s != SWIFTCHAT and cells[s].median is not None}
    if swift is None or swift.median is None or not peers:
        return "—"
    choose = min if lower_is_better else max
    best = choose(peers, key=lambda s: peers[s].median)
    peer = peers[best]
    if peer.median == 0 or peer.floor or swift.floor:
        return f"— (best: {best})"
    value = swift.median / peer.median
    # A capped figure is a lower bound of the server's real rate, so the ratio is a bound as well.
    if swift.capped and peer.capped:
        return "— (both at the top of the grid)"
    prefix = "≥ " if swift.capped else "≤ " if peer.capped else ""
    return f"{prefix}{value:.2f}× {best}'s"


def table(path):
    meta, runs = load(path)
    order = [s for s in ("gorilla", "node", SWIFTCHAT) if any(r["server"] == s for r in runs)]
    order += sorted({r["server"] for r in runs} - set(order))

    def runs_of(server, scenario, rate=None):
        return [
            r for r in runs
            if r["server"] == server and r["scenario"] == scenario and (rate is None or r["rate"] == rate)
        ]

    def latency(name):
        return lambda result: (result.get("latencyMs") or {}).get(name)

    def field(name):
        return lambda result: result.get(name)

    moderate = "100 clients, 10 senders, 200 msg/s"
    grid = f"{int(meta.get('largeClients', 1000)):,} clients, 10 senders"
    reference = f"{grid}, {REFERENCE_RATE:g} msg/s"
    idle_clients = int(meta.get("idleClients", 10000))
    # (label, cells per server, lower is better; None when the row has no ratio)
    rows = [
        (f"{moderate}: server CPU µs per delivery",
         {s: cell_from(runs_of(s, "moderate"), field("serverCPUMicrosPerDelivery"), 1) for s in order}, True),
        (f"{moderate}: p50 latency, ms",
         {s: cell_from(runs_of(s, "moderate"), latency("p50"), 2) for s in order}, True),
        (f"{moderate}: p99 latency, ms",
         {s: cell_from(runs_of(s, "moderate"), latency("p99"), 2) for s in order}, True),
        (f"{moderate}: delivered, %",
         {s: cell_from(runs_of(s, "moderate"), field("deliveredPercent"), 2) for s in order}, None),
        (f"{grid}: highest rate with ≥ {MIN_DELIVERED_PERCENT:g} % delivered and p99 < {MAX_P99_MS:g} ms, msg/s",
         {s: saturation_cell(runs_of(s, "grid")) for s in order}, False),
        (f"{reference}: p99 latency, ms",
         {s: cell_from(runs_of(s, "grid", REFERENCE_RATE), latency("p99"), 1) for s in order}, True),
        (f"{reference}: server CPU µs per delivery",
         {s: cell_from(runs_of(s, "grid", REFERENCE_RATE), field("serverCPUMicrosPerDelivery"), 2) for s in order},
         True),
        (f"{reference}: delivered, %",
         {s: cell_from(runs_of(s, "grid", REFERENCE_RATE), field("deliveredPercent"), 2) for s in order}, None),
        (f"{idle_clients:,} idle connections: RSS per connection, KiB",
         {s: cell_from(runs_of(s, "idle"), field("serverKiBPerConnection"), 2) for s in order}, True),
    ]

    if meta:
        print(
            f"Side by side, {meta.get('date', '?')}, commit {meta.get('commit', '?')}, "
            f"{meta.get('rounds', '?')} round(s), {meta.get('duration', '?')} s measured per load run "
            f"after {meta.get('warmup', '?')} s of warm-up, grid {meta.get('grid', '?')} msg/s, "
            f"SwiftChat on {meta.get('swiftchatStorage', 'SQLite')}; "
            f"{meta.get('machine', '?')}; {meta.get('versions', '?')}."
        )
        print()
    header = ["figure"] + [NAMES.get(s, s) for s in order] + ["SwiftChat ÷ best peer"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for label, cells, lower in rows:
        comparison = "" if lower is None else ratio(cells, order, lower)
        if lower is not None:
            label += " (lower is better)" if lower else " (higher is better)"
        print("| " + " | ".join([label] + [cells[s].text() for s in order] + [comparison]) + " |")
    print()
    print(
        "Medians over rounds, range in brackets. † the generator saturated its core (≥ 90 %) in at least one of "
        "the runs: the figure is a bound on the server, not its measure. ‡ the machine's cores were ≥ 95 % busy in "
        "at least one of the runs: server and generator waited for a CPU. \"failed\": chat-bench gave no report "
        "(it could not connect, or the server stopped). SwiftChat ÷ best peer: SwiftChat's median over the best "
        "peer's median for that figure."
    )


def main(argv):
    if len(argv) == 3 and argv[1] == "table":
        table(argv[2])
        return 0
    if len(argv) == 2 and argv[1] == "passes":
        text = sys.stdin.read().strip()
        try:
            result = json.loads(text) if text else None
        except json.JSONDecodeError:
            result = None
        return 0 if passes(result) else 1
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv))
