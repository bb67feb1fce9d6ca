"""Battle's own metrics: matches by game and status, measured with the other database
gauges every ``METRICS_INTERVAL_SECONDS`` (shared/health.py, ``ServiceGauges``), and the
engines' time per action by game (services/battle/host.py)."""

from __future__ import annotations

from prometheus_client import Gauge, Histogram
from sqlalchemy import func, select, text

from services.battle.orm import matches
from shared.db import Database

MATCHES = Gauge(
    "deckyard_battle_matches",
    "Matches in the battle database by game and status (active, finished)",
    ["game", "status"],
)
# Seconds; a rule engine's step in plain Python, from tens of microseconds to a slow one.
ENGINE_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5)
ENGINE_ACTION_DURATION = Histogram(
    "deckyard_battle_engine_action_seconds",
    "Time a game's engine took to apply one action (a player's, the CPU's or a timeout's)",
    ["game"],
    buckets=ENGINE_BUCKETS,
)
_seen: set[tuple[str, str]] = set()


def measure_matches(service: str, database: Database) -> None:
    """One grouped count; a (game, status) seen before and gone now reads 0."""
    with database.read() as session:
        session.execute(text("SET LOCAL statement_timeout = 5000"))
        rows = session.execute(
            select(matches.c.game, matches.c.status, func.count()).group_by(
                matches.c.game, matches.c.status
            )
        ).all()
    counts = dict.fromkeys(_seen, 0)
    counts.update({(str(game), str(status)): int(count) for game, status, count in rows})
    for (game, status), count in counts.items():
        MATCHES.labels(game, status).set(count)
    _seen.update(counts)
