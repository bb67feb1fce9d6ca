"""TerraKard's arena in PostgreSQL: the players' arena rows, the rewards an attack's end
earned in cards (until delivered), and the daily objectives' progress."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Any

from sqlalchemy import and_, exists, func, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from games.terrakard.arena import ARENA, ArenaRules, Tickets
from games.terrakard.demo_defenders import DEMO_DEFENDERS, DEMO_PLAYER_IDS
from services.battle.host import SeatKind
from services.battle.orm import (
    match_seats,
    terrakard_arena,
    terrakard_objectives,
    terrakard_rewards,
)
from shared.db import Statement, pipelined

# The arena's target query, a function of battle's database (migration 0011): PostgreSQL
# plans it once per connection, not on every call (planning it cost three times running
# it). Written as SQL and sent as it is (``pipelined``), not compiled by SQLAlchemy.
TARGETS_SQL = (
    "SELECT * FROM terrakard_targets(%s::integer, %s::integer, %s::integer, %s::uuid[],"
    " %s::timestamptz, %s::timestamptz, %s::timestamptz, %s::integer)"
)


def targets_statement(
    low: int,
    high: int,
    trophies: int,
    exclude: Sequence[uuid.UUID],
    now: datetime,
    limit: int,
    rules: ArenaRules = ARENA,
) -> Statement:
    """``SqlArena.targets``' statement and its parameters (the benchmark explains it)."""
    protected_before = now - rules.new_player_protection
    active_since = now - rules.inactive_after
    params = (low, high, trophies, list(exclude), now, protected_before, active_since, limit)
    return TARGETS_SQL, params


@dataclass(frozen=True)
class ArenaPlayer:
    player_id: uuid.UUID
    started_at: datetime
    tickets: Tickets
    shield_until: datetime | None
    trophies: int
    experience: int
    level: int
    tutorial_done_at: datetime | None
    seen_at: datetime
    questions: bool = True  # the player's setting: knowledge questions in their attacks


def _player(row: Any) -> ArenaPlayer:
    return ArenaPlayer(
        row.player_id, row.started_at, Tickets(row.tickets, row.tickets_since),
        row.shield_until, row.trophies, row.experience, row.level, row.tutorial_done_at,
        row.seen_at, row.questions,
    )  # fmt: skip


@dataclass(frozen=True)
class Nearby:
    """The other players near a level: how many, and how many of them are protected
    (until when the first is), were attacked by the player lately, or are inactive."""

    players: int
    protected: int
    protected_until: datetime | None
    attacked_recently: int
    inactive: int


@dataclass(frozen=True)
class Reward:
    match_id: uuid.UUID
    player_id: uuid.UUID
    kind: str  # "pack" or "currency"
    item: str
    amount: int
    idempotency_key: str


class SqlArena:
    def __init__(self, session: Session) -> None:
        self._session = session

    # -- players --------------------------------------------------------------------------

    def ensure(self, player_id: uuid.UUID, now: datetime, rules: ArenaRules = ARENA) -> None:
        """The player's row from their first visit: a full stock of tickets, new-player
        protection from now."""
        self._session.execute(
            insert(terrakard_arena)
            .values(
                player_id=player_id,
                started_at=now,
                tickets=rules.max_tickets,
                tickets_since=now,
                shield_until=None,
                trophies=0,
                experience=0,
                level=1,
                tutorial_done_at=None,
                seen_at=now,
            )
            .on_conflict_do_nothing(index_elements=["player_id"])
        )

    def get(self, player_id: uuid.UUID, *, for_update: bool = False) -> ArenaPlayer | None:
        query = select(terrakard_arena).where(terrakard_arena.c.player_id == player_id)
        row = self._session.execute(query.with_for_update() if for_update else query).first()
        return None if row is None else _player(row)

    def lock(self, player_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, ArenaPlayer]:
        """Rows locked in one statement, in the id order (no two lockers cross)."""
        rows = self._session.execute(
            select(terrakard_arena)
            .where(terrakard_arena.c.player_id.in_(list(player_ids)))
            .order_by(terrakard_arena.c.player_id)
            .with_for_update()
        ).all()
        return {row.player_id: _player(row) for row in rows}

    def save(self, player: ArenaPlayer) -> None:
        self._session.execute(
            update(terrakard_arena)
            .where(terrakard_arena.c.player_id == player.player_id)
            .values(
                tickets=player.tickets.count,
                tickets_since=player.tickets.since,
                shield_until=player.shield_until,
                trophies=player.trophies,
                experience=player.experience,
                level=player.level,
                tutorial_done_at=player.tutorial_done_at,
                seen_at=player.seen_at,
            )
        )

    def set_questions(self, player_id: uuid.UUID, questions: bool) -> None:
        self._session.execute(
            update(terrakard_arena)
            .where(terrakard_arena.c.player_id == player_id)
            .values(questions=questions)
        )

    def seen(self, player_id: uuid.UUID, now: datetime) -> None:
        self._session.execute(
            update(terrakard_arena)
            .where(terrakard_arena.c.player_id == player_id)
            .values(seen_at=now)
        )

    def targets(
        self,
        low: int,
        high: int,
        trophies: int,
        exclude: Sequence[uuid.UUID],
        now: datetime,
        limit: int,
        rules: ArenaRules = ARENA,
    ) -> list[ArenaPlayer]:
        """Who may be offered: tutorial finished, level in [low, high], not protected (as
        a new player or by a shield), seen within ``inactive_after``, not defending a live
        attack; the closest in trophies first, then the most recently seen, then the id.

        Two index walks away from ``trophies`` (migration 0008), one each way, each in
        that very order and stopping at ``limit`` players (the closest ``limit`` of all
        are among those), merged and cut in the database: migration 0011's function,
        planned once per connection."""
        statement = targets_statement(low, high, trophies, exclude, now, limit, rules)
        return [_player(row) for row in pipelined(self._session, [statement])[0]]

    # -- demo defenders (games/terrakard/demo_defenders.py) --------------------------------

    def seed_demo(self, now: datetime) -> int:
        """The demo defenders' rows, as defined: written, or put back to their level and
        trophies (idempotent); past the tutorial and seen now. How many."""
        for defender in DEMO_DEFENDERS:
            self._session.execute(
                insert(terrakard_arena)
                .values(
                    player_id=defender.player_id,
                    started_at=now,
                    tickets=0,
                    tickets_since=now,
                    shield_until=None,
                    trophies=defender.trophies,
                    experience=0,
                    level=defender.level,
                    tutorial_done_at=now,
                    seen_at=now,
                )
                .on_conflict_do_update(
                    index_elements=["player_id"],
                    set_={
                        "level": defender.level,
                        "trophies": defender.trophies,
                        "shield_until": None,
                    },
                )
            )
        return len(DEMO_DEFENDERS)

    def demo_targets(self, low: int, high: int, exclude: Sequence[uuid.UUID]) -> list[ArenaPlayer]:
        """The demo defenders this install has, of a level in [low, high], not
        excluded, not defending a live attack (never protected, never inactive)."""
        table = terrakard_arena.c
        defending = exists().where(
            match_seats.c.player_id == table.player_id,
            match_seats.c.kind == SeatKind.PLAN.value,
            match_seats.c.one_active,
        )
        rows = self._session.execute(
            select(terrakard_arena).where(
                table.player_id.in_(DEMO_PLAYER_IDS),
                table.player_id.not_in(list(exclude)),
                table.level.between(low, high),
                ~defending,
            )
        ).all()
        return [_player(row) for row in rows]

    def nearby(
        self, low: int, high: int, player_id: uuid.UUID, recent: Sequence[uuid.UUID],
        now: datetime, rules: ArenaRules = ARENA,
    ) -> Nearby:  # fmt: skip
        """The other players past the tutorial of a level in [low, high], counted by why
        one may not be offered now (asked only when the offer is empty)."""
        table = terrakard_arena.c
        demo = table.player_id.in_(DEMO_PLAYER_IDS)
        ends = func.greatest(
            table.started_at + rules.new_player_protection,
            func.coalesce(table.shield_until, table.started_at),
        )
        protected = and_(~demo, ends > now)
        inactive = and_(~demo, ~protected, table.seen_at < now - rules.inactive_after)
        row = self._session.execute(
            select(
                func.count(),
                func.count().filter(protected),
                func.min(ends).filter(protected),
                func.count().filter(table.player_id.in_(list(recent))),
                func.count().filter(inactive),
            ).where(
                table.tutorial_done_at.is_not(None),
                table.level.between(low, high),
                table.player_id != player_id,
            )
        ).one()
        return Nearby(*row)

    # -- rewards --------------------------------------------------------------------------

    def add_reward(self, reward: Reward, now: datetime) -> None:
        self._session.execute(
            insert(terrakard_rewards)
            .values(
                match_id=reward.match_id,
                player_id=reward.player_id,
                kind=reward.kind,
                item=reward.item,
                amount=reward.amount,
                idempotency_key=reward.idempotency_key,
                created_at=now,
            )
            .on_conflict_do_nothing()
        )

    def packs_since(self, player_id: uuid.UUID, since: datetime) -> int:
        """Victory packs earned since ``since`` (the UTC day's start)."""
        table = terrakard_rewards.c
        found = self._session.execute(
            select(func.count()).where(
                table.player_id == player_id, table.kind == "pack", table.created_at >= since
            )
        ).scalar_one()
        return int(found)

    def rewards_of(self, match_id: uuid.UUID) -> list[Reward]:
        rows = self._session.execute(
            select(terrakard_rewards).where(terrakard_rewards.c.match_id == match_id)
        ).all()
        return [_reward(r) for r in rows]

    def pending(self, limit: int, match_id: uuid.UUID | None = None) -> list[Reward]:
        """Undelivered rewards, oldest first, locked (others skip them)."""
        table = terrakard_rewards.c
        query = select(terrakard_rewards).where(table.delivered_at.is_(None))
        if match_id is not None:
            query = query.where(table.match_id == match_id)
        rows = self._session.execute(
            query.order_by(table.created_at).limit(limit).with_for_update(skip_locked=True)
        ).all()
        return [_reward(r) for r in rows]

    def delivered(self, reward: Reward, now: datetime) -> None:
        table = terrakard_rewards.c
        self._session.execute(
            update(terrakard_rewards)
            .where(
                table.match_id == reward.match_id,
                table.player_id == reward.player_id,
                table.kind == reward.kind,
            )
            .values(delivered_at=now)
        )

    # -- daily objectives -----------------------------------------------------------------

    def advance(
        self, player_id: uuid.UUID, day: date, objective: str, needed: int, now: datetime
    ) -> bool:
        """One more toward an objective of the day; True when this made it done."""
        table = terrakard_objectives
        row = self._session.execute(
            insert(table)
            .values(player_id=player_id, day=day, objective=objective, progress=1)
            .on_conflict_do_update(
                index_elements=["player_id", "day", "objective"],
                set_={"progress": table.c.progress + 1},
                where=table.c.done_at.is_(None),
            )
            .returning(table.c.progress)
        ).first()
        if row is None or row.progress < needed:
            return False
        self._session.execute(
            update(table)
            .where(
                table.c.player_id == player_id, table.c.day == day, table.c.objective == objective
            )
            .values(done_at=now)
        )
        return True

    def objectives(self, player_id: uuid.UUID, day: date) -> dict[str, tuple[int, bool]]:
        table = terrakard_objectives.c
        rows = self._session.execute(
            select(terrakard_objectives).where(table.player_id == player_id, table.day == day)
        ).all()
        return {r.objective: (r.progress, r.done_at is not None) for r in rows}


def _reward(row: Any) -> Reward:
    return Reward(row.match_id, row.player_id, row.kind, row.item, row.amount, row.idempotency_key)


def utc_day(now: datetime) -> date:
    return now.astimezone(UTC).date()


def day_start(now: datetime) -> datetime:
    """The start of ``now``'s UTC day (daily limits and objectives reset there)."""
    return datetime.combine(utc_day(now), time(0), tzinfo=UTC)
