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
from typing import Final

from games.kit.moments import iso
from games.quest.effects import Event
from games.quest.state import SIDES, FinishReason, MatchState, Phase, Side
from games.quest.statuses import ActiveModifier, ActivePoison, ActiveStun, Statuses
from games.quest.working import Fighter, Step

_TURN_LENGTHS: dict[int, timedelta] = {}  # turn_seconds -> its timedelta, made once

# Module-level names for enum members (an enum class's attribute lookup is slow).
_PLAYER: Final = Side.PLAYER
_CPU: Final = Side.CPU
_NORMAL_TURN: Final = Phase.NORMAL_TURN
_FINISHED: Final = Phase.FINISHED
_MANDATORY_REPLACEMENT: Final = Phase.MANDATORY_REPLACEMENT


def _turn_length(seconds: int) -> timedelta:
    length = _TURN_LENGTHS.get(seconds)
    if length is None:
        length = _TURN_LENGTHS[seconds] = timedelta(seconds=seconds)
    return length


def _finished(winner: Side, reason: FinishReason) -> Event:
    """The event of a finished match."""
    return {"type": "match_finished", "winner": str(winner), "reason": str(reason)}


def finish(
    state: MatchState, winner: Side, reason: FinishReason, version: int
) -> tuple[MatchState, list[Event]]:
    """The match over (a forfeit): no side has a selection left to make."""
    player, cpu = state.player, state.cpu
    finished = state.turned(
        player.with_choice(player.active, None),
        cpu.with_choice(cpu.active, None),
        _FINISHED,
        (),
        None,
        state.turn_number,
        None,
        winner,
        reason,
        version,
    )
    return finished, [_finished(winner, reason)]


def start_turn(state: MatchState, side: Side, now: datetime) -> tuple[MatchState, list[Event]]:
    """``side``'s normal turn begins (after the selections: the sides as they are)."""
    turn_number = state.turn_number
    deadline = now + (_TURN_LENGTHS.get(state.turn_seconds) or _turn_length(state.turn_seconds))
    event: Event = {
        "type": "turn_started",
        "side": str(side),
        "turn_number": turn_number,
        "deadline": iso(deadline),
    }
    started = state.turned(
        state.player,
        state.cpu,
        _NORMAL_TURN,
        (),
        side,
        turn_number,
        deadline,
        state.winner,
        state.finish_reason,
        state.version,
    )
    return started, [event]


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
        turns = poison.turns
        poison = ActivePoison(poison.amount, turns - 1, poison.since_turn) if turns > 1 else None
        if poison is None:
            events.append(fighter.event("effect_ended", effect="poison"))
    if stun is not None and stun.since_turn < turn:
        turns = stun.turns
        stun = ActiveStun(turns - 1, stun.since_turn) if turns > 1 else None
        if stun is None:
            events.append(fighter.event("effect_ended", effect="stun"))
    modifiers = []
    for modifier in statuses.modifiers:
        left = modifier.turns
        if left is not None and modifier.since_turn < turn:
            if left <= 1:
                events.append(fighter.event("effect_ended", effect="damage_modifier"))
                continue
            modifier = ActiveModifier(
                modifier.applies_to,
                modifier.multiplier,
                left - 1,
                modifier.charges,
                modifier.since_turn,
            )
        modifiers.append(modifier)
    fighter.statuses = Statuses(tuple(modifiers), poison, stun, statuses.dodge, statuses.reflect)
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
    reason = FinishReason.ALL_DEFEATED
    for side in SIDES:
        if (step.own if side is step.actor else step.theirs).choice is not None:
            step.side_changes[side]["choice"] = None
    step.events.append(_finished(winner, reason))
    state = step.state
    new = step.freeze(_FINISHED, (), None, state.turn_number, None, version, winner, reason)
    return new, step.events


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
        # The next turn begins (the common end of an action; as ``start_turn``).
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
        return step.freeze(_NORMAL_TURN, (), following, turn_number, deadline, version), events
    down = {actor: me_down, following: them_down}
    needing = tuple(side for side in SIDES if down[side])
    for side in needing:
        step.side_changes[side]["active"] = None
    events.append({"type": "replacement_required", "sides": [str(s) for s in needing]})
    new = step.freeze(
        _MANDATORY_REPLACEMENT,
        needing,
        following,  # the turn order continues as it would have
        state.turn_number + 1,
        _selection_deadline(state, now),
        version,
    )
    return new, events
