"""TerraKard's arena in battle's database: the demo defenders' rows (written once, put back
as defined), the demo defenders offered, and why an empty offer is empty (with when that
changes). Rows of other tests may share the database: the players here sit at levels no
one else reaches, and each transaction is rolled back."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from games.terrakard.arena import ARENA
from games.terrakard.demo_defenders import DEMO_DEFENDERS, DEMO_PLAYER_IDS
from services.battle.games.terrakard import LEVEL_GAP, REPEAT_HOURS
from services.battle.orm import terrakard_arena
from services.battle.terrakard_empty import why_empty
from services.battle.terrakard_store import SqlArena
from tests.unit.battle.support import T0

pytestmark = pytest.mark.integration

FAR = 700  # a level no other test's player reaches
OLD = T0 - ARENA.new_player_protection - timedelta(days=1)


@pytest.fixture
def session(settings) -> Iterator[Session]:
    engine = sa.create_engine(settings.database_url_for("battle"))
    try:
        with Session(engine) as session:
            yield session
            session.rollback()
    finally:
        engine.dispose()


def player(session: Session, **changes: Any) -> uuid.UUID:
    """A player at level ``FAR`` past the tutorial and its protection, seen at T0."""
    row = {
        "player_id": uuid.uuid4(), "started_at": OLD, "tickets": 5, "tickets_since": OLD,
        "shield_until": None, "trophies": 0, "experience": 0, "level": FAR,
        "tutorial_done_at": OLD, "seen_at": T0, **changes,
    }  # fmt: skip
    session.execute(sa.insert(terrakard_arena).values(row))
    return row["player_id"]


def reason(session: Session, me: uuid.UUID, recent: Sequence[uuid.UUID] = ()) -> dict[str, Any]:
    nearby = SqlArena(session).nearby(FAR - LEVEL_GAP, FAR + LEVEL_GAP, me, list(recent), T0)
    return why_empty(True, nearby, LEVEL_GAP, REPEAT_HOURS)


def test_the_demo_seed_writes_each_defender_once_and_puts_it_back_as_defined(session):
    arena = SqlArena(session)
    assert arena.seed_demo(T0) == len(DEMO_DEFENDERS)
    quill = DEMO_DEFENDERS[0]
    session.execute(
        sa.update(terrakard_arena)
        .where(terrakard_arena.c.player_id == quill.player_id)
        .values(trophies=999, shield_until=T0 + timedelta(hours=1))
    )
    arena.seed_demo(T0 + timedelta(days=1))
    rows = session.execute(
        sa.select(terrakard_arena).where(terrakard_arena.c.player_id.in_(DEMO_PLAYER_IDS))
    ).all()
    assert len(rows) == len(DEMO_DEFENDERS)
    by_id = {r.player_id: r for r in rows}
    for defender in DEMO_DEFENDERS:
        row = by_id[defender.player_id]
        assert (row.level, row.trophies, row.shield_until) == (
            defender.level, defender.trophies, None,
        )  # fmt: skip
        assert row.tutorial_done_at == T0  # the first seed's


def test_demo_defenders_are_offered_by_level_whatever_their_age_and_never_if_excluded(session):
    arena = SqlArena(session)
    arena.seed_demo(T0 - timedelta(days=400))  # long inactive, as a player would be
    levels = {d.player_id: d.level for d in DEMO_DEFENDERS}
    offered = {p.player_id for p in arena.demo_targets(1, 3, [])}
    assert offered == {p for p, level in levels.items() if level <= 3}
    quill = DEMO_DEFENDERS[0].player_id
    assert quill not in {p.player_id for p in arena.demo_targets(1, 3, [quill])}
    # Never offered by the players' query (protection and inactivity are players' rules).
    found = arena.targets(1, 3, 0, list(DEMO_PLAYER_IDS), T0, 50)
    assert not {p.player_id for p in found} & set(DEMO_PLAYER_IDS)


def test_an_empty_arena_says_why_and_when_that_changes(session):
    me = player(session)
    assert reason(session, me)["reason"] == "no_players_near"
    assert why_empty(False, None, LEVEL_GAP, REPEAT_HOURS)["reason"] == "tutorial_not_finished"

    # New players are protected for 48 hours, a shield for a few: the earliest end counts.
    player(session, started_at=T0 - timedelta(hours=1))
    shielded = T0 + timedelta(hours=2)
    player(session, shield_until=shielded)
    protected = reason(session, me)
    assert protected["reason"] == "players_protected"
    assert protected["until"] == shielded.isoformat()
    assert "48 hours" in protected["message"] and "4 hours" in protected["message"]


def test_recent_attacks_then_inactivity_then_busy_defenders_are_the_reason(session):
    me = player(session)
    attacked = player(session)
    found = reason(session, me, [attacked])
    assert found == {
        "reason": "attacked_recently",
        "message": "You attacked the players near your level in the last 12 hours; each can"
        " be attacked again 12 hours after your attack.",
        "until": None,
    }
    other = player(session, seen_at=T0 - ARENA.inactive_after - timedelta(hours=1))
    assert reason(session, me)["reason"] == "players_inactive"
    session.execute(
        sa.update(terrakard_arena).where(terrakard_arena.c.player_id == other).values(seen_at=T0)
    )
    # Eligible by every rule of the players' query, yet not offered: defending an attack.
    assert reason(session, me)["reason"] == "players_busy"
