"""How turns end and begin: the end-of-turn step, defeat, replacement, victory.

docs/card-catalogue.md "End of a turn" and the rulebook's "Timing, defeat,
and completion". Every normal turn ends through ``end_turn``, whatever ended
it (a move, a Power card, a swap, a timeout), so the end-of-turn step and
the checks that follow are written once.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from games.kit.frozen import evolve
from games.quest.effects import Event, creature_event
from games.quest.state import SIDES, FinishReason, MatchState, Phase, Side
from games.quest.statuses import Statuses

_NO_STATUSES = Statuses()


def clear_defeated(state: MatchState) -> MatchState:
    """A defeated Creature's effects end with it (docs, "Terms")."""
    for side in SIDES:
        for index, creature in enumerate(state.side(side).creatures):
            statuses = creature.statuses
            if creature.hp == 0 and statuses is not _NO_STATUSES and statuses != _NO_STATUSES:
                state = state.with_creature(side, index, evolve(creature, statuses=_NO_STATUSES))
    return state


def _any_living(state: MatchState, side: Side) -> bool:
    return any(c.hp > 0 for c in state.side(side).creatures)


def outcome(state: MatchState, actor: Side) -> Side | None:
    """The winner if a side has no living Creature left; the actor if neither has."""
    player, cpu = _any_living(state, Side.PLAYER), _any_living(state, Side.CPU)
    if player and cpu:
        return None
    if not (player or cpu):
        return actor  # docs: the engine produces a winner, never a draw
    return Side.PLAYER if player else Side.CPU


def finish(state: MatchState, winner: Side, reason: FinishReason) -> tuple[MatchState, list[Event]]:
    cleared = {side: evolve(state.side(side), choice=None) for side in SIDES}
    state = evolve(
        state,
        player=cleared[Side.PLAYER],
        cpu=cleared[Side.CPU],
        phase=Phase.FINISHED,
        selecting=(),
        turn=None,
        deadline=None,
        winner=winner,
        finish_reason=reason,
    )
    return state, [{"type": "match_finished", "winner": str(winner), "reason": str(reason)}]


def start_turn(
    state: MatchState, side: Side, now: datetime, **changes: object
) -> tuple[MatchState, list[Event]]:
    """``side``'s normal turn begins (with ``changes`` to the state made in the same copy)."""
    deadline = now + timedelta(seconds=state.turn_seconds)
    state = evolve(
        state, phase=Phase.NORMAL_TURN, selecting=(), turn=side, deadline=deadline, **changes
    )
    event = {
        "type": "turn_started",
        "side": str(side),
        "turn_number": state.turn_number,
        "deadline": deadline.isoformat(),
    }
    return state, [event]


def _end_of_turn_step(state: MatchState, side: Side, index: int) -> tuple[MatchState, list[Event]]:
    """Poison first, then every duration counter on this Creature goes down by one.

    Only turns that began after an effect was placed count for it (``since_turn``).
    """
    creature = state.side(side).creatures[index]
    if creature.defeated:
        return state, []
    statuses = creature.statuses
    if statuses.poison is None and statuses.stun is None and not statuses.modifiers:
        return state, []  # nothing on it counts down: the step changes nothing
    events: list[Event] = []
    turn = state.turn_number
    statuses = creature.statuses
    hp = creature.hp
    poison, stun = statuses.poison, statuses.stun
    if poison is not None and poison.since_turn < turn:
        lost = min(poison.amount, hp)
        hp -= lost
        events.append(creature_event("poison_damage", side, index, creature, amount=lost, hp=hp))
        if hp == 0:
            events.append(creature_event("creature_defeated", side, index, creature))
        poison = evolve(poison, turns=poison.turns - 1) if poison.turns > 1 else None
        if poison is None:
            events.append(creature_event("effect_ended", side, index, creature, effect="poison"))
    if stun is not None and stun.since_turn < turn:
        stun = evolve(stun, turns=stun.turns - 1) if stun.turns > 1 else None
        if stun is None:
            events.append(creature_event("effect_ended", side, index, creature, effect="stun"))
    modifiers = []
    for modifier in statuses.modifiers:
        if modifier.turns is not None and modifier.since_turn < turn:
            if modifier.turns <= 1:
                events.append(
                    creature_event("effect_ended", side, index, creature, effect="damage_modifier")
                )
                continue
            modifier = evolve(modifier, turns=modifier.turns - 1)
        modifiers.append(modifier)
    statuses = evolve(statuses, poison=poison, stun=stun, modifiers=tuple(modifiers))
    return state.with_creature(side, index, evolve(creature, hp=hp, statuses=statuses)), events


def _anyone_defeated(state: MatchState) -> bool:
    return any(c.hp == 0 for c in state.player.creatures) or any(
        c.hp == 0 for c in state.cpu.creatures
    )


def after_action(state: MatchState, actor: Side, now: datetime) -> tuple[MatchState, list[Event]]:
    """After a move or Power card resolved: a finished match skips the end-of-turn step."""
    if _anyone_defeated(state):  # else nothing to clear and no winner
        state = clear_defeated(state)
        winner = outcome(state, actor)
        if winner is not None:
            return finish(state, winner, FinishReason.ALL_DEFEATED)
    own = state.side(actor).active
    assert own is not None  # a normal turn always has the mover's active Creature
    return end_turn(state, actor, own, now, settled=True)


def end_turn(
    state: MatchState,
    actor: Side,
    own: int,
    now: datetime,
    incoming: int | None = None,
    settled: bool = False,
) -> tuple[MatchState, list[Event]]:
    """End ``actor``'s turn, owned by its Creature ``own``; ``incoming`` swaps in after.

    ``settled``: the caller has just cleared the defeated and found no winner in
    ``state``, so unless the end-of-turn step changes something that is not redone.
    """
    before = state
    state, events = _end_of_turn_step(state, actor, own)
    if incoming is not None:
        # Rulebook: the outgoing Creature's end-of-turn effects resolve first.
        state = state.with_side(actor, evolve(state.side(actor), active=incoming))
        incoming_creature = state.side(actor).creatures[incoming]
        events.append(creature_event("swapped_in", actor, incoming, incoming_creature, out=own))
    if not (settled and state is before):  # settled: after_action checked this very state
        state = clear_defeated(state)
        winner = outcome(state, actor)
        if winner is not None:
            state, finished = finish(state, winner, FinishReason.ALL_DEFEATED)
            return state, events + finished
    events.append({"type": "turn_ended", "side": str(actor), "turn_number": state.turn_number})
    needing = tuple(side for side in SIDES if _active_defeated(state, side))
    if not needing:
        state, started = start_turn(state, actor.other, now, turn_number=state.turn_number + 1)
        return state, events + started
    state = evolve(state, turn_number=state.turn_number + 1)
    for side in needing:
        state = state.with_side(side, evolve(state.side(side), active=None))
    state = evolve(
        state,
        phase=Phase.MANDATORY_REPLACEMENT,
        selecting=needing,
        turn=actor.other,  # the turn order continues as it would have
        deadline=None,
    )
    events.append({"type": "replacement_required", "sides": [str(s) for s in needing]})
    return state, events


def _active_defeated(state: MatchState, side: Side) -> bool:
    own = state.side(side)
    return own.active is not None and own.creatures[own.active].hp == 0
