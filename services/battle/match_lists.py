"""A player's own matches against the computer, newest first, a page at a time
(docs/quest-battles.md and docs/chronovore.md, "Your matches"; docs/api.md, "Lists").

A line says whom, how and when, never what was hidden: no hand, no card, no seed. Its
result keeps the word of the game's match view (Quest's ``outcome``, Chronovore's
``result``), so a line and the match it opens read alike.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from services.battle.games import chronovore, quest
from services.battle.host import Match
from services.battle.repository import BattleUnitOfWork
from shared import pages
from shared.errors import InvalidInput

UnitOfWorkFactory = Callable[[], AbstractContextManager[BattleUnitOfWork]]
CPU_MODES = ("cpu",)  # the modes these lists show: a match against the computer
RESULT_WORD = {quest.GAME: "outcome", chronovore.GAME: "result"}


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def summary(match: Match, player_id: uuid.UUID) -> dict[str, Any]:
    """One line of the player's list: the match's public fields and the player's result."""
    seat = match.seat_of(player_id)
    assert seat is not None  # listed because the player sits in it
    opponent = next(s for s in match.seats if s.name != seat.name)
    return {
        "id": str(match.id),
        "mode": match.mode,
        "deck_id": None if seat.ref_id is None else str(seat.ref_id),
        "opponent": str(opponent.kind),  # "cpu": these lists hold no other player
        "status": str(match.status),
        RESULT_WORD[match.game]: seat.result,
        "created_at": _time(match.created_at),
        "finished_at": _time(match.finished_at),
    }


def cpu_matches(
    player_id: uuid.UUID,
    game: str,
    cursor: str | None,
    limit: int,
    unit_of_work: UnitOfWorkFactory,
) -> dict[str, Any]:
    """The player's CPU matches of ``game``: ``{"items", "next"}``, ``next`` the cursor of
    the following page or None."""
    if game not in RESULT_WORD:
        raise InvalidInput("unknown_game", f"{game} has no CPU match list")
    limit = max(1, min(pages.MAX_PAGE, limit))
    before = pages.position(cursor)
    with unit_of_work() as uow:
        found = uow.matches.played_by(player_id, game, before, limit + 1, modes=CPU_MODES)
    return pages.page(found, limit, lambda m: (m.created_at, m.id), lambda m: summary(m, player_id))
