"""Accounts use cases: plain functions over a unit of work."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass

from services.accounts import domain
from services.accounts.domain import Player
from services.accounts.repository import AccountsUnitOfWork, PlayerRepository
from shared.clock import Clock


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
    one insert wins and writes ``PlayerRegistered``; the others read its row.
    """
    sub = domain.validate_subject(cmd.sub)
    existing = uow.players.by_subject(sub)
    if existing is not None:
        return existing, False
    player, event = domain.register(sub, new_id(), clock.now())
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
    with unit_of_work() as uow:
        return get_or_register_player(cmd, uow, clock)
