"""Quest CPU matches: start, read, act, history, and the sweeper (over a unit of work).

Every change to a match happens under its row lock, in one transaction with its
action log and, when it ends the match, its MatchFinished event in the outbox.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from games.quest import IllegalAction, MatchState, Side, new_match
from games.quest.cpu import CPU_DECK, CpuDeckNames
from services.battle import domain, views
from services.battle.domain import Match, Status, Step
from services.battle.repository import BattleUnitOfWork
from shared.clock import Clock
from shared.errors import Conflict, InvalidInput, NotFound
from shared.events import MATCH_FINISHED, new_event
from shared.randomness import RandomSource

UnitOfWorkFactory = Callable[[], AbstractContextManager[BattleUnitOfWork]]


class CardsCatalogue(Protocol):
    """The cards service, as far as a match start needs it."""

    def deck_for_match(self, player_id: str, deck_id: str) -> dict[str, Any]: ...

    def active_definitions_named(
        self, game: str, kind: str, names: list[str]
    ) -> list[dict[str, Any]]: ...


@dataclass(frozen=True)
class StartMatch:
    player_id: uuid.UUID
    deck_id: uuid.UUID


@dataclass(frozen=True)
class Act:
    player_id: uuid.UUID
    match_id: uuid.UUID
    expected_version: int
    action: Mapping[str, Any]
    idempotency_key: str | None = None


def _refuse_second_match(match_id: uuid.UUID | None) -> Conflict:
    return Conflict(
        "active_match_exists",
        "you already have an active CPU match: resume or forfeit it first",
        {"match_id": None if match_id is None else str(match_id)},
    )


def _commit(
    uow: BattleUnitOfWork,
    match: Match,
    state: MatchState,
    steps: list[Step],
    now: datetime,
    request: bool = False,
    idempotency_key: str | None = None,
) -> tuple[Match, dict[str, Any]]:
    """Save the new state and its steps; MatchFinished once, when this change ends it.

    With ``request``, the first step is the player's own action. With an idempotency
    key the answer is kept with it and returned again for that key; without one
    nothing could ask for it again, so it is not written (a view is kilobytes).
    """
    after = domain.advance(match, state, now)
    response = views.result_view(after, steps)
    uow.matches.save(after, match.version)
    kept = response if request and idempotency_key is not None else None
    uow.matches.add_steps(match.id, steps, idempotency_key, kept)
    if match.status is Status.ACTIVE and after.status is Status.FINISHED:
        assert after.outcome is not None and after.finished_at is not None
        uow.events.add_event(
            new_event(
                MATCH_FINISHED,
                {
                    "match_id": after.id,
                    "player_id": after.player_id,
                    "mode": domain.MODE,
                    "outcome": str(after.outcome),
                    "finished_at": after.finished_at,
                },
                occurred_at=now,
                event_id=domain.finished_event_id(after.id),
            )
        )
    return after, response


def _caught_up(uow: BattleUnitOfWork, match: Match, now: datetime) -> Match:
    """Resolve what time alone did to a locked match (an overdue turn, then the CPU)."""
    if match.status is not Status.ACTIVE:
        return match
    state, steps = domain.catch_up(match.state, now)
    if not steps:
        return match
    return _commit(uow, match, state, steps, now)[0]


def _owned(
    uow: BattleUnitOfWork, player_id: uuid.UUID, match_id: uuid.UUID, lock: bool = True
) -> Match:
    match = uow.matches.get(match_id, for_update=lock)
    if match is None or match.player_id != player_id:  # another's match: not found
        raise NotFound("match_not_found", "there is no such match")
    return match


def _current(
    uow: BattleUnitOfWork, player_id: uuid.UUID, match_id: uuid.UUID, now: datetime
) -> Match:
    """The match as of ``now`` for a read: locked only when time has changed it."""
    match = _owned(uow, player_id, match_id, lock=False)
    if match.status is Status.ACTIVE and domain.catch_up(match.state, now)[1]:
        uow.players.admit(player_id)  # the gate before the row, as everywhere
        match = _caught_up(uow, _owned(uow, player_id, match_id), now)
    return match


def start_match(
    cmd: StartMatch,
    cards: CardsCatalogue,
    unit_of_work: UnitOfWorkFactory,
    clock: Clock,
    rng: RandomSource,
    cpu_names: CpuDeckNames = CPU_DECK,
    new_id: Callable[[], uuid.UUID] = uuid.uuid4,
) -> dict[str, Any]:
    """Snapshot both decks, seed the match, let the CPU select; one active match per player."""
    with unit_of_work() as uow:
        active = uow.matches.active_id(cmd.player_id)
    if active is not None:
        raise _refuse_second_match(active)
    # Outside any transaction: the cards service may take a moment.
    deck = cards.deck_for_match(player_id=str(cmd.player_id), deck_id=str(cmd.deck_id))
    player = domain.player_deck(deck["cards"])
    cpu = domain.cpu_deck(
        cpu_names,
        cards.active_definitions_named(
            game=domain.GAME, kind="creature", names=list(cpu_names.creatures)
        ),
        cards.active_definitions_named(
            game=domain.GAME, kind="power_card", names=list(cpu_names.power_cards)
        ),
    )
    now = clock.now()
    seed = rng.seed_for_child()
    initial = new_match(player, cpu, seed, now)
    state, steps = domain.cpu_replies(initial, now)  # the CPU's initial selection
    match = Match(
        id=new_id(),
        player_id=cmd.player_id,
        deck_id=uuid.UUID(str(deck["deck_id"])),
        deck_version=int(deck["version"]),
        status=Status.ACTIVE,
        state=state,
        seed=seed,
        created_at=now,
        updated_at=now,
    )
    with unit_of_work() as uow:
        uow.players.admit(cmd.player_id)  # the account may have been deleted meanwhile
        if not uow.matches.add_if_no_active(match, initial):
            raise _refuse_second_match(uow.matches.active_id(cmd.player_id))
        uow.matches.add_steps(match.id, steps)
    return views.player_view(match)


def get_match(
    player_id: uuid.UUID, match_id: uuid.UUID, uow: BattleUnitOfWork, clock: Clock
) -> dict[str, Any]:
    return views.player_view(_current(uow, player_id, match_id, clock.now()))


def active_match(player_id: uuid.UUID, uow: BattleUnitOfWork, clock: Clock) -> dict[str, Any]:
    match_id = uow.matches.active_id(player_id)
    if match_id is None:
        raise NotFound("no_active_match", "you have no active CPU match")
    return get_match(player_id, match_id, uow, clock)


def act(cmd: Act, uow: BattleUnitOfWork, clock: Clock) -> dict[str, Any]:
    """One player action at ``expected_version``; refused ones change nothing.

    The same idempotency key again returns the first answer, even after the match
    moved on; with another action or version it is refused. An action at or after
    the turn's deadline becomes a timeout (the engine decides, given the time).
    """
    action = domain.parse_action(cmd.action)
    uow.players.admit(cmd.player_id)
    match = _owned(uow, cmd.player_id, cmd.match_id)
    if cmd.idempotency_key is not None:
        earlier = uow.matches.keyed_step(match.id, cmd.idempotency_key)
        if earlier is not None:
            if not domain.same_request(earlier.step, action, cmd.expected_version):
                raise InvalidInput(
                    "idempotency_key_reused",
                    "this idempotency key was used for another request on this match",
                )
            assert earlier.response is not None
            return earlier.response
    if cmd.expected_version != match.version:
        raise Conflict(
            "stale_version",
            f"the match is at version {match.version}, not {cmd.expected_version}",
            {"version": match.version},
        )
    now = clock.now()
    try:
        state, steps = domain.play(match.state, Side.PLAYER, action, now)
    except IllegalAction as refusal:  # the engine knows no HTTP: a refused action is a 409 here
        raise Conflict(refusal.code, refusal.message, refusal.details) from None
    return _commit(uow, match, state, steps, now, True, cmd.idempotency_key)[1]


def history(
    player_id: uuid.UUID, match_id: uuid.UUID, uow: BattleUnitOfWork, clock: Clock
) -> dict[str, Any]:
    match = _current(uow, player_id, match_id, clock.now())
    return views.history_view(match, uow.matches.steps(match.id))


SWEEP_LIMIT = 50  # ours: matches resolved per sweep (per transaction)


def expire_overdue(uow: BattleUnitOfWork, clock: Clock, limit: int = SWEEP_LIMIT) -> int:
    """The sweeper: time out turns nobody played, then let the CPU reply.

    It already holds the matches' rows, so it only tries each player's gate: a player
    being purged (or busy) is skipped, never waited for. Returns how many it resolved."""
    now = clock.now()
    resolved = 0
    for match in uow.matches.overdue(now, limit):
        if uow.players.try_admit(match.player_id):
            _caught_up(uow, match, now)
            resolved += 1
    return resolved
