"""What a player may see of their match: the engine's player view, never the state.

No seed, no random state, no CPU hand or bench, no CPU selection before it is
revealed. Plain JSON values (times as ISO 8601 strings), ready for RPC.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from games.quest import ActionKind, Side, view, view_events
from services.battle.domain import MODE, Match, Step


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def player_view(match: Match) -> dict[str, Any]:
    """The engine's view for the player, with the match's own fields."""
    return {
        **view(match.state, Side.PLAYER),
        "id": str(match.id),
        "mode": MODE,
        "deck_id": str(match.deck_id),
        "status": str(match.status),
        "outcome": None if match.outcome is None else str(match.outcome),
        "version": match.version,
        "deadline": _time(match.deadline),
        "created_at": _time(match.created_at),
        "updated_at": _time(match.updated_at),
        "finished_at": _time(match.finished_at),
    }


def result_view(match: Match, steps: Sequence[Step]) -> dict[str, Any]:
    """The answer to an action: the match now, and what happened as the player may see it."""
    events = [event for step in steps for event in step.events]
    return {**player_view(match), "events": view_events(events, Side.PLAYER)}


def history_view(match: Match, steps: Sequence[Step]) -> dict[str, Any]:
    """The action log as the player may see it.

    A CPU selection stays without its index until a later (or the same) step reveals
    it (``creatures_revealed``); the CPU's unrevealed choice is hidden in its events too.
    """
    entries: list[dict[str, Any]] = []
    revealed = False
    for step in reversed(steps):
        revealed = revealed or any(e.get("type") == "creatures_revealed" for e in step.events)
        action = step.action.to_dict()
        hidden = step.side is Side.CPU and step.action.kind is ActionKind.SELECT_CREATURE
        if hidden and not revealed:
            action = {"kind": str(ActionKind.SELECT_CREATURE)}
        entries.append(
            {
                "seq": step.version,
                "side": str(step.side),
                "action": action,
                "at": _time(step.at),
                "events": view_events(step.events, Side.PLAYER),
            }
        )
    entries.reverse()
    return {
        "match_id": str(match.id),
        "status": str(match.status),
        "outcome": None if match.outcome is None else str(match.outcome),
        "version": match.version,
        "entries": entries,
    }
