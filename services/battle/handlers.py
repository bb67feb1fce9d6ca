"""Matches: start (a Quest CPU match), read, act, history, and the sweeper, over a unit
of work. Only the start knows a game; the rest runs any game of the registry.

Every change to a match happens under its row lock, in one transaction with its
action log and, when it ends the match, its MatchFinished event in the outbox.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.kit.refusal import Refusal
from games.quest.cpu import CPU_DECK, CpuDeckNames
from services.battle import host, match_seeds
from services.battle.games import chronovore, hosted, quest
from services.battle.host import Match, Status, Step
from services.battle.repository import BattleUnitOfWork
from shared.clock import Clock
from shared.errors import Conflict, InvalidInput, NotFound
from shared.randomness import RandomSource

UnitOfWorkFactory = Callable[[], AbstractContextManager[BattleUnitOfWork]]
CPU_MODE = "cpu"  # every game's matches against the computer
# Actions only the sweeper takes, never a client's (docs/quest-pvp.md, "Reconnect").
SWEEPER_ONLY = frozenset({"disconnected"})


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
    game: str = quest.GAME  # the route's game: a match of another game is not found there


def _refuse_second_match(match_id: uuid.UUID | None) -> Conflict:
    return Conflict(
        "active_match_exists",
        "you already have an active CPU match: resume or forfeit it first",
        {"match_id": None if match_id is None else str(match_id)},
    )


def _commit(
    uow: BattleUnitOfWork,
    match: Match,
    state: Any,
    steps: list[Step],
    now: datetime,
    seat: host.Seat | None = None,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
) -> tuple[Match, dict[str, Any] | None]:
    """Save the new state and its steps; MatchFinished once, when this change ends it.

    With ``seat``, the first step is that seat's own request, answered with its
    view. With an idempotency key the answer is kept with it and returned again for
    that key; without one nothing could ask for it again, so it is not written (a
    view is kilobytes).
    """
    hosted_game = hosted(match.game)
    after = host.advance(hosted_game, match, state, now)
    response = None if seat is None else hosted_game.views.result(after, seat, steps)
    kept = response if idempotency_key is not None else None
    uow.matches.save(after, match.version, steps, idempotency_key, kept, expected_version)
    if match.status is Status.ACTIVE and after.status is Status.FINISHED:
        uow.events.add_event(host.finished_event(after))
        if hosted_game.on_finished is not None:
            hosted_game.on_finished(uow, after, now)
    if seat is None or sum(s.kind is host.SeatKind.PLAYER for s in after.seats) > 1:
        # Someone is told who did not ask: a timeout or the sweeper changed the match, or
        # another player did. A player's own request against the CPU is its own answer,
        # and so is one that no other seat may see (a Chronovore row before its lock).
        updated = host.updated_event(hosted_game, after, now, match)
        if host.told_anyone(updated, but=None if seat is None else seat.name):
            uow.events.add_event(updated)
    return after, response


def _caught_up(uow: BattleUnitOfWork, match: Match, now: datetime) -> Match:
    """Resolve what time alone did to a locked match (the engine's timeouts, then the CPU)."""
    if match.status is not Status.ACTIVE:
        return match
    state, steps = host.catch_up(hosted(match.game), match.seats, match.state, now)
    if not steps:
        return match
    return _commit(uow, match, state, steps, now)[0]


def _owned(
    uow: BattleUnitOfWork,
    player_id: uuid.UUID,
    match_id: uuid.UUID,
    game: str,
    lock: bool = True,
) -> tuple[Match, host.Seat]:
    """The match of ``game`` and the player's seat in it."""
    match = uow.matches.get(match_id, for_update=lock)
    seat = None if match is None or match.game != game else match.seat_of(player_id)
    if match is None or seat is None:  # another's match: not found
        raise NotFound("match_not_found", "there is no such match")
    return match, seat


def _current(
    uow: BattleUnitOfWork, player_id: uuid.UUID, match_id: uuid.UUID, game: str, now: datetime
) -> tuple[Match, host.Seat]:
    """The match as of ``now`` for a read: locked only when time has changed it."""
    match, seat = _owned(uow, player_id, match_id, game, lock=False)
    hosted_game = hosted(match.game)
    if (
        match.status is Status.ACTIVE
        and host.catch_up(hosted_game, match.seats, match.state, now)[1]
    ):
        uow.players.admit(player_id)  # the gate before the row, as everywhere
        match, seat = _owned(uow, player_id, match_id, game)
        match = _caught_up(uow, match, now)
    return match, seat


def start_match(
    cmd: StartMatch,
    cards: quest.CardsCatalogue,
    unit_of_work: UnitOfWorkFactory,
    clock: Clock,
    rng: RandomSource,
    cpu_names: CpuDeckNames = CPU_DECK,
    new_id: Callable[[], uuid.UUID] = uuid.uuid4,
) -> dict[str, Any]:
    """A Quest CPU match: snapshot both decks, seed it, let the CPU select; one active
    CPU match per player (the rulebook's)."""
    game, mode = quest.GAME, quest.CPU_MODE
    with unit_of_work() as uow:
        active = uow.matches.active_id(cmd.player_id, game, mode)
    if active is not None:
        raise _refuse_second_match(active)
    # Outside any transaction: the cards service may take a moment.
    seats, brings = quest.cpu_match_setup(cards, cpu_names, cmd.player_id, cmd.deck_id)
    return _start(game, mode, seats, brings, unit_of_work, clock, rng, new_id)


def start_chronovore_match(
    cmd: StartMatch,
    cards: chronovore.CardsCatalogue,
    unit_of_work: UnitOfWorkFactory,
    clock: Clock,
    rng: RandomSource,
    cpu_decks: chronovore.CpuDeckChoice = chronovore.NEW_PLAYER_CPU,
    new_id: Callable[[], uuid.UUID] = uuid.uuid4,
) -> dict[str, Any]:
    """A Chronovore CPU match: the player's legal saved deck against a configured CPU
    deck (the training one for the player's first CPU matches, counted in the
    transaction that stores this one), both shuffled from the seed, the CPU's row of
    round 1 locked in; one active CPU match per player (ours, as Quest's)."""
    game, mode = chronovore.GAME, chronovore.CPU_MODE
    with unit_of_work() as uow:
        active = uow.matches.active_id(cmd.player_id, game, mode)
    if active is not None:
        raise _refuse_second_match(active)
    seats, player, built = chronovore.cpu_match_decks(cards, cpu_decks, cmd.player_id, cmd.deck_id)

    def brings(uow: BattleUnitOfWork) -> Mapping[str, Any]:
        started = uow.matches.started_count(cmd.player_id, game, mode)
        cpu = built[cpu_decks.pick(started).difficulty]
        return {chronovore.PLAYER_SEAT: player, chronovore.CPU_SEAT: cpu}

    return _start(game, mode, seats, brings, unit_of_work, clock, rng, new_id)


def _start(
    game: str,
    mode: str,
    seats: list[host.Seat],
    brings: Mapping[str, Any] | Callable[[BattleUnitOfWork], Mapping[str, Any]],
    unit_of_work: UnitOfWorkFactory,
    clock: Clock,
    rng: RandomSource,
    new_id: Callable[[], uuid.UUID],
) -> dict[str, Any]:
    """Any game's start once its seats are known: seed, the CPU's first actions, the
    insert (refused when a seated player has an active match where the rulebook allows
    one), and the first player seat's view. ``brings`` may be read from the store, in
    the transaction that inserts the match (Chronovore's CPU deck by the player's
    matches so far)."""
    hosted_game = hosted(game)
    now = clock.now()
    seated = [s for s in seats if s.kind is host.SeatKind.PLAYER]
    with unit_of_work() as uow:
        for seat in seats:  # an account may have been deleted meanwhile
            if seat.player_id is not None:
                uow.players.admit(seat.player_id)
        decks = brings(uow) if callable(brings) else brings
        match, initial, steps = host.start(
            hosted_game, new_id(), mode, seats, decks, None, rng.seed_for_child(), now
        )
        match = match_seeds.salted(match, rng)
        if not uow.matches.add_if_no_active(match, initial):
            first = match.players[0]
            raise _refuse_second_match(uow.matches.active_id(first, game, mode))
        uow.matches.add_steps(match.id, steps)
    return hosted_game.views.match(match, seated[0])


def get_match(
    player_id: uuid.UUID,
    match_id: uuid.UUID,
    uow: BattleUnitOfWork,
    clock: Clock,
    game: str = quest.GAME,
) -> dict[str, Any]:
    match, seat = _current(uow, player_id, match_id, game, clock.now())
    return hosted(match.game).views.match(match, seat)


def active_match(
    player_id: uuid.UUID, uow: BattleUnitOfWork, clock: Clock, game: str = quest.GAME
) -> dict[str, Any]:
    """The player's active CPU match of ``game`` (the one its rules allow)."""
    match_id = uow.matches.active_id(player_id, game, CPU_MODE)
    if match_id is None:
        raise NotFound("no_active_match", "you have no active CPU match")
    return get_match(player_id, match_id, uow, clock, game)


def act(
    cmd: Act,
    uow: BattleUnitOfWork,
    clock: Clock,
    mark: Callable[[Match, Any], Any] | None = None,
) -> dict[str, Any]:
    """One player action at ``expected_version``; refused ones change nothing.

    The same idempotency key again returns the first answer, even after the match
    moved on; with another action or version it is refused. An action at or after
    the turn's deadline becomes a timeout (the engine decides, given the time).
    ``mark`` (TerraKard's answers) turns the client's action into the one logged, given
    the locked match at the expected version.
    """
    hosted_game = hosted(cmd.game)
    if cmd.action.get("kind") in SWEEPER_ONLY:
        raise InvalidInput("invalid_action", "this action is the server's, not a player's")
    action = host.parse_action(hosted_game, cmd.action)
    uow.players.admit(cmd.player_id)
    match, seat = _owned(uow, cmd.player_id, cmd.match_id, cmd.game)
    if cmd.idempotency_key is not None:
        earlier = uow.matches.keyed_step(match.id, cmd.idempotency_key)
        if earlier is not None:
            submitted = hosted_game.engine.action_to_json(action)
            if not host.same_request(
                earlier.step,
                submitted,
                cmd.expected_version,
                hosted_game.client_part,
                earlier.expected_version,
            ):
                raise InvalidInput(
                    "idempotency_key_reused",
                    "this idempotency key was used for another request on this match",
                )
            assert earlier.response is not None
            return earlier.response
    # The seat's own version: another seat's hidden actions do not make it stale.
    version = hosted_game.engine.seen_version(match.state, seat.name)
    if cmd.expected_version != version:
        raise Conflict(
            "stale_version",
            f"the match is at version {version}, not {cmd.expected_version}",
            {"version": version},
        )
    if mark is not None:
        action = mark(match, action)
    now = clock.now()
    try:
        state, steps = host.play(hosted_game, match.seats, match.state, seat.name, action, now)
    except Refusal as refusal:  # the engine knows no HTTP: a refused action is a 409 here
        raise Conflict(refusal.code, refusal.message, refusal.details) from None
    response = _commit(
        uow, match, state, steps, now, seat, cmd.idempotency_key, cmd.expected_version
    )[1]
    assert response is not None
    return response


def history(
    player_id: uuid.UUID,
    match_id: uuid.UUID,
    uow: BattleUnitOfWork,
    clock: Clock,
    game: str = quest.GAME,
) -> dict[str, Any]:
    match, seat = _current(uow, player_id, match_id, game, clock.now())
    steps = uow.matches.steps(match.id)
    found = hosted(match.game).views.history(match, seat, steps)
    over = match.status is Status.FINISHED
    initial = uow.matches.initial_state(match.id) if over else None
    return {**found, "replay": match_seeds.replay_view(match, initial, steps)}


SWEEP_LIMIT = 50  # ours: matches resolved per sweep (per transaction)


def expire_overdue(uow: BattleUnitOfWork, clock: Clock, limit: int = SWEEP_LIMIT) -> int:
    """The sweeper: time out turns nobody played, then let the CPU reply.

    It already holds the matches' rows, so it only tries the gate of each player with
    data in the match: a player being purged (or busy) is skipped, never waited for.
    Returns how many it resolved."""
    now = clock.now()
    resolved = 0
    for match in uow.matches.overdue(now, limit):
        if all(uow.players.try_admit(p) for p in match.players):
            _caught_up(uow, match, now)
            resolved += 1
    return resolved


def sweeper_action(
    uow: BattleUnitOfWork, match: Match, seat: str, action: Mapping[str, Any], now: datetime
) -> Match:
    """An action the sweeper takes for ``seat`` of a locked match (the gates passed): a
    live match's end for a disconnected player (services/battle/presence.py). The engine
    resolves an elapsed window first; both players are told."""
    hosted_game = hosted(match.game)
    parsed = host.parse_action(hosted_game, action)
    state, steps = host.play(hosted_game, match.seats, match.state, seat, parsed, now)
    return _commit(uow, match, state, steps, now)[0]
