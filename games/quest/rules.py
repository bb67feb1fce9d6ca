"""Which actions are legal: one check, used both to refuse and to list.

``legal_actions`` enumerates every candidate action and keeps those the same
``refusal`` check accepts, so "listed" and "accepted" cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from games.kit.frozen import plain
from games.quest.actions import Action, ActionKind
from games.quest.errors import IllegalAction, RefusalCode
from games.quest.state import (
    SIDES,
    Creature,
    MatchState,
    MissedDeadline,
    Phase,
    Side,
    SideState,
)
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

# Module-level names for enum members: an enum class's attribute lookup is slow, and
# these run once an action.
_FINISHED: Final = Phase.FINISHED
_NORMAL_TURN: Final = Phase.NORMAL_TURN
_PLAYER: Final = Side.PLAYER
_USE_MOVE_KIND: Final = ActionKind.USE_MOVE
_PLAY_POWER_CARD_KIND: Final = ActionKind.PLAY_POWER_CARD
_FORFEIT_KIND: Final = ActionKind.FORFEIT
_DISCONNECTED_KIND: Final = ActionKind.DISCONNECTED
_SELECT_CREATURE_KIND: Final = ActionKind.SELECT_CREATURE


@plain
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
    if creature.statuses.stun is not None:
        return Problem(RefusalCode.STUNNED, f"{creature.card.name} is stunned")
    if move.power_cost > creature.power:
        return Problem(
            RefusalCode.NOT_ENOUGH_POWER,
            f"{move.name} costs {move.power_cost} Power; {creature.card.name} has {creature.power}",
        )
    if not move.conditions:
        return None
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
    if state.phase is not _NORMAL_TURN:
        return Problem(RefusalCode.WRONG_PHASE, f"no {action.kind} during {state.phase}")
    if side != state.turn:
        return Problem(RefusalCode.NOT_YOUR_TURN, f"it is {state.turn}'s turn")
    own = state.side(side)
    active = own.active
    if active is None:
        return Problem(RefusalCode.NO_ACTIVE_CREATURE, "no active Creature")
    creature = own.creatures[active]
    index = action.index
    kind = action.kind
    if kind is _USE_MOVE_KIND:
        return _move_refusal(state, side, creature, index)
    if kind is _PLAY_POWER_CARD_KIND:
        if index is None or not _in_range(index, len(own.power_cards)):
            return Problem(RefusalCode.UNKNOWN_POWER_CARD, f"no Power card {index}")
        if index in own.discarded:
            return Problem(RefusalCode.POWER_CARD_DISCARDED, "that Power card was played")
        return None
    match kind:
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
    if state.phase is _FINISHED:
        return Problem(RefusalCode.MATCH_FINISHED, "the match is over")
    kind = action.kind
    if kind is _FORFEIT_KIND:
        return None
    if kind is _DISCONNECTED_KIND:  # the sweeper's, in live PvP only (docs/quest-pvp.md)
        if state.missed_deadline is MissedDeadline.LIVE:
            return None
        return Problem(RefusalCode.INVALID_ACTION, "only a live match ends by disconnection")
    if kind is not _SELECT_CREATURE_KIND:
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


def accepted_at_once(state: MatchState, side: Side, action: Action) -> bool:
    """True for the common legal actions, cheaply: the side to move in a normal turn
    using a move without conditions that its active Creature can pay for and is not
    stunned for, or playing a Power card in hand. False means "ask ``refusal``": a
    subset of what ``refusal`` accepts, never more (the tests compare them).
    """
    if state.phase is not _NORMAL_TURN or side is not state.turn:
        return False
    own = state.player if side is _PLAYER else state.cpu
    active = own.active
    index = action.index
    if active is None or index is None or index < 0:
        return False
    kind = action.kind
    if kind is _USE_MOVE_KIND:
        creature = own.creatures[active]
        moves = creature.card.moves
        if index >= len(moves) or creature.statuses.stun is not None:
            return False
        move = moves[index]
        return not move.conditions and move.power_cost <= creature.power
    if kind is _PLAY_POWER_CARD_KIND:
        return index < len(own.power_cards) and index not in own.discarded
    return False


def check(state: MatchState, side: Side, action: Action) -> None:
    if accepted_at_once(state, side, action):
        return
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


def legal_actions_by_refusal(state: MatchState, side: Side) -> list[Action]:
    """``legal_actions`` the long way: every candidate that ``refusal`` accepts.

    The definition ``legal_actions`` must agree with (the tests compare the two on
    every state of random play); too slow for the engine's hot path.
    """
    if state.phase is Phase.FINISHED or side not in SIDES:
        return []
    side = Side(side)
    return [a for a in _candidates(state, side) if refusal(state, side, a) is None]


# Indexes with a ready-made Action (decks have 3 Creatures, 2 cards, <= 4 moves).
_CACHED: Final = 16
_USE_MOVE: Final = tuple(Action.use_move(i) for i in range(_CACHED))
_PLAY: Final = tuple(Action.play_power_card(i) for i in range(_CACHED))
_SWAP: Final = tuple(Action.swap(i) for i in range(_CACHED))
_SELECT: Final = tuple(Action.select_creature(i) for i in range(_CACHED))
_TIMEOUT: Final = Action.timeout()
_FORFEIT: Final = Action.forfeit()


def _action(cache: tuple[Action, ...], kind: ActionKind, index: int) -> Action:
    return cache[index] if index < _CACHED else Action(kind, index)


def move_usable(state: MatchState, side: Side, creature: Creature, index: int) -> bool:
    """``_move_refusal`` is None, for an index in range, without building a Problem."""
    move = creature.card.moves[index]
    if creature.statuses.stun is not None or move.power_cost > creature.power:
        return False
    if not move.conditions:
        return True
    opponent = state.side(side.other).active_creature
    return all(condition_holds(c, creature, index, opponent) for c in move.conditions)


def _moves_and_cards(
    own: SideState, creature: Creature, state: MatchState, side: Side
) -> list[Action]:
    """The usable moves of the active ``creature``, then the Power cards in hand."""
    legal = []
    if creature.statuses.stun is None:  # a stunned Creature uses no move
        power = creature.power
        for i, move in enumerate(creature.card.moves):
            if move.power_cost <= power and (
                not move.conditions or move_usable(state, side, creature, i)
            ):
                legal.append(_USE_MOVE[i] if i < _CACHED else Action(_USE_MOVE_KIND, i))
    discarded = own.discarded
    for i in range(len(own.power_cards)):
        if i not in discarded:
            legal.append(_PLAY[i] if i < _CACHED else Action(_PLAY_POWER_CARD_KIND, i))
    return legal


def _selections(own: SideState) -> list[Action]:
    return [
        _action(_SELECT, ActionKind.SELECT_CREATURE, i)
        for i, c in enumerate(own.creatures)
        if c.hp != 0
    ]


def legal_actions(state: MatchState, side: Side) -> list[Action]:
    """Every action ``side`` may take now; [] once the match is over. Never raises.

    Forfeit is listed for both sides in every unfinished phase; timeout (letting
    the turn go) for the side to move in a normal turn.

    The candidates ``refusal`` accepts, in the same order as
    ``legal_actions_by_refusal``, found directly (this runs once an action).
    """
    phase = state.phase
    if phase is _FINISHED or side not in SIDES:
        return []
    side = side if side.__class__ is Side else Side(side)
    own = state.player if side is _PLAYER else state.cpu
    if phase is _NORMAL_TURN:
        active = own.active
        if side is not state.turn or active is None:
            return [_FORFEIT]
        legal = _moves_and_cards(own, own.creatures[active], state, side)
        for i, c in enumerate(own.creatures):
            if i != active and c.hp != 0:
                legal.append(_action(_SWAP, ActionKind.SWAP, i))
        legal.append(_TIMEOUT)
        legal.append(_FORFEIT)
        return legal
    # A selection phase.
    if side not in state.pending:
        return [_FORFEIT]
    legal = _selections(own)
    legal.append(_FORFEIT)
    return legal


def decisions(state: MatchState, side: Side) -> list[Action] | None:
    """The legal actions of ``side`` that play the game, in ``legal_actions`` order: its
    usable moves and Power cards in a normal turn (the timeout alone with neither), its
    selections in a selection phase; None when it has nothing to decide (not its turn,
    nothing to select, the match over). No swap, no forfeit.

    The CPU policy's choices (rulebook: random moves or Power cards, selections when
    required, no voluntary swaps), without listing what it would leave out.
    """
    phase = state.phase
    own = state.player if side is _PLAYER else state.cpu
    if phase is _NORMAL_TURN:
        active = own.active
        if side is not state.turn or active is None:
            return None
        return _moves_and_cards(own, own.creatures[active], state, side) or [_TIMEOUT]
    if phase is _FINISHED or side not in state.pending:
        return None
    return _selections(own)
