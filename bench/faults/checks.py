"""After the load: the databases checked against each other and the clients."""

from __future__ import annotations

import subprocess
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from harness import (
    BenchError,
)

from faults.config import PROGRESS_EVERY, SERVICES, STARTER_COPIES, log
from faults.load import Recorder
from faults.servers import Servers


def conninfo(settings: Any, service: str) -> str:
    url = settings.database_url_for(service).set(drivername="postgresql")
    return str(url.render_as_string(hide_password=False))


def query(settings: Any, service: str, sql: str) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(conninfo(settings, service), autocommit=True, connect_timeout=10) as conn:
        return [tuple(row) for row in conn.execute(sql).fetchall()]  # type: ignore[arg-type]


@dataclass
class Row:
    """One line of the results table."""

    check: str
    expected: int
    found: int
    doubled: int
    lost: int
    extra: int = 0
    note: str = ""

    @property
    def clean(self) -> bool:
        return self.doubled == 0 and self.lost == 0 and self.extra == 0


@dataclass
class Snapshot:
    rows: list[Row]
    outbox: dict[str, tuple[int, int, int]]  # service -> rows, unpublished, republished
    queues: dict[str, tuple[int, int]]
    active_attempts: int
    active_matches: int
    queue_error: str = ""

    @property
    def parked(self) -> dict[str, int]:
        return {q: r + u for q, (r, u) in self.queues.items() if q.endswith(".dead") and r + u}

    @property
    def waiting(self) -> dict[str, int]:
        """Messages still in a consumer or delay queue (not RPC replies)."""
        return {
            q: r + u
            for q, (r, u) in self.queues.items()
            if q.startswith("evt-") and not q.endswith(".dead") and r + u
        }

    @property
    def unpublished(self) -> int:
        return sum(pending for _, pending, _ in self.outbox.values())

    @property
    def settled(self) -> bool:
        return (
            all(row.lost == 0 for row in self.rows)
            and self.unpublished == 0
            and not self.waiting
            and self.active_attempts == 0
            and not self.queue_error
        )

    @property
    def clean(self) -> bool:
        return (
            all(row.clean for row in self.rows)
            and self.unpublished == 0
            and not self.parked
            and not self.waiting
            and not self.queue_error
        )


def snapshot(settings: Any, srv: Servers, recorder: Recorder) -> Snapshot:
    attempts = query(settings, "challenge", "SELECT id, status, reward IS NOT NULL FROM attempts")
    completed = {str(a): shown for a, status, shown in attempts if status == "completed"}
    active_attempts = sum(1 for _, status, _ in attempts if status == "active")
    grants = dict(
        (str(a), int(n))
        for a, n in query(
            settings, "cards", "SELECT attempt_id, jsonb_array_length(rarities) FROM reward_grants"
        )
    )
    reward_copies = _counts(
        query(
            settings,
            "cards",
            "SELECT source_id, count(*) FROM owned_cards "
            "WHERE source_type = 'reward' GROUP BY source_id",
        )
    )
    starters = {str(p) for (p,) in query(settings, "cards", "SELECT player_id FROM starter_grants")}
    starter_copies = _counts(
        query(
            settings,
            "cards",
            "SELECT source_id, count(*) FROM owned_cards "
            "WHERE source_type = 'starter' GROUP BY source_id",
        )
    )
    entries: dict[str, Counter[str]] = {"attempt": Counter(), "match": Counter()}
    for source_type, source_id, n in query(
        settings,
        "accounts",
        "SELECT source_type, source_id, count(*) FROM progression_entries GROUP BY 1, 2",
    ):
        entries.setdefault(source_type, Counter())[str(source_id)] += int(n)
    points_off = query(
        settings,
        "accounts",
        "SELECT p.id FROM players p LEFT JOIN progression_entries e ON e.player_id = p.id "
        "GROUP BY p.id, p.points HAVING p.points <> coalesce(sum(e.points), 0)",
    )
    players = query(settings, "accounts", "SELECT count(*) FROM players")[0][0]
    matches = query(settings, "battle", "SELECT id, status FROM matches")
    finished = {str(m) for m, status in matches if status == "finished"}
    active_matches = sum(1 for _, status in matches if status == "active")

    rows = [
        _row(
            "reward grant per completed attempt", set(completed), Counter(dict.fromkeys(grants, 1))
        ),
        Row(
            "reward copies (as rolled) per attempt",
            sum(grants.values()),
            sum(reward_copies.values()),
            doubled=sum(1 for a, n in reward_copies.items() if n > grants.get(a, 0)),
            lost=sum(1 for a, n in grants.items() if reward_copies.get(a, 0) < n),
            note="attempts with more / fewer copies than their grant rolled",
        ),
        Row(
            "reward shown in challenge",
            len(completed),
            sum(completed.values()),
            doubled=0,
            lost=sum(1 for shown in completed.values() if not shown),
            note="RewardGranted consumed",
        ),
        _row("progression entry per completed attempt", set(completed), entries["attempt"]),
        _row("progression entry per finished match", finished, entries["match"]),
        _row(
            "starter grant: 5 copies per player",
            starters,
            Counter({p: 1 for p, n in starter_copies.items() if n >= STARTER_COPIES}),
            doubled_extra=sum(1 for n in starter_copies.values() if n > STARTER_COPIES),
        ),
        Row(
            "player points = sum of entries",
            int(players),
            int(players) - len(points_off),
            doubled=0,
            lost=len(points_off),
            note="players whose total differs",
        ),
    ]
    with recorder.lock:
        told = (
            dict(recorder.completed_attempts),
            dict(recorder.finished_matches),
            set(recorder.starters),
        )
    rows += [
        _told("acknowledged attempt completions", told[0].keys(), set(completed)),
        _told("acknowledged finished matches", told[1].keys(), finished),
        _told("acknowledged starter grants", told[2], starters),
    ]
    outbox = {}
    for service in SERVICES:
        total, pending, republished = query(
            settings,
            service,
            "SELECT count(*), count(*) FILTER (WHERE published_at IS NULL), "
            "count(*) FILTER (WHERE attempts > 1) FROM outbox",
        )[0]
        outbox[service] = (int(total), int(pending), int(republished))
    queue_error = ""
    try:
        queues = srv.queue_depths()
    except (BenchError, subprocess.TimeoutExpired, OSError) as exc:
        queues, queue_error = {}, str(exc)
    return Snapshot(rows, outbox, queues, active_attempts, active_matches, queue_error)


def _counts(rows: list[tuple[Any, ...]]) -> Counter[str]:
    return Counter({str(key): int(n) for key, n in rows})


def _row(check: str, owed: set[str], got: Counter[str], doubled_extra: int = 0) -> Row:
    return Row(
        check,
        len(owed),
        sum(1 for key in got if key in owed),
        doubled=sum(1 for key, n in got.items() if n > 1) + doubled_extra,
        lost=len(owed - got.keys()),
        extra=len(got.keys() - owed),
    )


def _told(check: str, told: Any, stored: set[str]) -> Row:
    told = set(told)
    return Row(
        check,
        len(told),
        len(told & stored),
        doubled=0,
        lost=len(told - stored),
        note="what the clients were told, found in the database",
    )


def settle(
    settings: Any, srv: Servers, recorder: Recorder, timeout: float
) -> tuple[Snapshot, float]:
    """Snapshots until everything owed has happened or ``timeout``; (last, seconds)."""
    t0 = time.monotonic()
    last_print = t0
    while True:
        snap = snapshot(settings, srv, recorder)
        waited = time.monotonic() - t0
        if snap.settled or waited >= timeout:
            return snap, waited
        if time.monotonic() - last_print >= PROGRESS_EVERY:
            lost = {row.check: row.lost for row in snap.rows if row.lost}
            log(
                f"settling {waited:.0f}s: still owed {lost or 'nothing'}, outbox "
                f"{snap.unpublished}, queued {sum(snap.waiting.values())}, "
                f"active attempts {snap.active_attempts}"
            )
            last_print = time.monotonic()
        time.sleep(2)


def window_effects(
    settings: Any, recorder: Recorder, windows: Sequence[tuple[str, float, float]]
) -> list[tuple[str, tuple[Any, ...]]]:
    """Per window: attempts completed and the slowest completion -> reward granted;
    matches finished and the slowest finish -> progression entry; outbox rows
    written and the slowest write -> published (all from the databases' clocks)."""

    def at(moment: datetime) -> float:
        return moment.timestamp() - recorder.wall_started

    completed = dict(
        query(
            settings,
            "challenge",
            "SELECT id, completed_at FROM attempts WHERE status = 'completed'",
        )
    )
    granted = dict(query(settings, "cards", "SELECT attempt_id, granted_at FROM reward_grants"))
    finished = dict(
        query(settings, "battle", "SELECT id, finished_at FROM matches WHERE status = 'finished'")
    )
    recorded = dict(
        query(
            settings,
            "accounts",
            "SELECT source_id, recorded_at FROM progression_entries WHERE source_type = 'match'",
        )
    )
    outbox = [
        row
        for service in SERVICES
        for row in query(
            settings, service, "SELECT created_at, published_at, routing_key FROM outbox"
        )
    ]
    found = []
    for name, start, end in windows:
        attempts = [a for a, t in completed.items() if start <= at(t) < end]
        matches = [m for m, t in finished.items() if start <= at(t) < end]
        rows = [(c, p, kind) for c, p, kind in outbox if start <= at(c) < end]
        slowest = _slowest([(c, p) for c, p, _ in rows])
        if isinstance(slowest, float) and rows:
            kind = max(rows, key=lambda r: (r[1] - r[0]).total_seconds() if r[1] else 1e9)[2]
            slowest = f"{slowest:.1f} ({kind})"
        found.append(
            (
                name,
                (
                    len(attempts),
                    _slowest([(completed[a], granted.get(a)) for a in attempts]),
                    len(matches),
                    _slowest([(finished[m], recorded.get(m)) for m in matches]),
                    len(rows),
                    slowest,
                ),
            )
        )
    return found


def _slowest(pairs: Sequence[tuple[Any, Any]]) -> float | str:
    """The longest ``after - before`` in seconds; "never" if an ``after`` is missing."""
    if any(after is None for _, after in pairs):
        return "never"
    return max(((after - before).total_seconds() for before, after in pairs), default=0.0)


def _seconds(value: float) -> str:
    return f"{value:.1f}"
