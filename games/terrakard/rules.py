"""Legality and the rulebook's decisions that are not damage: what the attacker may do
now, when the reserve comes in, when the question is asked, what it changes, and how
an attack ends (rules/terrakard.txt, "Reserve card", "Knowledge questions", "Victory
and stars").
"""

from __future__ import annotations

from datetime import datetime
from typing import Final

from games.kit.refusal import Refusal
from games.terrakard import config
from games.terrakard.actions import PLAYS, Action, ActionKind, begin, give_up, play, skip
from games.terrakard.content import CHOICES_PER_QUESTION, Card, Rarity, at_least
from games.terrakard.errors import RefusalCode
from games.terrakard.plans import Trigger
from games.terrakard.state import (
    ATTACKER,
    Answered,
    AskedQuestion,
    AttackState,
    FinishReason,
    Phase,
)
from games.terrakard.terrains import Knowledge, Terrain

_RIGHT: Final = Answered.RIGHT
_WRONG: Final = Answered.WRONG
_LOW_HP_NUMERATOR: Final = config.LOW_HP_SHARE.numerator
_LOW_HP_DENOMINATOR: Final = config.LOW_HP_SHARE.denominator
_TWO_STARS_NUMERATOR: Final = config.TWO_STARS_SHARE.numerator
_TWO_STARS_DENOMINATOR: Final = config.TWO_STARS_SHARE.denominator


def overdue(state: AttackState, now: datetime) -> bool:
    """An action at or after the phase's deadline is too late (exactly at it counts)."""
    return state.deadline is not None and not state.finished and now >= state.deadline


def unused(state: AttackState) -> list[int]:
    return [i for i in range(len(state.attacker.deck)) if i not in state.used]


def cheapest_unused(state: AttackState) -> int:
    """Rulebook: "the server plays your cheapest remaining card"; ours: the first in
    deck order among equally cheap ones."""
    return min(unused(state), key=lambda i: (state.attacker.deck[i].cost, i))


# The answers as a client sends them, before the host marks them (Action is frozen).
_UNMARKED = tuple(Action(ActionKind.ANSWER, choice=i) for i in range(CHOICES_PER_QUESTION))


def legal_actions(state: AttackState, seat: str) -> list[Action]:
    """What ``seat`` may do now (answers unmarked: the host marks them); never raises."""
    if seat != ATTACKER or state.finished:
        return []
    if state.phase is Phase.RECONNAISSANCE:
        return [begin(), give_up()]
    if state.phase is Phase.CHOOSE:
        used, deck_size = state.used, len(state.attacker.deck)
        made = PLAYS if deck_size <= len(PLAYS) else tuple(map(play, range(deck_size)))
        plays = [made[i] for i in range(deck_size) if i not in used]
        plays.append(give_up())
        return plays
    return [*_UNMARKED, skip(), give_up()]


_PHASE_OF = {  # the phase each action belongs to
    ActionKind.BEGIN: Phase.RECONNAISSANCE,
    ActionKind.PLAY: Phase.CHOOSE,
    ActionKind.ANSWER: Phase.QUESTION,
    ActionKind.SKIP: Phase.QUESTION,
}


def check(state: AttackState, seat: str, action: Action) -> None:
    """Raise the refusal ``action`` earns now (the deadline already dealt with)."""
    if state.finished:
        raise Refusal(RefusalCode.ATTACK_FINISHED, "the attack is over")
    if seat != ATTACKER:
        raise Refusal(RefusalCode.NOT_YOUR_SEAT, "the defense is a saved plan; it never acts")
    kind = action.kind
    if kind is ActionKind.GIVE_UP:
        return
    if kind is ActionKind.TIMEOUT:
        raise Refusal(RefusalCode.NOT_OVERDUE, "time has not run out")
    wanted = _PHASE_OF[kind]
    if state.phase is not wanted:
        raise Refusal(RefusalCode.WRONG_PHASE, f"no {kind} during the {state.phase}")
    if kind is ActionKind.PLAY:
        assert action.card is not None
        if action.card >= len(state.attacker.deck):
            raise Refusal(RefusalCode.UNKNOWN_CARD, f"the deck has no card {action.card}")
        if action.card in state.used:
            raise Refusal(RefusalCode.CARD_ALREADY_PLAYED, "each card is played once only")
    if kind is ActionKind.ANSWER:
        assert action.choice is not None
        if action.choice >= CHOICES_PER_QUESTION:
            raise Refusal(RefusalCode.UNKNOWN_CHOICE, "the question has three answers")
        if action.correct is None:
            raise Refusal(RefusalCode.ANSWER_NOT_MARKED, "the server marks an answer first")


def reserve_comes_in(state: AttackState, attacker_card: Card) -> bool:
    """Rulebook: once per fight, the reserve replaces the planned card when its condition
    is met. The defense's HP are those at the start of the round (nothing has hit yet)."""
    if state.reserve_round is not None:
        return False
    condition = state.defense.plan.condition
    if condition.trigger is Trigger.CATEGORY:
        return attacker_card.category == condition.category
    if condition.trigger is Trigger.EPIC_OR_RARER:
        return at_least(attacker_card.rarity, Rarity.EPIC)
    # defense_hp < start_hp x share, in integers (a Fraction product is slow)
    return state.defense_hp * _LOW_HP_DENOMINATOR < state.start_hp * _LOW_HP_NUMERATOR


def asks_question(state: AttackState, revealed: Card) -> bool:
    """Rulebook: once per attack, at the first round whose planned defense card has a
    question, about the card just revealed; unless the attacker turned questions off.
    Ours: when the reserve replaced that card and has no question, the question waits
    for the next round whose planned card has one."""
    planned = state.defense.plan.rounds[state.round - 1]
    return (
        state.attacker.questions
        and state.question is None
        and planned.question is not None
        and revealed.question is not None
    )


def knowledge_of(state: AttackState) -> Knowledge | None:
    """The effect of the answered question, the terrain's factor and cap applied; none for
    a skipped or timed-out question, or a wrong medium or hard one."""
    return knowledge_for(state.terrain, state.question)


def knowledge_for(terrain: Terrain, asked: AskedQuestion | None) -> Knowledge | None:
    """``knowledge_of`` a state on ``terrain`` whose question is ``asked``."""
    if asked is None:
        return None
    answered = asked.answered
    if answered is _RIGHT:
        return terrain.derived.right[asked.difficulty]
    if answered is _WRONG:
        return terrain.derived.wrong[asked.difficulty]
    return None


def ending(state: AttackState) -> tuple[int, FinishReason] | None:
    """After a round: (stars, reason) if the attack is over, else None (``outcome``)."""
    return outcome(state.attacker_hp, state.defense_hp, state.round, state.start_hp)


def outcome(
    attacker_hp: int, defense_hp: int, round_number: int, start_hp: int
) -> tuple[int, FinishReason] | None:
    """After round ``round_number``, the sides at these HP: (stars, reason) if the attack
    is over, else None.

    Rulebook: three stars when the defense has no HP left (the attack stops at once);
    both at 0 in the same round goes to the defense; after the last round, more HP than
    the defense wins two stars if the defense has 50% or less, else one; a tie goes to
    the defense.
    """
    attacker_down, defense_down = attacker_hp <= 0, defense_hp <= 0
    if attacker_down and defense_down:
        return 0, FinishReason.BOTH_DOWN
    if defense_down:
        return 3, FinishReason.DEFENSE_DOWN
    if attacker_down:
        return 0, FinishReason.ATTACKER_DOWN
    if round_number < config.ROUNDS:
        return None
    if attacker_hp <= defense_hp:
        return 0, FinishReason.LAST_ROUND
    # defense_hp <= start_hp x share, in integers
    two = defense_hp * _TWO_STARS_DENOMINATOR <= start_hp * _TWO_STARS_NUMERATOR
    return (2 if two else 1), FinishReason.LAST_ROUND


STAKE_TARGET = {  # rulebook: whose cards and which value each difficulty changes
    "easy": "your cards' ATK",
    "medium": "your cards' DEF",
    "hard": "the opposing cards' DEF",
}


def stake(state: AttackState) -> dict[str, object] | None:
    """What the waiting question puts at stake, shown before the answer (rulebook: "The
    stake is shown before you answer"), the terrain's factor and cap applied."""
    asked = state.question
    if asked is None:
        return None
    difficulty = asked.difficulty
    right, wrong = state.terrain.derived.stakes[difficulty]
    return {
        "difficulty": str(difficulty),
        "changes": STAKE_TARGET[difficulty],
        "right": right,
        "wrong": wrong,
        "from_round": asked.round,
    }
