"""Lock-in legality (rulebook, "Lock in"): what a seat may do now, and the refusals.

Before locking in, a seat may place a card from its hand into an empty slot, move a
slotted card to another slot (ours: onto an occupied slot the two swap), or take it
back to the hand; it may lock in with empty slots. After locking in its row is fixed.
Leaving is always possible until the match is over. Placing, moving and taking back
end with the choosing step's deadline (exactly at it counts as too late); locking in
does not (it is what the deadline does).
"""

from __future__ import annotations

from datetime import datetime

from games.chronovore.actions import Action, ActionKind
from games.chronovore.state import MatchState, Phase
from games.kit.refusal import Refusal


def overdue(state: MatchState, now: datetime) -> bool:
    return state.phase is Phase.CHOOSING and state.deadline is not None and now >= state.deadline


def _slot(state: MatchState, value: int | None, name: str = "slot") -> int:
    if value is None or not 0 <= value < state.settings.slots:
        raise Refusal("unknown_slot", f"{name} is a slot from 0 to {state.settings.slots - 1}")
    return value


def check(state: MatchState, seat: str, action: Action, now: datetime) -> None:
    """Raise a Refusal if ``seat`` may not take ``action`` now; return otherwise."""
    if seat not in state.seats:
        raise Refusal("not_a_seat", f"{seat!r} has no seat in this match")
    if state.phase is Phase.FINISHED:
        raise Refusal("match_finished", "the match is over")
    if action.kind is ActionKind.FORFEIT:
        return
    side = state.side(seat)
    if side.locked:
        raise Refusal("already_locked", "you are locked in for this round")
    if action.kind is ActionKind.LOCK:
        return
    if overdue(state, now):
        raise Refusal("choosing_time_over", "the choosing step is over; you are being locked in")
    if action.kind is ActionKind.PLACE:
        slot = _slot(state, action.slot)
        if all(item.uid != action.card for item in side.hand):
            raise Refusal("card_not_in_hand", f"card {action.card} is not in your hand")
        if side.slots[slot] is not None:
            raise Refusal("slot_taken", f"slot {slot} already holds a card")
        return
    slot = _slot(state, action.slot)
    if side.slots[slot] is None:
        raise Refusal("slot_empty", f"slot {slot} holds no card")
    if action.kind is ActionKind.MOVE and _slot(state, action.to, "to") == slot:
        raise Refusal("same_slot", "the card is already in that slot")


def legal_actions(state: MatchState, seat: str) -> list[Action]:
    """Every action ``seat`` may take now (the deadline aside); never raises."""
    if state.phase is Phase.FINISHED or seat not in state.seats:
        return []
    side = state.side(seat)
    if side.locked:
        return [Action.forfeit()]
    actions: list[Action] = []
    empty = [n for n, item in enumerate(side.slots) if item is None]
    full = [n for n, item in enumerate(side.slots) if item is not None]
    for item in side.hand:
        actions += [Action.place(item.uid, n) for n in empty]
    for n in full:
        actions.append(Action.take_back(n))
        actions += [Action.move(n, to) for to in range(state.settings.slots) if to != n]
    actions += [Action.lock(), Action.forfeit()]
    return actions
