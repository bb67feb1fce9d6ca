"""The arena's target query (two index scans away from the attacker's trophies, migration
0008) offers exactly what reading every player and sorting would: the eligible players
closest in trophies, then the most recently seen, then by id; ties on trophies and on
``seen_at`` included. Rows of other tests may share the database: these players sit a
million trophies away from anyone else, and the transaction is rolled back."""

from __future__ import annotations

import random
import uuid
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from games.terrakard.arena import ARENA
from services.battle.orm import terrakard_arena
from services.battle.terrakard_store import SqlArena
from tests.unit.battle.support import T0

pytestmark = pytest.mark.integration

FAR = 1_000_000  # trophies no other test's player reaches


def _rows(rng: random.Random) -> list[dict]:
    old = T0 - ARENA.new_player_protection - timedelta(days=1)
    rows = []
    for _ in range(80):
        rows.append(
            {
                "player_id": uuid.uuid4(),
                "started_at": old if rng.random() < 0.9 else T0 - timedelta(hours=1),
                "tickets": 5,
                "tickets_since": T0,
                "shield_until": T0 + timedelta(hours=1) if rng.random() < 0.1 else None,
                "trophies": FAR + rng.randint(-12, 12),  # many ties
                "experience": 0,
                "level": rng.randint(1, 8),
                "tutorial_done_at": old if rng.random() < 0.9 else None,
                # few distinct times: ties on seen_at too; some inactive
                "seen_at": T0 - timedelta(days=rng.choice((0, 1, 1, 2, 9))),
            }
        )
    return rows


def _eligible(row: dict, low: int, high: int, exclude: set[uuid.UUID]) -> bool:
    return (
        row["tutorial_done_at"] is not None
        and low <= row["level"] <= high
        and row["player_id"] not in exclude
        and row["started_at"] <= T0 - ARENA.new_player_protection
        and (row["shield_until"] is None or row["shield_until"] <= T0)
        and row["seen_at"] >= T0 - ARENA.inactive_after
    )


def test_targets_are_the_closest_eligible_players_in_the_arenas_order(settings):
    rng = random.Random(17)
    rows = _rows(rng)
    engine = sa.create_engine(settings.database_url_for("battle"))
    try:
        with Session(engine) as session:
            session.execute(sa.insert(terrakard_arena), rows)
            arena = SqlArena(session)
            for attempt in range(40):
                low = rng.randint(1, 6)
                high = low + rng.randint(0, 4)
                trophies = FAR + rng.randint(-15, 15)
                exclude = {r["player_id"] for r in rng.sample(rows, 5)}
                limit = rng.choice((1, 3, 10))
                found = arena.targets(low, high, trophies, sorted(exclude), T0, limit)
                expected = sorted(
                    (r for r in rows if _eligible(r, low, high, exclude)),
                    key=lambda r: (
                        abs(r["trophies"] - trophies),
                        -(r["seen_at"] - T0).total_seconds(),
                        r["player_id"],
                    ),
                )[:limit]
                assert [p.player_id for p in found] == [r["player_id"] for r in expected], attempt
            session.rollback()
    finally:
        engine.dispose()
