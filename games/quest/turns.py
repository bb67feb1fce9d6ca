"""How turns end and begin: the end-of-turn step, defeat, replacement, victory.

docs/card-catalogue.md "End of a turn" and the rulebook's "Timing, defeat,
and completion". Every normal turn ends through ``end_turn``, whatever ended
it (a move, a Power card, a swap, a timeout), so the end-of-turn step and
the checks that follow are written once. They work on the action's working
form (``working.Step``) and freeze it into the new match once, at the end;
``finish`` and ``start_turn`` also serve the actions outside a normal turn
(a forfeit, a selection), on a frozen state.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Final

from games.quest.copies import evolve
from games.quest.effects import Event
from games.quest.moments import iso
from games.quest.state import SIDES, FinishReason, MatchState, Phase, Side
from games.quest.working import Fighter, Step

_TURN_LENGTHS: dict[int, timedelta] = {}  # turn_seconds -> its timedelta, made once

# Module-level names for enum members (an enum class's attribute lookup is slow).
_PLAYER: Final = Side.PLAYER
_CPU: Final = Side.CPU
_NORMAL_TURN: Final = Phase.NORMAL_TURN


def _turn_length(seconds: int) -> timedelta:
    length = _TURN_LENGTHS.get(seconds)
    if length is None:
        length = _TURN_LENGTHS[seconds] = timedelta(seconds=seconds)
    return length


def _finished(winner: Side, reason: FinishReason) -> tuple[dict[str, Any], Event]:
    """The match fields and the event of a finished match."""
    fields = {
        "phase": Phase.FINISHED,
        "selecting": (),
        "turn": None,
        "deadline": None,
        "winner": winner,
        "finish_reason": reason,
    }
    return fields, {"type": "match_finished", "winner": str(winner), "reason": str(reason)}


def finish(
    state: MatchState, winner: Side, reason: FinishReason, version: int
) -> tuple[MatchState, list[Event]]:
    """The match over (a forfeit): no side has a selection left to make."""
    fields, event = _finished(winner, reason)
    cleared = {str(side): evolve(state.side(side), choice=None) for side in SIDES}
    return evolve(state, **cleared, **fields, version=version), [event]


def _turn_fields(
    side: Side, turn_number: int, turn_seconds: int, now: datetime
) -> tuple[dict[str, Any], Event]:
    """The match fields and the event of ``side``'s normal turn beginning."""
    length = _TURN_LENGTHS.get(turn_seconds) or _turn_length(turn_seconds)
    deadline = now + length
    fields = {
        "phase": _NORMAL_TURN,
        "selecting": (),
        "turn": side,
        "deadline": deadline,
        "turn_number": turn_number,
    }
    event = {
        "type": "turn_started",
        "side": str(side),
        "turn_number": turn_number,
        "deadline": iso(deadline),
    }
    return fields, event


def start_turn(
    state: MatchState, side: Side, now: datetime, **changes: Any
) -> tuple[MatchState, list[Event]]:
    """``side``'s normal turn begins (with ``changes`` to the state made in the same copy)."""
    turn_number = changes.pop("turn_number", state.turn_number)
    fields, event = _turn_fields(side, turn_number, state.turn_seconds, now)
    return evolve(state, **fields, **changes), [event]


def _end_of_turn_step(step: Step, fighter: Fighter) -> bool:
    """Poison first, then every duration counter on this Creature goes down by one.

    Only turns that began after an effect was placed count for it (``since_turn``).
    Whether anything may have changed.
    """
    if fighter.hp == 0:
        return False
    statuses = fighter.statuses
    poison, stun = statuses.poison, statuses.stun
    if poison is None and stun is None and not statuses.modifiers:
        return False  # nothing on it counts down: the step changes nothing
    events = step.events
    turn = step.state.turn_number
    if poison is not None and poison.since_turn < turn:
        lost = min(poison.amount, fighter.hp)
        fighter.hp -= lost
        events.append(fighter.event("poison_damage", amount=lost, hp=fighter.hp))
        if fighter.hp == 0:
            events.append(fighter.event("creature_defeated"))
        poison = evolve(poison, turns=poison.turns - 1) if poison.turns > 1 else None
        if poison is None:
            events.append(fighter.event("effect_ended", effect="poison"))
    if stun is not None and stun.since_turn < turn:
        stun = evolve(stun, turns=stun.turns - 1) if stun.turns > 1 else None
        if stun is None:
            events.append(fighter.event("effect_ended", effect="stun"))
    modifiers = []
    for modifier in statuses.modifiers:
        if modifier.turns is not None and modifier.since_turn < turn:
            if modifier.turns <= 1:
                events.append(fighter.event("effect_ended", effect="damage_modifier"))
                continue
            modifier = evolve(modifier, turns=modifier.turns - 1)
        modifiers.append(modifier)
    fighter.statuses = evolve(statuses, poison=poison, stun=stun, modifiers=tuple(modifiers))
    return True


def _outcome(step: Step) -> Side | None:
    """The winner if a side has no living Creature left; the actor if neither has."""
    player, cpu = step.has_living(_PLAYER), step.has_living(_CPU)
    if player and cpu:
        return None
    if not (player or cpu):
        return step.actor  # docs: the engine produces a winner, never a draw
    return _PLAYER if player else _CPU


def _selection_deadline(state: MatchState, now: datetime) -> datetime | None:
    """A mandatory replacement's window, where selections have one (PvP)."""
    if not state.missed_deadline.windows_selections:
        return None
    return now + _turn_length(state.turn_seconds)


def _finish_step(step: Step, winner: Side, version: int) -> tuple[MatchState, list[Event]]:
    fields, event = _finished(winner, FinishReason.ALL_DEFEATED)
    for side in SIDES:
        if (step.own if side is step.actor else step.theirs).choice is not None:
            step.side_changes[side]["choice"] = None
    step.events.append(event)
    fields["version"] = version
    return step.freeze(fields), step.events


def after_action(step: Step, now: datetime, version: int) -> tuple[MatchState, list[Event]]:
    """After a move or Power card resolved: a finished match skips the end-of-turn step.

    Only the two active Creatures changed, and both were living when the action began
    (a normal turn has no defeated active Creature): unless one is defeated now, there
    is nothing to clear and no winner.
    """
    if (step.me.hp == 0 or step.them.hp == 0) and step.clear_defeated():
        winner = _outcome(step)
        if winner is not None:
            return _finish_step(step, winner, version)
    return end_turn(step, now, version, settled=True)


def end_turn(
    step: Step,
    now: datetime,
    version: int,
    incoming: int | None = None,
    settled: bool = False,
) -> tuple[MatchState, list[Event]]:
    """End the actor's turn, owned by its active Creature; ``incoming`` swaps in after.

    ``settled``: the caller has just cleared the defeated and found no winner, so
    unless the end-of-turn step changes something that is not redone.
    """
    actor, me, events = step.actor, step.me, step.events
    statuses = me.statuses
    # The end-of-turn step only if something on the Creature counts down (or it is
    # defeated: then nothing does).
    changed = (
        statuses.poison is not None or statuses.stun is not None or bool(statuses.modifiers)
    ) and _end_of_turn_step(step, me)
    if incoming is not None:
        # Rulebook: the outgoing Creature's end-of-turn effects resolve first.
        step.side_changes[actor]["active"] = incoming
        creatures = step.own.creatures
        events.append(
            {
                "type": "swapped_in",
                "side": me.side,
                "creature": incoming,
                "name": creatures[incoming].card.name,
                "out": me.index,
            }
        )
    if changed or not settled:
        step.clear_defeated()
        winner = _outcome(step)
        if winner is not None:
            return _finish_step(step, winner, version)
    state = step.state
    events.append({"type": "turn_ended", "side": me.side, "turn_number": state.turn_number})
    # A side needs a replacement if its active Creature is defeated (a swapped-in one
    # is living).
    me_down = me.hp == 0 and incoming is None
    them_down = step.them.hp == 0
    following = step.opponent
    if not (me_down or them_down):
        # ``_turn_fields`` inline (the common end of an action).
        turn_number = state.turn_number + 1
        deadline = now + (_TURN_LENGTHS.get(state.turn_seconds) or _turn_length(state.turn_seconds))
        events.append(
            {
                "type": "turn_started",
                "side": step.them.side,
                "turn_number": turn_number,
                "deadline": iso(deadline),
            }
        )
        fields = {
            "phase": _NORMAL_TURN,
            "selecting": (),
            "turn": following,
            "deadline": deadline,
            "turn_number": turn_number,
            "version": version,
        }
        return step.freeze(fields), events
    down = {actor: me_down, following: them_down}
    needing = tuple(side for side in SIDES if down[side])
    for side in needing:
        step.side_changes[side]["active"] = None
    events.append({"type": "replacement_required", "sides": [str(s) for s in needing]})
    new = step.freeze(
        {
            "turn_number": state.turn_number + 1,
            "phase": Phase.MANDATORY_REPLACEMENT,
            "selecting": needing,
            "turn": following,  # the turn order continues as it would have
            "deadline": _selection_deadline(state, now),
            "version": version,
        }
    )
    return new, events
