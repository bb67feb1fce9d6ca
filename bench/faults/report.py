"""The printed report: tables of effects, outboxes, queues and the timeline."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from faults.checks import Snapshot, _seconds, window_effects
from faults.config import LOAD_STOP_TIMEOUT
from faults.inject import FaultRecord, Timeline
from faults.load import Recorder
from faults.push import PushOutcome
from faults.servers import Servers


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(r[i])) for r in (header, *rows)) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        first = str(cells[0]).ljust(widths[0])
        rest = (str(c).rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True))
        return "| " + " | ".join([first, *rest]) + " |"

    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), sep, *(line(r) for r in rows)])


def status_counts(responses: Sequence[tuple[float, str, int]]) -> dict[str, int]:
    counts = dict.fromkeys(("requests", "2xx", "4xx", "429", "500", "503", "other 5xx"), 0)
    counts["no answer"] = 0
    counts["requests"] = len(responses)
    for _, _, status in responses:
        if status == 0:
            counts["no answer"] += 1
        elif status in (429, 500, 503):
            counts[str(status)] += 1
        elif status >= 500:
            counts["other 5xx"] += 1
        elif status >= 400:
            counts["4xx"] += 1
        else:
            counts["2xx"] += 1
    return counts


def report(
    args: argparse.Namespace,
    srv: Servers,
    settings: Any,
    recorder: Recorder,
    timeline: Timeline,
    faults: Sequence[FaultRecord],
    snap: Snapshot,
    settled_s: float,
    load_s: float,
    unfinished_threads: int,
    total_s: float,
    pushed: PushOutcome | None = None,
) -> bool:
    print()
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} CPUs, code {args.code}\n"
        f"servers: {srv.describe}\n"
        f"load: {args.workers} players at a time for {load_s:.0f}s; faults "
        f"{', '.join(f.name for f in faults) or 'none'}, each down {args.downtime:.0f}s; "
        f"settled {settled_s:.0f}s after the load (at most {args.settle:.0f}s); "
        f"whole run {total_s:.0f}s"
    )
    print("\nTimeline (seconds from the start of the load)")
    for at, text in timeline.entries:
        print(f"  {at:7.1f}  {text}")

    print("\nRecovery (no manual action: the runner only restarts what it killed or stopped)")
    rows = []
    for f in faults:
        if f.skipped:
            rows.append((f.name, f"{f.at:.0f}", "-", "-", "-", "skipped", "-"))
            continue
        ready = f"{f.ready_at - f.at:.1f}" if f.ready_at is not None else "never"
        back = f"{f.back_at - f.at:.1f}" if f.back_at is not None else "-"
        p = f.probe
        reward = f"{p.reward_s:.1f}" if p and p.reward_s is not None else "-"
        points = f"{p.points_s:.1f}" if p and p.points_s is not None else "-"
        rows.append(
            (f.name, f"{f.at:.0f}", back, ready, reward, "yes" if f.recovered else "NO", points)
        )
    print(
        table(
            (
                "fault", "at s", "back after s", "all /ready after s", "probe reward s",
                "recovered", "probe points s",
            ),
            rows,
        )
    )  # fmt: skip
    for f in faults:
        if f.probe is not None and not f.probe.ok:
            print(f"  {f.name}: probe {f.probe.text}")

    print("\nRequests of the load, by window")
    windows = _windows(faults, load_s)
    rows = []
    for name, start, end in windows:
        counts = status_counts(
            [r for r in recorder.responses if start <= r[0] < end and r[1] == "load"]
        )
        rows.append((name, f"{start:.0f}-{end:.0f}", *(str(v) for v in counts.values())))
    print(table(("window", "s", *status_counts([]).keys()), rows))
    print(
        "  (every step is retried on 0/429/5xx; 500 is an unhandled error in the gateway, "
        "503 a service or its database away)"
    )
    effects = window_effects(settings, recorder, windows)
    print("\nWork done in each window, and how long its effects took (seconds)")
    print(
        table(
            (
                "window", "attempts completed", "slowest reward", "matches finished",
                "slowest match points", "outbox rows", "slowest relay",
            ),
            [
                (name, *(_seconds(v) if isinstance(v, float) else str(v) for v in values))
                for name, values in effects
            ],
        )
    )  # fmt: skip
    kinds = sorted({k for k, _ in recorder.flows})
    flow_rows = [
        (k, str(recorder.flows[(k, "completed")]), str(recorder.flows[(k, "failed")]))
        for k in kinds
    ]
    print("\nFlows (a new player each; the probes' flows included)")
    print(table(("flow", "completed", "gave up"), flow_rows))
    for at, kind, reason in recorder.failures[:10]:
        print(f"  gave up at {at:.0f}s ({kind}): {reason}")
    if len(recorder.failures) > 10:
        print(f"  ... and {len(recorder.failures) - 10} more")
    if unfinished_threads:
        print(f"  {unfinished_threads} load thread(s) still in a flow at the end")

    print("\nEffects owed and found")
    print(
        table(
            ("check", "expected", "found", "doubled", "lost", "unexpected"),
            [
                (r.check, str(r.expected), str(r.found), str(r.doubled), str(r.lost), str(r.extra))
                for r in snap.rows
            ],
        )
    )
    print(
        f"  still active at the end: {snap.active_attempts} attempt(s), "
        f"{snap.active_matches} match(es) (nothing owed for them yet)"
    )

    print("\nOutboxes")
    print(
        table(
            ("service", "rows", "not published", "published after a failed try"),
            [(s, str(t), str(p), str(r)) for s, (t, p, r) in snap.outbox.items()],
        )
    )
    print("\nQueues")
    if snap.queue_error:
        print(f"  could not list the queues: {snap.queue_error}")
    events = {q: v for q, v in snap.queues.items() if q.startswith("evt-")}
    dead = [q for q in events if q.endswith(".dead")]
    retry = [q for q in events if ".retry." in q]
    print(
        f"  {len(events) - len(dead) - len(retry)} consumer queues, {len(retry)} delay queues, "
        f"{len(dead)} dead-letter queues; messages waiting: "
        f"{', '.join(f'{q} {n}' for q, n in snap.waiting.items()) or 'none'}; parked: "
        f"{', '.join(f'{q} {n}' for q, n in snap.parked.items()) or 'none'}"
    )
    if pushed is not None:
        _push_report(pushed)
    recovered = all(f.recovered for f in faults)
    clean = snap.clean and recovered and (pushed is None or pushed.clean)
    print(
        "\nRESULT: "
        + (
            "nothing lost, nothing doubled, every outbox row relayed, no message parked, "
            "every service recovered by itself"
            + (", every push message delivered once" if pushed is not None else "")
            if clean
            else "PROBLEMS (see above)"
        )
    )
    return clean


def _push_report(pushed: PushOutcome) -> None:
    print(
        f"\nPush: {pushed.watchers} players connected throughout (reconnecting with their "
        f"last id), MatchUpdated owed to them"
    )
    rows = [
        (
            p.player_id[:8],
            str(p.expected),
            str(p.received),
            str(p.lost),
            str(p.doubled),
            str(p.reconnects),
            str(p.resyncs),
        )
        for p in pushed.players
    ]
    rows.append(
        (
            "all",
            str(sum(p.expected for p in pushed.players)),
            str(sum(p.received for p in pushed.players)),
            str(pushed.lost),
            str(pushed.doubled),
            str(sum(p.reconnects for p in pushed.players)),
            str(pushed.resyncs),
        )
    )
    print(
        table(
            ("player", "expected", "received", "lost", "doubled", "reconnects", "resyncs"),
            rows,
        )
    )
    print(
        f"  {pushed.published} events confirmed by the broker ({pushed.republished} after a "
        f"failed try, {pushed.publish_failures} failed tries); last ones waited for "
        f"{pushed.waited_s:.1f}s; socket closes by code: "
        f"{dict(pushed.close_codes) or 'none'}; failed connects: "
        f"{dict(pushed.connect_errors) or 'none'}"
    )
    for line in pushed.examples[:20]:
        print(f"  {line}")


def _windows(faults: Sequence[FaultRecord], load_s: float) -> list[tuple[str, float, float]]:
    """(name, start, end): before the faults, each fault to its probe's end, between."""
    windows = []
    cursor = 0.0
    for f in faults:
        if f.skipped:
            continue
        end = f.probe_at or f.ready_at or f.back_at or f.at
        windows.append(("steady" if cursor == 0.0 else "between", cursor, f.at))
        windows.append((f"during {f.name}", f.at, end))
        cursor = end
    windows.append(("after the faults", cursor, max(load_s, cursor) + LOAD_STOP_TIMEOUT))
    return [w for w in windows if w[2] > w[1]]
