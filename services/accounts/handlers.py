"""Accounts use cases: plain functions over a unit of work."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass

from services.accounts import domain
from services.accounts.domain import Player, Progression, ProgressionEntry
from services.accounts.repository import (
    AccountsUnitOfWork,
    PlayerRepository,
    ProgressionRepository,
    ProgressionUnitOfWork,
)
from shared.clock import Clock
from shared.db import run_unit_of_work
from shared.errors import Forbidden, NotFound
from shared.events import Event

log = logging.getLogger(__name__)

# Names under which the inbox records each applied message (processed_messages).
ATTEMPT_COMPLETED_CONSUMER = "accounts.attempt_points"
MATCH_FINISHED_CONSUMER = "accounts.match_points"


@dataclass(frozen=True)
class GetOrRegisterPlayer:
    """The player behind an authenticated subject, registered on first sight."""

    sub: str


def get_or_register_player(
    cmd: GetOrRegisterPlayer,
    uow: AccountsUnitOfWork,
    clock: Clock,
    new_id: Callable[[], uuid.UUID] = uuid.uuid4,
) -> tuple[Player, bool]:
    """Return the player and whether this call registered it.

    Concurrent first calls for one subject race on the unique subject: exactly
    one insert wins and writes ``PlayerRegistered``; the others read its row. A
    subject whose account was deleted less than 30 days ago is refused, not
    registered again (an old token of it may still be valid).
    """
    sub = domain.validate_subject(cmd.sub)
    existing = uow.players.by_subject(sub)
    if existing is not None:
        return existing, False
    now = clock.now()
    if uow.deleted_identities is not None and uow.deleted_identities.is_deleted(sub, now):
        raise Forbidden(
            "account_deleted",
            "this account was deleted; its identity cannot be used again for 30 days",
        )
    player, event = domain.register(sub, new_id(), now)
    if uow.players.add_if_new(player):
        uow.events.add_event(event)
        return player, True
    winner = uow.players.by_subject(sub)
    assert winner is not None, "the conflicting insert has committed"
    return winner, False


def me(
    cmd: GetOrRegisterPlayer,
    reader: Callable[[], AbstractContextManager[PlayerRepository]],
    unit_of_work: Callable[[], AbstractContextManager[AccountsUnitOfWork]],
    clock: Clock,
) -> tuple[Player, bool]:
    """The hot path of every request: a known player costs one read, outside
    any transaction; only a first sighting opens one to register."""
    sub = domain.validate_subject(cmd.sub)
    with reader() as players:
        existing = players.by_subject(sub)
    if existing is not None:
        return existing, False
    return run_unit_of_work(unit_of_work, lambda uow: get_or_register_player(cmd, uow, clock))


# -- progression points ------------------------------------------------------------------


@dataclass(frozen=True)
class GetProgression:
    player_id: uuid.UUID
    limit: int = domain.DEFAULT_HISTORY_LIMIT


def record_attempt_points(event: Event, uow: ProgressionUnitOfWork) -> bool:
    """Add a completed attempt's points (10 per correct answer), once per attempt.

    Returns True when this call added the entry; False for a message already
    applied, an attempt already counted (by another message), or an unknown player.
    """
    if not uow.inbox.first_delivery(event.event_id, ATTEMPT_COMPLETED_CONSUMER):
        return False
    data = event.data
    entry = domain.attempt_entry(
        data["player_id"],
        data["attempt_id"],
        data["correct_count"],
        data["completed_at"],
        data["game"],
    )
    return _record(entry, event, uow)


# The matches that earn points: Quest CPU battles (rules/quest.txt, "Progression points";
# the table is games/quest/points.py). Other games' points are not in a rulebook yet.
POINTS_MATCHES = {("quest", "cpu")}


def record_match_points(event: Event, uow: ProgressionUnitOfWork) -> bool:
    """Add a finished match's points to each player seated in it, once per match (Quest
    CPU: 25 for a victory, 0 otherwise). MatchFinished v1 arrives in v2's shape.

    Returns True when this call added an entry; False for a message already applied,
    a match that earns no points, or entries that were already counted.
    """
    if not uow.inbox.first_delivery(event.event_id, MATCH_FINISHED_CONSUMER):
        return False
    data = event.data
    if (data["game"], data["mode"]) not in POINTS_MATCHES:
        log.info("%s %s: a %s %s match earns no points", event.type, event.event_id,
                 data["game"], data["mode"])  # fmt: skip
        return False
    added = False
    for seat in data["seats"]:
        if seat["kind"] != "player" or seat["player_id"] is None:
            continue
        entry = domain.cpu_match_entry(
            seat["player_id"], data["match_id"], seat["result"], data["finished_at"]
        )
        added = _record(entry, event, uow) or added
    return added


def _record(entry: ProgressionEntry, event: Event, uow: ProgressionUnitOfWork) -> bool:
    """The entry and the player's total change together, in the caller's transaction."""
    if not uow.progression.player_exists(entry.player_id):
        # A deleted (or never known) player: nothing to credit. The message stays
        # recorded as processed, so it is not retried.
        log.warning("ignoring %s %s: no player %s", event.type, event.event_id, entry.player_id)
        return False
    if not uow.progression.add_entry(entry, uow.clock.now()):
        log.info(
            "%s %s: %s %s already counted",
            event.type,
            event.event_id,
            entry.source_type.value,
            entry.source_id,
        )
        return False
    if entry.points:
        uow.progression.add_points(entry.player_id, entry.points)
    return True


def get_progression(cmd: GetProgression, progression: ProgressionRepository) -> Progression:
    found = progression.progression(cmd.player_id, cmd.limit)
    if found is None:
        raise NotFound("player_not_found", "there is no such player")
    return found
