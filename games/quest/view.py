"""What one side may see of a match: the only thing the API serialises.

A side sees its own cards in full (including a selection it has made but
not yet revealed). Of the opponent it sees the active Creature with its
statuses, how many Creatures and Power cards it has left, and the Power
cards it has already played; not its hand, its bench, a selection not yet
revealed, nor the random state. ``view_events`` hides the same things in
an event list.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.quest.effects import Event
from games.quest.rules import legal_actions
from games.quest.state import SIDES, Creature, MatchState, MissedDeadline, Phase, Side, SideState


def _creature(creature: Creature, index: int | None) -> dict[str, Any]:
    view = creature.to_dict()
    if index is not None:
        view["index"] = index
    return view


def _own(state: MatchState, side: Side) -> dict[str, Any]:
    own = state.side(side)
    return {
        "active": own.active,
        "choice": own.choice,
        "must_select": side in state.pending,
        "creatures": [_creature(c, i) for i, c in enumerate(own.creatures)],
        "power_cards": [
            {**card.to_dict(), "index": i, "discarded": i in own.discarded}
            for i, card in enumerate(own.power_cards)
        ],
    }


def _opponent(state: MatchState, side: Side) -> dict[str, Any]:
    theirs: SideState = state.side(side)
    active = theirs.active_creature
    return {
        "active": None if active is None else _creature(active, None),
        "must_select": side in state.pending,
        "has_chosen": side in state.selecting and theirs.choice is not None,
        "creatures_left": len(theirs.living),
        "creatures_defeated": len(theirs.creatures) - len(theirs.living),
        "power_cards_in_hand": len(theirs.hand),
        "played_power_cards": [theirs.power_cards[i].to_dict() for i in theirs.discarded],
    }


def _live_counts(state: MatchState, side: Side) -> dict[str, Any]:
    """Live PvP only (other views, and the recorded golden games, stay as they were): the
    windows each side missed in a row (three forfeit)."""
    if state.missed_deadline is not MissedDeadline.LIVE:
        return {}
    counts = state.timeouts_in_row
    return {
        "timeouts_in_row": {
            "you": counts[SIDES.index(side)],
            "opponent": counts[SIDES.index(side.other)],
        }
    }


def view(state: MatchState, side: Side) -> dict[str, Any]:
    """A JSON-friendly dict for ``side``: its own cards fully, the opponent's public face."""
    side = Side(side)
    return {
        "side": str(side),
        "phase": str(state.phase),
        "turn": None if state.turn is None else str(state.turn),
        "your_turn": state.turn == side and state.phase is Phase.NORMAL_TURN,
        "turn_number": state.turn_number,
        "deadline": None if state.deadline is None else state.deadline.isoformat(),
        "winner": None if state.winner is None else str(state.winner),
        "finish_reason": None if state.finish_reason is None else str(state.finish_reason),
        **_live_counts(state, side),
        "version": state.version,
        "affinity_rules_version": state.affinity_rules_version,
        "you": _own(state, side),
        "opponent": _opponent(state, side.other),
        "legal_actions": [a.to_dict() for a in legal_actions(state, side)],
    }


def view_events(events: Iterable[Event], side: Side) -> list[Event]:
    """The events as ``side`` may see them: the opponent's unrevealed choice loses its name."""
    shown = []
    for event in events:
        if event.get("type") == "creature_chosen" and event.get("side") != str(side):
            event = {"type": "creature_chosen", "side": event["side"], "phase": event["phase"]}
        shown.append(dict(event))
    return shown
