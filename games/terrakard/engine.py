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
from datetime import datetime, timedelta

from games.kit.chance import RandomState
from games.kit.frozen import evolve, plain
from games.kit.protocol import Event
from games.terrakard import config
from games.terrakard.actions import Action, ActionKind, timeout
from games.terrakard.damage import exchange
from games.terrakard.rules import (
    asks_question,
    cheapest_unused,
    check,
    ending,
    knowledge_of,
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
    terrain, rng = RandomState(seed=seed).choose(settings.terrains)
    now = _aware(now)
    return AttackState(
        attacker=attacker,
        defense=defense,
        terrain=terrain,
        random=rng,
        started_at=now,
        round_seconds=settings.round_seconds,
        question_seconds=settings.question_seconds,
        deadline=now + timedelta(seconds=settings.reconnaissance_seconds),
    )


def _start_round(state: AttackState, at: datetime) -> tuple[AttackState, list[Event]]:
    number = state.round + 1
    deadline = at + timedelta(seconds=state.round_seconds)
    state = evolve(state, phase=Phase.CHOOSE, round=number, deadline=deadline, played=None)
    return state, [{"type": "round_started", "round": number, "deadline": deadline.isoformat()}]


def _play(
    state: AttackState, index: int, auto: bool, at: datetime
) -> tuple[AttackState, list[Event]]:
    card = state.attacker.deck[index]
    reserve = reserve_comes_in(state, card)
    plan = state.defense.plan
    revealed = plan.reserve if reserve else plan.rounds[state.round - 1]
    played = Played(index, auto, reserve)
    state = evolve(
        state,
        used=(*state.used, index),
        played=played,
        reserve_round=state.round if reserve else state.reserve_round,
    )
    events: list[Event] = [
        {
            "type": "card_played",
            "round": state.round,
            "card": index,
            "name": card.name,
            "auto": auto,
        }
    ]
    if reserve:
        events.append({"type": "reserve_came_in", "round": state.round, **plan.condition.to_dict()})
    events.append(
        {
            "type": "defense_card_revealed",
            "round": state.round,
            "reserve": reserve,
            "card": _public(revealed.to_dict()),
        }
    )
    if asks_question(state, revealed):
        asked = AskedQuestion(state.round, revealed.difficulty)
        deadline = at + timedelta(seconds=state.question_seconds)
        state = evolve(state, phase=Phase.QUESTION, question=asked, deadline=deadline)
        events.append(
            {
                "type": "question_asked",
                "round": state.round,
                "question": revealed.question.to_dict() if revealed.question else None,
                "stake": stake(state),
                "deadline": deadline.isoformat(),
            }
        )
        return state, events
    state, resolved = _resolve(state, at)
    return state, events + resolved


def _public(card: dict[str, object]) -> dict[str, object]:
    """A revealed card's new dict without its question (the view shows the question
    while asked): taken out of that dict, which nothing else holds."""
    card.pop("question", None)
    return card


def _resolve(state: AttackState, at: datetime) -> tuple[AttackState, list[Event]]:
    """The damage both ways at once, then the end checks or the next round."""
    played = state.played
    assert played is not None
    plan = state.defense.plan
    attacker_card = state.attacker.deck[played.card]
    defense_card = plan.reserve if played.reserve else plan.rounds[state.round - 1]
    knowledge = knowledge_of(state)
    hits = exchange(
        attacker_card,
        defense_card,
        terrain=state.terrain,
        posture=plan.posture,
        round_number=state.round,
        knowledge=knowledge,
        knowledge_applies=not played.auto,
    )
    record = RoundRecord(
        number=state.round,
        played=played,
        to_defense=hits.to_defense,
        to_attacker=hits.to_attacker,
        attacker_hp=max(0, state.attacker_hp - hits.to_attacker),
        defense_hp=max(0, state.defense_hp - hits.to_defense),
        knowledge=knowledge is not None and not played.auto,
    )
    state = evolve(
        state,
        attacker_hp=record.attacker_hp,
        defense_hp=record.defense_hp,
        rounds=(*state.rounds, record),
        played=None,
    )
    events: list[Event] = [{"type": "round_resolved", **record.to_dict()}]
    over = ending(state)
    if over is None:
        state, started = _start_round(state, at)
        return state, events + started
    stars, reason = over
    return _finish(state, stars, reason, events)


def _finish(
    state: AttackState, stars: int, reason: FinishReason, events: list[Event]
) -> tuple[AttackState, list[Event]]:
    state = evolve(state, phase=Phase.FINISHED, deadline=None, stars=stars, finish_reason=reason)
    events.append(
        {
            "type": "attack_finished",
            "stars": stars,
            "reason": str(reason),
            "attacker_hp": state.attacker_hp,
            "defense_hp": state.defense_hp,
        }
    )
    return state, events


def _answered(
    state: AttackState, how: Answered, choice: int | None, at: datetime
) -> tuple[AttackState, list[Event]]:
    assert state.question is not None
    state = evolve(state, question=evolve(state.question, answered=how, choice=choice))
    knowledge = knowledge_of(state)
    event: Event = {
        "type": "question_answered",
        "round": state.round,
        "answered": str(how),
        "effect": None if knowledge is None else str(knowledge.effect),
    }
    state, resolved = _resolve(state, at)
    return state, [event, *resolved]


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
        return evolve(state, version=state.version + 1), events
    events = []
    if late:
        state, events = _time_runs_out(state)
        if state.finished:
            events.append({"type": "action_ignored", "action": action.to_dict()})
            return evolve(state, version=state.version + 1), events
    check(state, seat, action)
    state, more = _dispatch(state, action, now)
    return evolve(state, version=state.version + 1), events + more


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
