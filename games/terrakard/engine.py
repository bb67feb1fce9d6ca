"""The attack's entry points: start, apply an action, expire a phase, replay.

Pure functions of their arguments: time comes in as ``now`` (timezone-aware), chance
(the terrain) from the state's own ``RandomState``. ``apply`` checks legality before
anything else and never mutates its input.

The order of a round (rules/terrakard.txt, "How an attack goes"): the attacker's card
(within 20 s, or the server plays the cheapest remaining one); the reserve comes in if
its condition is met, and the defense card is revealed; the knowledge question if this
is its round (15 s); then the damage both ways at once, and the end checks.

Time: a phase that time ends hands over at its deadline, not at the moment a host
noticed, so the next phase's deadline does not depend on the sweeper's lag; a phase an
action ends hands over at the action's time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from games.kit.chance import MATCH_STREAM, RandomState, uniform
from games.kit.frozen import plain
from games.kit.moments import iso, later
from games.kit.protocol import Event
from games.terrakard import config
from games.terrakard.actions import Action, ActionKind, timeout
from games.terrakard.damage import exchange
from games.terrakard.rules import (
    asks_question,
    cheapest_unused,
    check,
    knowledge_for,
    outcome,
    overdue,
    reserve_comes_in,
    stake,
)
from games.terrakard.state import (
    ATTACKER,
    Answered,
    AskedQuestion,
    AttackerSide,
    AttackState,
    DefenseSide,
    FinishReason,
    Phase,
    Played,
    RoundRecord,
)
from games.terrakard.terrains import STARTING_TERRAINS, Terrain


@plain
@dataclass(frozen=True)
class Settings:
    """Settings of the game, apart from the state of any one attack."""

    round_seconds: int = config.ROUND_SECONDS
    question_seconds: int = config.QUESTION_SECONDS
    reconnaissance_seconds: int = config.RECONNAISSANCE_SECONDS
    terrains: tuple[Terrain, ...] = STARTING_TERRAINS  # this season's list


LogEntry = tuple[str, Action, datetime]

_CHOOSE: Final = Phase.CHOOSE
_QUESTION: Final = Phase.QUESTION
_FINISHED: Final = Phase.FINISHED


def _aware(now: datetime) -> datetime:
    if now.tzinfo is None:
        raise ValueError("times are timezone-aware")
    return now


def new_match(
    attacker: AttackerSide,
    defense: DefenseSide,
    seed: int,
    now: datetime,
    settings: Settings | None = None,
) -> AttackState:
    """An attack in its reconnaissance, the terrain drawn from ``seed``.

    The deck and plan are the host's snapshots, already judged legal for the players'
    levels (games/terrakard/plans.py); here only their shape is checked.
    """
    settings = settings or Settings()
    if len(attacker.deck) != config.DECK_SIZE:
        raise ValueError(f"an attack deck has {config.DECK_SIZE} cards")
    if len(defense.plan.rounds) != config.ROUNDS:
        raise ValueError(f"a defense plan has {config.ROUNDS} round cards")
    if min(settings.round_seconds, settings.question_seconds) < 1:
        raise ValueError("a phase lasts at least one second")
    # RandomState(seed=seed).choose(terrains), without the first state and its copy
    index, counter = uniform(seed, MATCH_STREAM, 0, len(settings.terrains))
    terrain, rng = settings.terrains[index], RandomState(seed, counter)
    now = _aware(now)
    return AttackState(
        attacker=attacker,
        defense=defense,
        terrain=terrain,
        random=rng,
        started_at=now,
        round_seconds=settings.round_seconds,
        question_seconds=settings.question_seconds,
        deadline=later(now, settings.reconnaissance_seconds),
    )


def _start_round(state: AttackState, at: datetime) -> tuple[AttackState, list[Event]]:
    number = state.round + 1
    deadline = later(at, state.round_seconds)
    state = state.copy_with(
        _CHOOSE,
        number,
        deadline,
        state.attacker_hp,
        state.defense_hp,
        state.used,
        None,
        state.reserve_round,
        state.question,
        state.rounds,
        state.stars,
        state.finish_reason,
        state.version,
    )
    return state, [{"type": "round_started", "round": number, "deadline": iso(deadline)}]


def _play(
    state: AttackState, index: int, auto: bool, at: datetime
) -> tuple[AttackState, list[Event]]:
    card = state.attacker.deck[index]
    reserve = reserve_comes_in(state, card)
    plan = state.defense.plan
    number = state.round
    revealed = plan.reserve if reserve else plan.rounds[number - 1]
    played = Played(index, auto, reserve)
    used = (*state.used, index)
    reserve_round = number if reserve else state.reserve_round
    events: list[Event] = [
        {"type": "card_played", "round": number, "card": index, "name": card.name, "auto": auto}
    ]
    if reserve:
        events.append({"type": "reserve_came_in", "round": number, **plan.condition.to_dict()})
    events.append(
        {
            "type": "defense_card_revealed",
            "round": number,
            "reserve": reserve,
            "card": revealed.public_dict(),
        }
    )
    if asks_question(state, revealed):
        asked = AskedQuestion(number, revealed.difficulty)
        deadline = later(at, state.question_seconds)
        state = state.copy_with(
            _QUESTION,
            number,
            deadline,
            state.attacker_hp,
            state.defense_hp,
            used,
            played,
            reserve_round,
            asked,
            state.rounds,
            state.stars,
            state.finish_reason,
            state.version,
        )
        question = revealed.question
        events.append(
            {
                "type": "question_asked",
                "round": number,
                "question": question.to_dict() if question else None,
                "stake": stake(state),
                "deadline": iso(deadline),
            }
        )
        return state, events
    return _resolve(state, played, used, reserve_round, state.question, at, events)


def _resolve(
    state: AttackState,
    played: Played,
    used: tuple[int, ...],
    reserve_round: int | None,
    question: AskedQuestion | None,
    at: datetime,
    events: list[Event],
) -> tuple[AttackState, list[Event]]:
    """The damage both ways at once (``state`` as it was before this round's card was
    played, with its card, the reserve's round and the question given), then the end
    checks or the next round; the round's events follow ``events``."""
    plan = state.defense.plan
    number = state.round
    attacker_card = state.attacker.deck[played.card]
    defense_card = plan.reserve if played.reserve else plan.rounds[number - 1]
    knowledge = knowledge_for(state.terrain, question)
    hits = exchange(
        attacker_card,
        defense_card,
        terrain=state.terrain,
        posture=plan.posture,
        round_number=number,
        knowledge=knowledge,
        knowledge_applies=not played.auto,
    )
    to_defense, to_attacker = hits.to_defense, hits.to_attacker
    attacker_hp = max(0, state.attacker_hp - to_attacker)
    defense_hp = max(0, state.defense_hp - to_defense)
    applied = knowledge is not None and not played.auto
    record = RoundRecord(number, played, to_defense, to_attacker, attacker_hp, defense_hp, applied)
    events.append(
        {
            "type": "round_resolved",
            "number": number,
            "played": played.to_dict(),
            "to_defense": to_defense,
            "to_attacker": to_attacker,
            "attacker_hp": attacker_hp,
            "defense_hp": defense_hp,
            "knowledge": applied,
        }
    )
    rounds = (*state.rounds, record)
    over = outcome(attacker_hp, defense_hp, number, state.start_hp)
    phase, stars, reason = _CHOOSE, state.stars, state.finish_reason
    deadline: datetime | None = None
    if over is None:  # the next round starts
        number += 1
        deadline = later(at, state.round_seconds)
    else:
        phase = _FINISHED
        stars, reason = over
    state = state.copy_with(
        phase,
        number,
        deadline,
        attacker_hp,
        defense_hp,
        used,
        None,
        reserve_round,
        question,
        rounds,
        stars,
        reason,
        state.version,
    )
    if deadline is None:
        events.append(_finished(state))
    else:
        events.append({"type": "round_started", "round": number, "deadline": iso(deadline)})
    return state, events


def _finish(
    state: AttackState, stars: int, reason: FinishReason, events: list[Event]
) -> tuple[AttackState, list[Event]]:
    state = state.copy_with(
        _FINISHED,
        state.round,
        None,
        state.attacker_hp,
        state.defense_hp,
        state.used,
        state.played,
        state.reserve_round,
        state.question,
        state.rounds,
        stars,
        reason,
        state.version,
    )
    events.append(_finished(state))
    return state, events


def _finished(state: AttackState) -> Event:
    return {
        "type": "attack_finished",
        "stars": state.stars,
        "reason": str(state.finish_reason),
        "attacker_hp": state.attacker_hp,
        "defense_hp": state.defense_hp,
    }


def _answered(
    state: AttackState, how: Answered, choice: int | None, at: datetime
) -> tuple[AttackState, list[Event]]:
    asked, played = state.question, state.played
    assert asked is not None and played is not None
    question = AskedQuestion(asked.round, asked.difficulty, how, choice)
    knowledge = knowledge_for(state.terrain, question)
    events: list[Event] = [
        {
            "type": "question_answered",
            "round": state.round,
            "answered": str(how),
            "effect": None if knowledge is None else knowledge.text,
        }
    ]
    return _resolve(state, played, state.used, state.reserve_round, question, at, events)


def _time_runs_out(state: AttackState) -> tuple[AttackState, list[Event]]:
    """What the phase's deadline does; the next phase starts at that deadline."""
    at = state.deadline
    assert at is not None
    event: Event = {"type": "timeout", "phase": str(state.phase), "round": state.round}
    if state.phase is Phase.RECONNAISSANCE:
        state, more = _start_round(state, at)
    elif state.phase is Phase.CHOOSE:
        state, more = _play(state, cheapest_unused(state), auto=True, at=at)
    else:
        state, more = _answered(state, Answered.TIMED_OUT, None, at)
    return state, [event, *more]


def _dispatch(state: AttackState, action: Action, now: datetime) -> tuple[AttackState, list[Event]]:
    kind = action.kind
    if kind is ActionKind.GIVE_UP:
        return _finish(state, 0, FinishReason.GAVE_UP, [{"type": "gave_up"}])
    if kind is ActionKind.BEGIN:
        return _start_round(state, now)
    if kind is ActionKind.PLAY:
        assert action.card is not None
        return _play(state, action.card, auto=False, at=now)
    if kind is ActionKind.SKIP:
        return _answered(state, Answered.SKIPPED, None, now)
    right = Answered.RIGHT if action.correct else Answered.WRONG
    return _answered(state, right, action.choice, now)


def apply(
    state: AttackState, seat: str, action: Action, now: datetime
) -> tuple[AttackState, list[Event]]:
    """Apply one action of ``seat`` at ``now``; raises a Refusal before any change.

    Once the phase's deadline has passed, time acts first: an action that comes too late
    is replaced by the timeout (as Quest does); giving up after the deadline comes after
    that timeout, if the attack is still on.
    """
    _aware(now)
    late = overdue(state, now) and seat == ATTACKER
    if late and action.kind is not ActionKind.GIVE_UP:
        state, events = _time_runs_out(state)
        if action.kind is not ActionKind.TIMEOUT:
            events.insert(0, {"type": "too_late", "action": action.to_dict()})
        return state.next_version(), events
    events = []
    if late:
        state, events = _time_runs_out(state)
        if state.finished:
            events.append({"type": "action_ignored", "action": action.to_dict()})
            return state.next_version(), events
    check(state, seat, action)
    state, more = _dispatch(state, action, now)
    return state.next_version(), events + more


def timeouts(state: AttackState) -> list[tuple[str, Action]]:
    """What time alone takes once the deadline has passed (a host logs it)."""
    return [] if state.finished or state.deadline is None else [(ATTACKER, timeout())]


def expire(state: AttackState, now: datetime) -> tuple[AttackState, list[Event]]:
    """For a sweeper: the overdue phase's timeout; before the deadline, nothing."""
    if not overdue(state, _aware(now)):
        return state, []
    return apply(state, ATTACKER, timeout(), now)


def replay(initial: AttackState, log: Iterable[LogEntry]) -> AttackState:
    """Apply the logged (seat, action, now) entries again; the result equals live play."""
    state = initial
    for seat, action, now in log:
        state, _ = apply(state, seat, action, now)
    return state
