"""Matches, their seats and action logs in PostgreSQL, and the unit of work around them."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from psycopg.types.json import Jsonb
from sqlalchemy import delete, func, insert, literal, select, tuple_, union_all
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from services.battle.games import ENGINES, hosted
from services.battle.host import Match, Seat, SeatKind, Status, Step
from services.battle.orm import match_actions, match_seats, matches
from services.battle.purge import player_gate
from services.battle.terrakard_store import SqlArena
from shared.db import Database, Statement, columns, pipelined
from shared.events import Event
from shared.player_gate import PlayerGate

# The one shape of match the release before migration 0004 knew. While it may run beside
# this one (a rolling update), such matches keep its columns filled, and a match it
# started has no seats yet: they are read from its columns and written on first save.
LEGACY = ("quest", "cpu")
LEGACY_PLAYER, LEGACY_CPU = "player", "cpu"


def _seat(row: Any) -> Seat:
    return Seat(
        name=row.seat,
        kind=SeatKind(row.kind),
        player_id=row.player_id,
        ref_id=row.ref_id,
        ref_version=row.ref_version,
        result=row.result,
    )


def _legacy_seats(row: Any) -> tuple[Seat, ...]:
    cpu_result = {None: None, "victory": "defeat"}.get(row.outcome, "victory")
    return (
        Seat(
            LEGACY_PLAYER,
            SeatKind.PLAYER,
            row.player_id,
            row.deck_id,
            row.deck_version,
            row.outcome,
        ),
        Seat(LEGACY_CPU, SeatKind.CPU, result=cpu_result),
    )


def _match(row: Any, seat_rows: Sequence[Any]) -> Match:
    legacy = not seat_rows and (row.game, row.mode) == LEGACY and row.player_id is not None
    return Match(
        id=row.id,
        game=row.game,
        mode=row.mode,
        seats=_legacy_seats(row) if legacy else tuple(_seat(r) for r in seat_rows),
        status=Status(row.status),
        state=ENGINES[row.game].from_json(row.state),
        seed=row.seed,
        version=row.version,
        deadline=row.deadline,
        created_at=row.created_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
        one_active=row.mode in hosted(row.game).one_active,
        seed_salt=row.seed_salt,
    )


def _step(row: Any) -> Step:
    return Step(
        seat=row.side,
        action=dict(row.action),
        at=row.at,
        events=list(row.events),
        version=row.seq,
    )


def _legacy_columns(match: Match) -> dict[str, Any]:
    """The previous release's columns: filled for its shape of match only."""
    player = next((s for s in match.seats if s.name == LEGACY_PLAYER), None)
    if (match.game, match.mode) != LEGACY or player is None:
        return {"player_id": None, "deck_id": None, "deck_version": None, "outcome": None}
    return {
        "player_id": player.player_id,
        "deck_id": player.ref_id,
        "deck_version": player.ref_version,
        "outcome": player.result,
    }


def _changes(match: Match) -> dict[str, Any]:
    return {
        "status": str(match.status),
        "state": ENGINES[match.game].to_json(match.state),
        "version": match.version,
        "deadline": match.deadline,
        "updated_at": match.updated_at,
        "finished_at": match.finished_at,
        **_legacy_columns(match),
    }


PLAN_MODE_SUFFIX = "/plan"


def _seat_mode(match: Match, seat: Seat) -> str:
    """A plan seat of a one-active mode counts under its own mode (``attack/plan``): one
    active attack per attacker and one per defended plan's owner, each race-proof by
    ``uq_match_seats_one_active``, without an attacker and a defender colliding."""
    if seat.kind is SeatKind.PLAN and match.one_active:
        return match.mode + PLAN_MODE_SUFFIX
    return match.mode


def _seat_rows(match: Match) -> list[dict[str, Any]]:
    holds = match.one_active and match.status is Status.ACTIVE
    return [
        {
            "match_id": match.id,
            "seat": s.name,
            "position": position,
            "kind": str(s.kind),
            "player_id": s.player_id,
            "ref_id": s.ref_id,
            "ref_version": s.ref_version,
            "result": s.result,
            "game": match.game,
            "mode": _seat_mode(match, s),
            "one_active": holds
            and s.kind in (SeatKind.PLAYER, SeatKind.PLAN)
            and s.player_id is not None,
        }
        for position, s in enumerate(match.seats)
    ]


@dataclass(frozen=True)
class KeyedStep:
    step: Step
    response: dict[str, Any] | None
    expected_version: int | None = None  # the seat's, as sent (None: logged before it was)


def _step_rows(
    match_id: uuid.UUID,
    steps: Sequence[Step],
    idempotency_key: str | None,
    response: dict[str, Any] | None,
    expected_version: int | None = None,
) -> list[dict[str, Any]]:
    """The log's rows of ``steps``: the first (the seat's request) keeps key, response and
    the expected version it was sent at."""
    keyed = idempotency_key is not None
    return [
        {
            "match_id": match_id,
            "seq": step.version,
            "side": step.seat,
            "action": step.action,
            "at": step.at,
            "idempotency_key": idempotency_key if i == 0 else None,
            "response": response if i == 0 else None,
            "events": step.events,
            "expected_version": expected_version if keyed and i == 0 else None,
        }
        for i, step in enumerate(steps)
    ]


def _q(name: str) -> str:
    return f'"{name}"'


_STEP_COLUMNS = [c.name for c in match_actions.c]
_STEP_JSON = {"action", "response", "events"}

# SqlMatches.get's statements, as SQL for one pipeline (shared.db.pipelined).
_MATCH = f"SELECT {columns(matches, leave_out=['initial_state'])} FROM matches WHERE id = %s"
_LOCKED_MATCH = f"{_MATCH} FOR UPDATE"
_SEATS = f'SELECT {columns(match_seats)} FROM match_seats WHERE match_id = %s ORDER BY "position"'


class SqlMatches:
    def __init__(self, session: Session) -> None:
        self._session = session
        # Matches read from the legacy columns in this unit of work: their seats are
        # written on save. Others' seats change only when the match finishes.
        self._seatless: set[uuid.UUID] = set()

    def add_if_no_active(self, match: Match, initial: Any) -> bool:
        """Insert the match and its seats unless one of its players already has an active
        match where the rulebook allows one (the unique partial index of match_seats;
        the previous release's index on matches too, for its shape of match)."""
        inserted = self._session.execute(
            pg_insert(matches)
            .values(
                id=match.id,
                game=match.game,
                mode=match.mode,
                initial_state=ENGINES[match.game].to_json(initial),
                seed=match.seed,
                seed_salt=match.seed_salt,
                created_at=match.created_at,
                **_changes(match),
            )
            .on_conflict_do_nothing()
            .returning(literal(1))
        ).first()
        if inserted is None:
            return False
        rows = _seat_rows(match)
        seated = self._session.execute(
            pg_insert(match_seats).values(rows).on_conflict_do_nothing().returning(literal(1))
        ).all()
        if len(seated) < len(rows):  # a seat's player is in another active match
            self._session.execute(delete(match_seats).where(match_seats.c.match_id == match.id))
            self._session.execute(delete(matches).where(matches.c.id == match.id))
            return False
        return True

    def active_id(self, player_id: uuid.UUID, game: str, mode: str) -> uuid.UUID | None:
        """The player's active match of ``game`` and ``mode`` (seated, or by the legacy
        column for a match the previous release started)."""
        active = (
            matches.c.status == Status.ACTIVE.value,
            matches.c.game == game,
            matches.c.mode == mode,
        )
        seated = (
            select(matches.c.id)
            .join(match_seats, match_seats.c.match_id == matches.c.id)
            .where(
                match_seats.c.player_id == player_id,
                match_seats.c.kind == SeatKind.PLAYER.value,
                *active,
            )
        )
        legacy = select(matches.c.id).where(matches.c.player_id == player_id, *active)
        # Two indexed look-ups (ix_match_seats_player; the legacy partial index), not an OR.
        found: uuid.UUID | None = self._session.execute(union_all(seated, legacy).limit(1)).scalar()
        return found

    def _seats_of(self, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, list[Any]]:
        rows = self._session.execute(
            select(match_seats)
            .where(match_seats.c.match_id.in_(ids))
            .order_by(match_seats.c.match_id, match_seats.c.position)
        ).all()
        found: dict[uuid.UUID, list[Any]] = {i: [] for i in ids}
        for row in rows:
            found[row.match_id].append(row)
        return found

    def get(self, match_id: uuid.UUID, for_update: bool = False) -> Match | None:
        """The match (under its row lock with ``for_update``) and its seats, read after
        the lock is held, in one round trip; without the initial state, which only a
        replay reads (``initial_state``) and which is as large as the state."""
        found, seats = pipelined(
            self._session,
            [(_LOCKED_MATCH if for_update else _MATCH, (match_id,)), (_SEATS, (match_id,))],
        )
        return self._loaded(found[0], seats) if found else None

    def _loaded(self, row: Any, seat_rows: Sequence[Any]) -> Match:
        if not seat_rows:
            self._seatless.add(row.id)
        return _match(row, seat_rows)

    def save(
        self,
        match: Match,
        previous_version: int,
        steps: Sequence[Step] = (),
        idempotency_key: str | None = None,
        response: dict[str, Any] | None = None,
        expected_version: int | None = None,
    ) -> None:
        """Write the new state and seats over the ones it was computed from (the caller
        holds the match's row lock, which guards its seats too), and log ``steps`` as
        ``add_steps`` does: the update and the log in one round trip."""
        changes = _changes(match)
        changes["state"] = Jsonb(changes["state"])
        update_sql = (
            f"UPDATE matches SET {', '.join(f'{_q(n)} = %s' for n in changes)}"
            " WHERE id = %s AND version = %s RETURNING id"
        )
        statements: list[Statement] = [
            (update_sql, (*changes.values(), match.id, previous_version))
        ]
        if steps:
            rows = _step_rows(match.id, steps, idempotency_key, response, expected_version)
            values = ", ".join([f"({', '.join(['%s'] * len(_STEP_COLUMNS))})"] * len(rows))
            params = [
                Jsonb(row[c]) if c in _STEP_JSON and row[c] is not None else row[c]
                for row in rows
                for c in _STEP_COLUMNS
            ]
            names = ", ".join(_q(c) for c in _STEP_COLUMNS)
            statements.append((f"INSERT INTO match_actions ({names}) VALUES {values}", params))
        if not pipelined(self._session, statements)[0]:
            raise RuntimeError(f"match {match.id} changed under a lock")
        if match.status is Status.ACTIVE and match.id not in self._seatless:
            return  # the seats are as they were: results come with the finish
        self._seatless.discard(match.id)
        upsert = pg_insert(match_seats).values(_seat_rows(match))
        self._session.execute(
            upsert.on_conflict_do_update(
                index_elements=["match_id", "seat"],
                set_={
                    "player_id": upsert.excluded.player_id,
                    "result": upsert.excluded.result,
                    "one_active": upsert.excluded.one_active,
                },
            )
        )

    def add_steps(
        self,
        match_id: uuid.UUID,
        steps: Sequence[Step],
        idempotency_key: str | None = None,
        response: dict[str, Any] | None = None,
    ) -> None:
        """Log the steps; the first (the seat's request, if any) keeps key and response."""
        if not steps:
            return
        self._session.execute(
            insert(match_actions), _step_rows(match_id, steps, idempotency_key, response)
        )

    def keyed_step(self, match_id: uuid.UUID, key: str) -> KeyedStep | None:
        row = self._session.execute(
            select(match_actions).where(
                match_actions.c.match_id == match_id, match_actions.c.idempotency_key == key
            )
        ).first()
        return KeyedStep(_step(row), row.response, row.expected_version) if row else None

    def initial_state(self, match_id: uuid.UUID) -> Any:
        """The engine's state before the match's first action (for its replay)."""
        row = self._session.execute(
            select(matches.c.game, matches.c.initial_state).where(matches.c.id == match_id)
        ).one()
        return ENGINES[row.game].from_json(row.initial_state)

    def steps(self, match_id: uuid.UUID) -> list[Step]:
        rows = self._session.execute(
            select(match_actions)
            .where(match_actions.c.match_id == match_id)
            .order_by(match_actions.c.seq)
        ).all()
        return [_step(r) for r in rows]

    def opponents_since(
        self, player_id: uuid.UUID, game: str, mode: str, since: datetime
    ) -> set[uuid.UUID]:
        """The owners of the plans ``player_id`` attacked in ``game``/``mode`` since ``since``."""
        mine = match_seats.alias("mine")
        theirs = match_seats.alias("theirs")
        rows = self._session.execute(
            select(theirs.c.player_id)
            .select_from(mine)
            .join(theirs, theirs.c.match_id == mine.c.match_id)
            .join(matches, matches.c.id == mine.c.match_id)
            .where(
                mine.c.player_id == player_id,
                mine.c.kind == SeatKind.PLAYER.value,
                theirs.c.kind == SeatKind.PLAN.value,
                matches.c.game == game,
                matches.c.mode == mode,
                matches.c.created_at >= since,
            )
        ).all()
        return {row.player_id for row in rows if row.player_id is not None}

    def defended(
        self,
        player_id: uuid.UUID,
        game: str,
        before: tuple[datetime, uuid.UUID] | None,
        limit: int,
    ) -> list[Match]:
        """Finished matches of ``game`` where ``player_id``'s plan defended, newest first
        (by end, then id), only those after ``before`` in that order; ``limit`` at most."""
        query = (
            select(matches)
            .join(match_seats, match_seats.c.match_id == matches.c.id)
            .where(
                match_seats.c.player_id == player_id,
                match_seats.c.kind == SeatKind.PLAN.value,
                matches.c.game == game,
                matches.c.status == Status.FINISHED.value,
            )
        )
        if before is not None:
            query = query.where(tuple_(matches.c.finished_at, matches.c.id) < tuple_(*before))
        rows = self._session.execute(
            query.order_by(matches.c.finished_at.desc(), matches.c.id.desc()).limit(limit)
        ).all()
        seats = self._seats_of([r.id for r in rows])
        return [self._loaded(r, seats[r.id]) for r in rows]

    def _seated_where(
        self, player_id: uuid.UUID, game: str, modes: str | Sequence[str]
    ) -> tuple[Any, ...]:
        return (
            match_seats.c.player_id == player_id,
            match_seats.c.kind == SeatKind.PLAYER.value,
            matches.c.game == game,
            matches.c.mode.in_([modes] if isinstance(modes, str) else list(modes)),
        )

    def active_count(self, player_id: uuid.UUID, game: str, mode: str) -> int:
        """How many active matches of ``game``/``mode`` the player is seated in."""
        found = self._session.execute(
            select(func.count())
            .select_from(matches)
            .join(match_seats, match_seats.c.match_id == matches.c.id)
            .where(
                *self._seated_where(player_id, game, mode),
                matches.c.status == Status.ACTIVE.value,
            )
        ).scalar()
        return int(found or 0)

    def started_count(self, player_id: uuid.UUID, game: str, mode: str) -> int:
        """How many matches of ``game``/``mode`` the player has been seated in, whatever
        became of them (seated ones: a match of the release before seats is not counted)."""
        found = self._session.execute(
            select(func.count())
            .select_from(matches)
            .join(match_seats, match_seats.c.match_id == matches.c.id)
            .where(*self._seated_where(player_id, game, mode))
        ).scalar()
        return int(found or 0)

    def played_by(
        self,
        player_id: uuid.UUID,
        game: str,
        before: tuple[datetime, uuid.UUID] | None,
        limit: int,
        modes: Sequence[str] | None = None,
    ) -> list[Match]:
        """Matches of ``game`` (in ``modes``, or any) where ``player_id`` sits as a player,
        newest first (by creation, then id), only those after ``before`` in that order;
        ``limit`` at most."""
        query = (
            select(matches)
            .join(match_seats, match_seats.c.match_id == matches.c.id)
            .where(
                match_seats.c.player_id == player_id,
                match_seats.c.kind == SeatKind.PLAYER.value,
                matches.c.game == game,
            )
        )
        if modes is not None:
            query = query.where(matches.c.mode.in_(list(modes)))
        if before is not None:
            query = query.where(tuple_(matches.c.created_at, matches.c.id) < tuple_(*before))
        rows = self._session.execute(
            query.order_by(matches.c.created_at.desc(), matches.c.id.desc()).limit(limit)
        ).all()
        seats = self._seats_of([r.id for r in rows])
        return [self._loaded(r, seats[r.id]) for r in rows]

    def results_of(
        self, player_id: uuid.UUID, game: str, modes: str | Sequence[str]
    ) -> list[tuple[uuid.UUID | None, datetime, str | None]]:
        """Every finished two-player match of the player: (the opponent, or None once
        deleted; when it finished; the player's result), oldest first."""
        mine = match_seats.alias("mine")
        theirs = match_seats.alias("theirs")
        rows = self._session.execute(
            select(theirs.c.player_id, matches.c.finished_at, mine.c.result)
            .select_from(mine)
            .join(matches, matches.c.id == mine.c.match_id)
            .join(
                theirs,
                (theirs.c.match_id == mine.c.match_id) & (theirs.c.seat != mine.c.seat),
            )
            .where(
                mine.c.player_id == player_id,
                mine.c.kind == SeatKind.PLAYER.value,
                matches.c.game == game,
                matches.c.mode.in_([modes] if isinstance(modes, str) else list(modes)),
                matches.c.status == Status.FINISHED.value,
            )
            .order_by(matches.c.finished_at, matches.c.id)
        ).all()
        return [(r.player_id, r.finished_at, r.result) for r in rows]

    def overdue(self, now: datetime, limit: int) -> list[Match]:
        """Active matches whose deadline has passed, locked; others skip them."""
        rows = self._session.execute(
            select(matches)
            .where(matches.c.status == Status.ACTIVE.value, matches.c.deadline <= now)
            .order_by(matches.c.deadline)
            .limit(limit)
            .with_for_update(skip_locked=True)
        ).all()
        seats = self._seats_of([r.id for r in rows])
        return [self._loaded(r, seats[r.id]) for r in rows]


class Matches(Protocol):
    """What the handlers need of the match store (SqlMatches; a fake in unit tests)."""

    def add_if_no_active(self, match: Match, initial: Any) -> bool: ...
    def active_id(self, player_id: uuid.UUID, game: str, mode: str) -> uuid.UUID | None: ...
    def started_count(self, player_id: uuid.UUID, game: str, mode: str) -> int: ...
    def get(self, match_id: uuid.UUID, for_update: bool = False) -> Match | None: ...
    def save(
        self,
        match: Match,
        previous_version: int,
        steps: Sequence[Step] = (),
        idempotency_key: str | None = None,
        response: dict[str, Any] | None = None,
        expected_version: int | None = None,
    ) -> None: ...
    def add_steps(
        self,
        match_id: uuid.UUID,
        steps: Sequence[Step],
        idempotency_key: str | None = None,
        response: dict[str, Any] | None = None,
    ) -> None: ...
    def keyed_step(self, match_id: uuid.UUID, key: str) -> KeyedStep | None: ...
    def steps(self, match_id: uuid.UUID) -> list[Step]: ...
    def initial_state(self, match_id: uuid.UUID) -> Any: ...
    def overdue(self, now: datetime, limit: int) -> list[Match]: ...
    def opponents_since(
        self, player_id: uuid.UUID, game: str, mode: str, since: datetime
    ) -> set[uuid.UUID]: ...
    def defended(
        self,
        player_id: uuid.UUID,
        game: str,
        before: tuple[datetime, uuid.UUID] | None,
        limit: int,
    ) -> list[Match]: ...
    def played_by(
        self,
        player_id: uuid.UUID,
        game: str,
        before: tuple[datetime, uuid.UUID] | None,
        limit: int,
        modes: Sequence[str] | None = None,
    ) -> list[Match]: ...


class EventSink(Protocol):
    def add_event(self, event: Event) -> None: ...


@dataclass
class BattleUnitOfWork:
    matches: Matches
    events: EventSink
    players: PlayerGate  # passed first by every write for a player
    # TerraKard's arena (tickets, shields, trophies...): its attacks' ends change it in
    # the transaction that finishes them (services/battle/terrakard_arena.py).
    arena: SqlArena | None = None


@contextmanager
def unit_of_work(db: Database) -> Iterator[BattleUnitOfWork]:
    with db.transaction() as tx:
        session = tx.session
        yield BattleUnitOfWork(SqlMatches(session), tx, player_gate(session), SqlArena(session))
