"""What one seat may see of a match: the only thing a host serialises.

A seat sees its own hero, hand, row and deck size. Of the opponent it sees the hero
(public), how many cards are in hand and deck, whether it has locked in and, once it
has, which of its slots hold a card (face down), and the cards of every pair already
resolved. Never a card in the opponent's hand or deck, a card it drew, nor a slotted
card before its pair resolves (a pair left unresolved when a hero fell stays hidden).
``view_events`` takes the same cards out of an event list.

Before the opponent locks, nothing of its row: not its hand count going down as it
places, not its place, move and take-back events, not a version that moves on them
(``MatchState.seen_version``). A seat's view is the same before and after each of the
other seat's hidden actions (tests/unit/games/test_conformance.py holds it).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.chronovore.resolve import PRIVATE_CARD_EVENTS, Event
from games.chronovore.state import InPlay, MatchState, SeatState

# The events of a seat arranging its row (engine.HIDDEN_KINDS): never another seat's.
ROW_EVENTS = frozenset({"card_placed", "card_moved", "card_taken_back"})


def _card(item: InPlay | None) -> dict[str, Any] | None:
    return None if item is None else item.to_dict()


def _hand_count(side: SeatState) -> int:
    """The other seat's hand as this seat may count it: before it locks, the cards it has
    slotted still count as in hand (all slotted this round: the rows empty at its start)."""
    if side.locked:
        return len(side.hand)
    return len(side.hand) + sum(1 for item in side.slots if item is not None)


def view(state: MatchState, seat: str) -> dict[str, Any]:
    own = state.side(seat)
    other_seat = state.seats[1 - state.index(seat)]
    other = state.side(other_seat)
    results = None if state.results is None else dict(zip(state.seats, state.results, strict=True))
    return {
        "seat": seat,
        "round": state.round,
        "rounds": state.settings.rounds,
        "phase": state.phase.value,
        "deadline": None if state.deadline is None else state.deadline.isoformat(),
        "version": state.seen_version(seat),
        "you": {
            "hero": own.hero.to_dict(),
            "hand": [item.to_dict() for item in own.hand],
            "slots": [_card(item) for item in own.slots],
            "locked": own.locked,
            "deck_count": len(own.deck),
            "discard_count": len(own.discard),
            "waiting_interference": own.interference.to_dict(),
        },
        "opponent": {
            "seat": other_seat,
            "hero": other.hero.to_dict(),
            "hand_count": _hand_count(other),
            "deck_count": len(other.deck),
            "discard_count": len(other.discard),
            "locked": other.locked,
            "slots": [
                ("face_down" if item is not None else None) if other.locked else None
                for item in other.slots
            ],
            "waiting_interference": other.interference.to_dict(),
        },
        "revealed": [
            {
                "slot": slot,
                "cards": {s: _card(item) for s, item in zip(state.seats, pair, strict=True)},
            }
            for slot, pair in enumerate(state.revealed)
        ],
        "results": results,
        "finish_reason": None if state.finish_reason is None else state.finish_reason.value,
    }


def view_events(events: Iterable[Event], seat: str) -> list[Event]:
    """The events as ``seat`` may see them: another seat's private cards taken out."""
    seen = []
    for event in events:
        if event.get("type") in ROW_EVENTS and event.get("seat") != seat:
            continue  # another seat arranging its row before it locks: nothing of it
        if event.get("type") in PRIVATE_CARD_EVENTS and event.get("seat") != seat:
            event = {k: v for k, v in event.items() if k not in ("uid", "card")}
        seen.append(event)
    return seen
