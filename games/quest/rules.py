"""Which actions are legal: one check, used both to refuse and to list.

``legal_actions`` enumerates every candidate action and keeps those the same
``refusal`` check accepts, so "listed" and "accepted" cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.quest.actions import Action, ActionKind
from games.quest.errors import IllegalAction, RefusalCode
from games.quest.state import SIDES, Creature, MatchState, Phase, Side
from games.quest.vocabulary import (
    Condition,
    HpAtLeastPercent,
    HpAtMostPercent,
    OncePerMatch,
    OpponentHasStatus,
    Status,
    condition_to_dict,
)

SELECTION_PHASES = frozenset({Phase.INITIAL_SELECTION, Phase.MANDATORY_REPLACEMENT})


@dataclass(frozen=True)
class Problem:
    """Why an action is refused; cheap to make (legal_actions makes many), raised by ``check``."""

    code: RefusalCode
    message: str
    details: dict[str, Any] = field(default_factory=dict)


def condition_holds(
    condition: Condition, creature: Creature, move_index: int, opponent: Creature | None
) -> bool:
    """docs/card-catalogue.md, "Condition types" (integer arithmetic, no rounding)."""
    match condition:
        case HpAtMostPercent(percent):
            return creature.hp * 100 <= percent * creature.card.max_hp
        case HpAtLeastPercent(percent):
            return creature.hp * 100 >= percent * creature.card.max_hp
        case OpponentHasStatus(status):
            if opponent is None:
                return False
            statuses = opponent.statuses
            return statuses.poisoned if status is Status.POISONED else statuses.stunned
        case OncePerMatch():
            return move_index not in creature.used_moves


def _in_range(index: int | None, size: int) -> bool:
    return index is not None and 0 <= index < size


def _move_refusal(
    state: MatchState, side: Side, creature: Creature, index: int | None
) -> Problem | None:
    if index is None or not _in_range(index, len(creature.card.moves)):
        return Problem(RefusalCode.UNKNOWN_MOVE, f"{creature.card.name} has no move {index}")
    move = creature.card.moves[index]
    if creature.statuses.stunned:
        return Problem(RefusalCode.STUNNED, f"{creature.card.name} is stunned")
    if move.power_cost > creature.power:
        return Problem(
            RefusalCode.NOT_ENOUGH_POWER,
            f"{move.name} costs {move.power_cost} Power; {creature.card.name} has {creature.power}",
        )
    opponent = state.side(side.other).active_creature
    for condition in move.conditions:
        if not condition_holds(condition, creature, index, opponent):
            kind = condition_to_dict(condition)["type"]
            return Problem(
                RefusalCode.CONDITION_UNMET,
                f"{move.name}: condition {kind} does not hold",
                {"move": index, "condition": kind},
            )
    return None


def _turn_refusal(state: MatchState, side: Side, action: Action) -> Problem | None:
    if state.phase is not Phase.NORMAL_TURN:
        return Problem(RefusalCode.WRONG_PHASE, f"no {action.kind} during {state.phase}")
    if side != state.turn:
        return Problem(RefusalCode.NOT_YOUR_TURN, f"it is {state.turn}'s turn")
    own = state.side(side)
    creature = own.active_creature
    if creature is None or own.active is None:
        return Problem(RefusalCode.NO_ACTIVE_CREATURE, "no active Creature")
    index = action.index
    match action.kind:
        case ActionKind.USE_MOVE:
            return _move_refusal(state, side, creature, index)
        case ActionKind.PLAY_POWER_CARD:
            if index is None or not _in_range(index, len(own.power_cards)):
                return Problem(RefusalCode.UNKNOWN_POWER_CARD, f"no Power card {index}")
            if index in own.discarded:
                return Problem(RefusalCode.POWER_CARD_DISCARDED, "that Power card was played")
        case ActionKind.SWAP:
            if index is None or not _in_range(index, len(own.creatures)):
                return Problem(RefusalCode.UNKNOWN_CREATURE, f"no Creature {index}")
            if index == own.active:
                return Problem(RefusalCode.CREATURE_ALREADY_ACTIVE, "that Creature is active")
            if own.creatures[index].defeated:
                return Problem(RefusalCode.CREATURE_DEFEATED, "a defeated Creature cannot return")
    return None


def refusal(state: MatchState, side: Side, action: Action) -> Problem | None:
    """Why ``action`` is illegal for ``side`` now, or None if it is legal."""
    if state.phase is Phase.FINISHED:
        return Problem(RefusalCode.MATCH_FINISHED, "the match is over")
    if action.kind is ActionKind.FORFEIT:
        return None
    if action.kind is not ActionKind.SELECT_CREATURE:
        return _turn_refusal(state, side, action)
    if state.phase not in SELECTION_PHASES:
        return Problem(RefusalCode.WRONG_PHASE, f"no selection during {state.phase}")
    if side not in state.pending:
        return Problem(RefusalCode.NOTHING_TO_SELECT, f"{side} has no Creature to select")
    own = state.side(side)
    if action.index is None or not _in_range(action.index, len(own.creatures)):
        return Problem(RefusalCode.UNKNOWN_CREATURE, f"no Creature {action.index}")
    if own.creatures[action.index].defeated:
        return Problem(RefusalCode.CREATURE_DEFEATED, "a defeated Creature cannot return")
    return None


def check(state: MatchState, side: Side, action: Action) -> None:
    problem = refusal(state, side, action)
    if problem is not None:
        raise IllegalAction(problem.code, problem.message, problem.details)


def _candidates(state: MatchState, side: Side) -> list[Action]:
    own = state.side(side)
    active = own.active_creature
    moves = len(active.card.moves) if active is not None else 0
    return [
        *(Action.use_move(i) for i in range(moves)),
        *(Action.play_power_card(i) for i in range(len(own.power_cards))),
        *(Action.swap(i) for i in range(len(own.creatures))),
        *(Action.select_creature(i) for i in range(len(own.creatures))),
        Action.timeout(),
        Action.forfeit(),
    ]


def legal_actions(state: MatchState, side: Side) -> list[Action]:
    """Every action ``side`` may take now; [] once the match is over. Never raises.

    Forfeit is listed for both sides in every unfinished phase; timeout (letting
    the turn go) for the side to move in a normal turn.
    """
    if state.phase is Phase.FINISHED or side not in SIDES:
        return []
    side = Side(side)
    return [a for a in _candidates(state, side) if refusal(state, side, a) is None]
