"""Why the TerraKard arena offers no target, and when that changes (ours; docs/api.md,
"The TerraKard arena"): an empty offer is answered with a stable ``reason``, a sentence
and, when the rules fix it, the moment it changes (``until``). The rules are the
arena's (games/terrakard/arena.py); nothing here reads the database.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from games.terrakard.arena import ARENA, ArenaRules
from services.battle.terrakard_store import Nearby


def _hours(span: timedelta) -> int:
    return int(span.total_seconds() // 3600)


def why_empty(
    tutorial_finished: bool,
    nearby: Nearby | None,
    level_gap: int,
    repeat_hours: int,
    rules: ArenaRules = ARENA,
) -> dict[str, Any]:
    """``{"reason", "message", "until"}`` for an empty offer (``nearby``: the other
    players near the level, None before the tutorial). The first reason that holds, in
    the order a player can act on: the tutorial, no one near, protections (with the
    first one's end), the player's own recent attacks, inactivity, busy defenders."""
    if not tutorial_finished or nearby is None:
        return _reason(
            "tutorial_not_finished",
            "Finish the tutorial first: then players near your level are offered here.",
        )
    if nearby.players == 0:
        return _reason(
            "no_players_near",
            f"No other player within {level_gap} levels of yours has finished the tutorial"
            " yet; they appear here once they do.",
        )
    if nearby.protected:
        return _reason(
            "players_protected",
            f"The players near your level are protected: new players for their first"
            f" {_hours(rules.new_player_protection)} hours, others for"
            f" {_hours(rules.shield)} hours after a heavy defeat in defense.",
            nearby.protected_until,
        )
    if nearby.attacked_recently:
        return _reason(
            "attacked_recently",
            f"You attacked the players near your level in the last {repeat_hours} hours;"
            f" each can be attacked again {repeat_hours} hours after your attack.",
        )
    if nearby.inactive:
        return _reason(
            "players_inactive",
            f"The players near your level have not played for {rules.inactive_after.days}"
            " days; they are offered again as soon as they play.",
        )
    return _reason(
        "players_busy",
        "The players near your level are defending other attacks right now; try again in"
        " a few minutes.",
    )


def _reason(code: str, message: str, until: datetime | None = None) -> dict[str, Any]:
    return {
        "reason": code,
        "message": message,
        "until": None if until is None else until.isoformat(),
    }
