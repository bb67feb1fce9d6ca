"""Matches and their action logs in PostgreSQL, and the unit of work around them."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import insert, literal, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from games.quest import Action, MatchState, Side
from services.battle.domain import Match, Outcome, Status, Step
from services.battle.orm import match_actions, matches
from services.battle.purge import player_gate
from shared.db import Database
from shared.events import Event
from shared.player_gate import PlayerGate


def _match(row: Any) -> Match:
    return Match(
        id=row.id,
        player_id=row.player_id,
        deck_id=row.deck_id,
        deck_version=row.deck_version,
        status=Status(row.status),
        state=MatchState.from_dict(row.state),
        seed=row.seed,
        created_at=row.created_at,
        updated_at=row.updated_at,
        outcome=None if row.outcome is None else Outcome(row.outcome),
        finished_at=row.finished_at,
    )


def _step(row: Any) -> Step:
    return Step(
        side=Side(row.side),
        action=Action.from_dict(row.action),
        at=row.at,
        events=list(row.events),
        version=row.seq,
    )


def _changes(match: Match) -> dict[str, Any]:
    return {
        "status": str(match.status),
        "state": match.state.to_dict(),
        "version": match.version,
        "outcome": None if match.outcome is None else str(match.outcome),
        "deadline": match.deadline,
        "updated_at": match.updated_at,
        "finished_at": match.finished_at,
    }


@dataclass(frozen=True)
class KeyedStep:
    step: Step
    response: dict[str, Any] | None


class SqlMatches:
    def __init__(self, session: Session) -> None:
        self._session = session

    def add_if_no_active(self, match: Match, initial: MatchState) -> bool:
        """Insert unless the player already has an active match (the partial unique index)."""
        inserted = self._session.execute(
            pg_insert(matches)
            .values(
                id=match.id,
                player_id=match.player_id,
                deck_id=match.deck_id,
                deck_version=match.deck_version,
                initial_state=initial.to_dict(),
                seed=match.seed,
                created_at=match.created_at,
                **_changes(match),
            )
            .on_conflict_do_nothing(
                index_elements=["player_id"], index_where=text("status = 'active'")
            )
            .returning(literal(1))
        ).first()
        return inserted is not None

    def active_id(self, player_id: uuid.UUID) -> uuid.UUID | None:
        found: uuid.UUID | None = self._session.execute(
            select(matches.c.id).where(
                matches.c.player_id == player_id, matches.c.status == Status.ACTIVE.value
            )
        ).scalar()
        return found

    def get(self, match_id: uuid.UUID, for_update: bool = False) -> Match | None:
        query = select(matches).where(matches.c.id == match_id)
        if for_update:
            query = query.with_for_update()
        row = self._session.execute(query).first()
        return _match(row) if row else None

    def save(self, match: Match, previous_version: int) -> None:
        """Write the new state over the one it was computed from (locked by the caller)."""
        saved = self._session.execute(
            update(matches)
            .where(matches.c.id == match.id, matches.c.version == previous_version)
            .values(**_changes(match))
            .returning(matches.c.id)
        ).first()
        if saved is None:
            raise RuntimeError(f"match {match.id} changed under a lock")

    def add_steps(
        self,
        match_id: uuid.UUID,
        steps: Sequence[Step],
        idempotency_key: str | None = None,
        response: dict[str, Any] | None = None,
    ) -> None:
        """Log the steps; the first (the player's request, if any) keeps key and response."""
        if not steps:
            return
        self._session.execute(
            insert(match_actions),
            [
                {
                    "match_id": match_id,
                    "seq": step.version,
                    "side": str(step.side),
                    "action": step.action.to_dict(),
                    "at": step.at,
                    "idempotency_key": idempotency_key if i == 0 else None,
                    "response": response if i == 0 else None,
                    "events": step.events,
                }
                for i, step in enumerate(steps)
            ],
        )

    def keyed_step(self, match_id: uuid.UUID, key: str) -> KeyedStep | None:
        row = self._session.execute(
            select(match_actions).where(
                match_actions.c.match_id == match_id, match_actions.c.idempotency_key == key
            )
        ).first()
        return KeyedStep(_step(row), row.response) if row else None

    def steps(self, match_id: uuid.UUID) -> list[Step]:
        rows = self._session.execute(
            select(match_actions)
            .where(match_actions.c.match_id == match_id)
            .order_by(match_actions.c.seq)
        ).all()
        return [_step(r) for r in rows]

    def overdue(self, now: datetime, limit: int) -> list[Match]:
        """Active matches whose normal-turn deadline has passed, locked; others skip them."""
        rows = self._session.execute(
            select(matches)
            .where(matches.c.status == Status.ACTIVE.value, matches.c.deadline <= now)
            .order_by(matches.c.deadline)
            .limit(limit)
            .with_for_update(skip_locked=True)
        ).all()
        return [_match(r) for r in rows]


class Matches(Protocol):
    """What the handlers need of the match store (SqlMatches; a fake in unit tests)."""

    def add_if_no_active(self, match: Match, initial: MatchState) -> bool: ...
    def active_id(self, player_id: uuid.UUID) -> uuid.UUID | None: ...
    def get(self, match_id: uuid.UUID, for_update: bool = False) -> Match | None: ...
    def save(self, match: Match, previous_version: int) -> None: ...
    def add_steps(
        self,
        match_id: uuid.UUID,
        steps: Sequence[Step],
        idempotency_key: str | None = None,
        response: dict[str, Any] | None = None,
    ) -> None: ...
    def keyed_step(self, match_id: uuid.UUID, key: str) -> KeyedStep | None: ...
    def steps(self, match_id: uuid.UUID) -> list[Step]: ...
    def overdue(self, now: datetime, limit: int) -> list[Match]: ...


class EventSink(Protocol):
    def add_event(self, event: Event) -> None: ...


@dataclass
class BattleUnitOfWork:
    matches: Matches
    events: EventSink
    players: PlayerGate  # passed first by every write for a player


@contextmanager
def unit_of_work(db: Database) -> Iterator[BattleUnitOfWork]:
    with db.transaction() as tx:
        yield BattleUnitOfWork(SqlMatches(tx.session), tx, player_gate(tx.session))
