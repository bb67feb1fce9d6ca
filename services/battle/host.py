"""The match host: any engine of games/ behind the kit protocol, with seats, a log and time.

Pure: no I/O, no clock, no random (an engine's chance comes from the match seed). The
one exception decides nothing: ``_apply`` times each engine step for the metrics.
Nothing here knows a game: a ``HostedGame`` brings the engine, its CPU policy and
the rulebook's one-active rule; ``services.battle.games`` holds them by name.

A seat's request becomes ``play`` (its action, then every CPU action until a
non-CPU seat must act); time passing becomes ``catch_up`` (the engine's timeouts,
then the CPU). Each applied action is a ``Step``, logged in order; ``Step.version``
is the state version it produced, so the log replayed over the initial state is the
match. ``advance`` finishes a match when the engine gives results, and the match's
one ``MatchFinished`` has an id that follows from the match id.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol

from games.kit.protocol import CpuPolicy, Engine
from games.kit.refusal import Refusal
from services.battle.metrics import ENGINE_ACTION_DURATION
from shared.errors import InvalidInput
from shared.events import MATCH_FINISHED, MATCH_UPDATED, Event, new_event

# Ours: a bound on CPU actions in a row, against a loop; Quest's rules need at most two
# (a replacement selection, then its normal turn).
MAX_CPU_STEPS = 8


class Status(StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"


class SeatKind(StrEnum):
    """Who sits in a seat: a player acting live, the CPU (the game's policy acts for it),
    or a player's saved plan (a TerraKard defense: it never acts, its owner is not asked)."""

    PLAYER = "player"
    CPU = "cpu"
    PLAN = "plan"


@dataclass(frozen=True)
class Seat:
    name: str  # the engine's seat ("player", "cpu", ...)
    kind: SeatKind
    player_id: uuid.UUID | None = None  # the player seated; a plan's owner; None for the CPU
    ref_id: uuid.UUID | None = None  # the saved deck or plan it brought (snapshotted)
    ref_version: int | None = None
    result: str | None = None  # the game's word for this seat's result, once finished


class Views(Protocol):
    """A game's answers to a seated player (the shape of its routes): built from the
    engine's per-seat view and events, never from the raw state."""

    def match(self, match: Match, seat: Seat) -> dict[str, Any]: ...

    def result(self, match: Match, seat: Seat, steps: Sequence[Step]) -> dict[str, Any]: ...

    def history(self, match: Match, seat: Seat, steps: Sequence[Step]) -> dict[str, Any]: ...


@dataclass(frozen=True)
class HostedGame:
    """What the host needs of one game: its engine, its CPU, its views and the
    rulebook's limits."""

    engine: Engine[Any, Any, Any]
    views: Views
    cpu: CpuPolicy[Any, Any] | None = None
    # Modes in which a player may have only one active match (per game): the rulebook's.
    one_active: frozenset[str] = field(default_factory=frozenset)
    # What a client sent of a logged action (for idempotency keys): TerraKard logs an
    # answer with the server's mark, which the client never sends.
    client_part: Callable[[Mapping[str, Any]], dict[str, Any]] = dict
    # What else a match's end changes, in the transaction that finishes it (TerraKard's
    # arena): called with the unit of work, the finished match and the time.
    on_finished: Callable[[Any, Match, datetime], None] | None = None


@dataclass(frozen=True)
class Step:
    """One applied action: which seat, what (as the engine's JSON), when, what happened."""

    seat: str
    action: dict[str, Any]
    at: datetime
    events: list[dict[str, Any]]
    version: int  # the state version this action produced: its place in the log


@dataclass(frozen=True)
class Match:
    id: uuid.UUID
    game: str
    mode: str
    seats: tuple[Seat, ...]
    status: Status
    state: Any  # the engine's state; private (only views leave the service)
    seed: int
    version: int
    deadline: datetime | None  # when the seat to act runs out of time; the sweeper's key
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None = None
    one_active: bool = False  # its player seats count against the one-active rule
    # The seed's salt (64 hex digits), secret until the match ends: the views show
    # SHA-256("{seed}:{salt}") from the start (services/battle/match_seeds.py).
    seed_salt: str | None = None

    def seat_of(self, player_id: uuid.UUID) -> Seat | None:
        """The seat ``player_id`` plays in (a plan's owner does not play it)."""
        return next(
            (s for s in self.seats if s.kind is SeatKind.PLAYER and s.player_id == player_id),
            None,
        )

    @property
    def players(self) -> list[uuid.UUID]:
        """Every player with data in this match (seated or owning a plan)."""
        return [s.player_id for s in self.seats if s.player_id is not None]


# -- starting and playing -------------------------------------------------------------------


def start(
    hosted: HostedGame,
    match_id: uuid.UUID,
    mode: str,
    seats: Sequence[Seat],
    brings: Mapping[str, Any],
    settings: Any,
    seed: int,
    now: datetime,
) -> tuple[Match, Any, list[Step]]:
    """A new match, its initial state (kept for replay) and the CPU's first steps."""
    engine = hosted.engine
    initial = engine.new_match(settings, brings, seed, now)
    state, steps = cpu_replies(hosted, seats, initial, now)
    match = Match(
        id=match_id,
        game=engine.game,
        mode=mode,
        seats=tuple(seats),
        status=Status.ACTIVE,
        state=state,
        seed=seed,
        version=engine.version(state),
        deadline=engine.deadline(state),
        created_at=now,
        updated_at=now,
        one_active=mode in hosted.one_active,
    )
    return advance(hosted, match, state, now), initial, steps


def parse_action(hosted: HostedGame, data: Mapping[str, Any]) -> Any:
    """A client's action object; a malformed one is invalid input, not a rules refusal."""
    try:
        return hosted.engine.action_from_json(data)
    except Refusal as exc:
        raise InvalidInput(exc.code, exc.message, exc.details) from None


def _step(
    hosted: HostedGame, seat: str, action: Any, state: Any, now: datetime, events: Any
) -> Step:
    engine = hosted.engine
    return Step(seat, engine.action_to_json(action), now, list(events), engine.version(state))


def _apply(
    hosted: HostedGame, state: Any, seat: str, action: Any, now: datetime
) -> tuple[Any, list[Any]]:
    """The engine's step, timed: one observation per applied action (a refusal raises
    before it, and is no action)."""
    started = time.perf_counter()
    applied = hosted.engine.apply(state, seat, action, now)
    ENGINE_ACTION_DURATION.labels(hosted.engine.game).observe(time.perf_counter() - started)
    return applied


def _cpu_to_act(hosted: HostedGame, seats: Sequence[Seat], state: Any) -> str | None:
    cpus = {s.name for s in seats if s.kind is SeatKind.CPU}
    return next((s for s in hosted.engine.waiting_for(state) if s in cpus), None)


def cpu_replies(
    hosted: HostedGame, seats: Sequence[Seat], state: Any, now: datetime
) -> tuple[Any, list[Step]]:
    """Every CPU action until no CPU seat must act (or the match is over)."""
    steps: list[Step] = []
    for _ in range(MAX_CPU_STEPS):
        seat = _cpu_to_act(hosted, seats, state)
        if seat is None or hosted.cpu is None:
            break
        action = hosted.cpu(state, seat)
        if action is None:
            break
        state, events = _apply(hosted, state, seat, action, now)
        steps.append(_step(hosted, seat, action, state, now, events))
    return state, steps


def play(
    hosted: HostedGame, seats: Sequence[Seat], state: Any, seat: str, action: Any, now: datetime
) -> tuple[Any, list[Step]]:
    """``seat``'s action (the engine refuses it before any change), then the CPU's."""
    state, events = _apply(hosted, state, seat, action, now)
    first = _step(hosted, seat, action, state, now, events)
    state, replies = cpu_replies(hosted, seats, state, now)
    return state, [first, *replies]


def catch_up(
    hosted: HostedGame, seats: Sequence[Seat], state: Any, now: datetime
) -> tuple[Any, list[Step]]:
    """What time alone does: the engine's timeouts once the deadline passed, then the CPU."""
    engine = hosted.engine
    steps: list[Step] = []
    deadline = engine.deadline(state)
    if deadline is not None and now >= deadline:
        for seat, action in engine.timeouts(state):
            state, events = _apply(hosted, state, seat, action, now)
            steps.append(_step(hosted, seat, action, state, now, events))
    state, replies = cpu_replies(hosted, seats, state, now)
    return state, steps + replies


# -- results ------------------------------------------------------------------------------


def seen_versions(hosted: HostedGame, match: Match, state: Any = None) -> dict[str, int]:
    """The version each seat sees (of ``state``, else the match's own): it never moves on
    what that seat may not see (Engine.seen_version)."""
    state = match.state if state is None else state
    return {s.name: hosted.engine.seen_version(state, s.name) for s in match.seats}


def advance(hosted: HostedGame, match: Match, state: Any, now: datetime) -> Match:
    """The match with its new state; finished (each seat with its result) once the
    engine gives results. ``updated_at`` is when every seat last saw it change: a seat's
    hidden action (a Chronovore row before its lock) leaves it, as it leaves the other
    seat's view."""
    engine = hosted.engine
    before, seen = seen_versions(hosted, match), seen_versions(hosted, match, state)
    seen_by_all = all(seen[name] != version for name, version in before.items())
    after = replace(
        match,
        state=state,
        version=engine.version(state),
        deadline=engine.deadline(state),
        updated_at=now if seen_by_all else match.updated_at,
    )
    results = engine.results(state)
    if results is None or match.status is Status.FINISHED:
        return after
    seats = tuple(replace(s, result=results.get(s.name)) for s in match.seats)
    return replace(after, seats=seats, status=Status.FINISHED, finished_at=now, deadline=None)


_FINISHED_EVENTS = uuid.UUID("6d1b3c1e-5f0a-4f44-9a53-0c2b8f6e1a70")


def finished_event_id(match_id: uuid.UUID) -> uuid.UUID:
    """One MatchFinished per match: its event id follows from the match id (the outbox
    refuses a second row with the same event id)."""
    return uuid.uuid5(_FINISHED_EVENTS, str(match_id))


def finished_event(match: Match) -> Event:
    """MatchFinished (v2) of a finished match: its game, mode and every seat's result."""
    assert match.status is Status.FINISHED and match.finished_at is not None
    seats = [
        {"seat": s.name, "kind": str(s.kind), "player_id": s.player_id, "result": s.result}
        for s in match.seats
    ]
    data = {
        "match_id": match.id,
        "game": match.game,
        "mode": match.mode,
        "seats": seats,
        "finished_at": match.finished_at,
    }
    return new_event(
        MATCH_FINISHED, data, occurred_at=match.finished_at, event_id=finished_event_id(match.id)
    )


_UPDATED_EVENTS = uuid.UUID("0b6f4f64-1c52-4d8e-9a51-6a0c3e7d2b19")


def updated_event(
    hosted: HostedGame, match: Match, now: datetime, before: Match | None = None
) -> Event:
    """MatchUpdated of a match at its new version (one per version: the id follows), with
    the version each seat sees and whether it may see this change since ``before`` (a
    new match: every seat is told)."""
    seen = seen_versions(hosted, match)
    was = {} if before is None else seen_versions(hosted, before)
    seats = [
        {
            "seat": s.name,
            "kind": str(s.kind),
            "player_id": s.player_id,
            "result": s.result,
            "version": seen[s.name],
            "told": was.get(s.name) != seen[s.name],
        }
        for s in match.seats
    ]
    active = match.status is Status.ACTIVE
    data = {
        "match_id": match.id,
        "game": match.game,
        "mode": match.mode,
        "version": match.version,
        "status": str(match.status),
        "seats": seats,
        "to_act": list(hosted.engine.waiting_for(match.state)) if active else [],
        "deadline": match.deadline if active else None,
        "updated_at": now,
    }
    event_id = uuid.uuid5(_UPDATED_EVENTS, f"{match.id}:{match.version}")
    return new_event(MATCH_UPDATED, data, occurred_at=now, event_id=event_id)


def told_anyone(event: Event, but: str | None = None) -> bool:
    """Whether a MatchUpdated tells a seated player (other than seat ``but``) anything."""
    return any(
        seat["told"] and seat["kind"] == str(SeatKind.PLAYER) and seat["seat"] != but
        for seat in event.data["seats"]
    )


def same_request(
    step: Step,
    action: dict[str, Any],
    expected_version: int,
    client_part: Callable[[Mapping[str, Any]], dict[str, Any]] = dict,
    logged_expected: int | None = None,
) -> bool:
    """Whether a request repeats the one logged at ``step`` (for its idempotency key): the
    same action at the same expected version (the seat's, as logged with the key; before
    it was kept, the step's own place in the log)."""
    expected = step.version - 1 if logged_expected is None else logged_expected
    return client_part(step.action) == client_part(action) and expected == expected_version
