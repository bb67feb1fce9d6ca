"""Quest event attempts: start or resume, answer, expire, read (over a unit of work)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from services.challenge.domain import attempt as attempts
from services.challenge.domain import claims
from services.challenge.domain.attempt import Answer, Attempt
from services.challenge.repository import ChallengeUnitOfWork
from shared.clock import Clock
from shared.errors import Conflict, DeckyardError, NotFound
from shared.events import ATTEMPT_COMPLETED, Event, new_event
from shared.randomness import RandomSource


@dataclass(frozen=True)
class StartAttempt:
    player_id: uuid.UUID
    event_id: uuid.UUID
    claim: claims.Claim


@dataclass(frozen=True)
class AnswerQuestion:
    player_id: uuid.UUID
    attempt_id: uuid.UUID
    index: int
    submission: Mapping[str, Any]


@dataclass(frozen=True)
class Outcome:
    """A view to return and, when set, a refusal to raise after the transaction commits
    (resolving an expiry must persist even when the request it came with is refused)."""

    view: dict[str, Any]
    created: bool = False
    refusal: DeckyardError | None = None


def _complete(
    uow: ChallengeUnitOfWork, attempt: Attempt, answers: Mapping[int, Answer], now: datetime
) -> Attempt:
    done = attempts.complete(attempt, answers, now)
    uow.attempts.save_completion(done)
    assert done.completed_at is not None and done.correct_count is not None
    uow.events.add_event(
        new_event(
            ATTEMPT_COMPLETED,
            {
                "attempt_id": done.id,
                "player_id": done.player_id,
                "event_id": done.event_id,
                "correct_count": done.correct_count,
                "completed_at": done.completed_at,
            },
            occurred_at=now,
        )
    )
    return done


def _resolve_expiry(
    uow: ChallengeUnitOfWork, attempt: Attempt, now: datetime
) -> tuple[Attempt, dict[int, Answer]]:
    answers = uow.attempts.answers(attempt.id)
    if attempt.expired(now):
        attempt = _complete(uow, attempt, answers, now)
    return attempt, answers


def start_attempt(
    cmd: StartAttempt,
    uow: ChallengeUnitOfWork,
    clock: Clock,
    rng: RandomSource,
    policy: claims.ClaimPolicy,
    new_id: Callable[[], uuid.UUID] = uuid.uuid4,
) -> Outcome:
    now = clock.now()
    existing = uow.attempts.for_player_at_event(cmd.player_id, cmd.event_id)
    if existing is not None:  # resume: same questions, options and deadline, even if closed
        locked = uow.attempts.get(existing.id, for_update=True)
        assert locked is not None
        attempt, answers = _resolve_expiry(uow, locked, now)
        return Outcome(attempts.player_view(attempt, answers))

    event = uow.attempts.event_for_claim(cmd.event_id, cmd.claim)
    if event is None or event["retired_at"] is not None:
        raise NotFound("event_not_found", "there is no such published event")
    if not (event["starts_at"] <= now < event["ends_at"]):
        raise Conflict("event_not_available", "this event is not open now")
    claim = cmd.claim
    claims.check_freshness(claim, now, policy)
    claims.check_accuracy(claim, event["radius_m"])
    claims.check_inside(event["distance_m"], event["radius_m"], event["inside"])
    previous = uow.attempts.previous_claim(cmd.player_id, claim)
    claims.check_plausible_movement(
        claim, previous[0] if previous else None, previous[1] if previous else None, policy
    )

    fresh = attempts.start(
        new_id(),
        cmd.player_id,
        cmd.event_id,
        uow.attempts.published_questions(event["challenge_id"]),
        now,
        rng,
    )
    uow.attempts.add_claim(cmd.player_id, claim, now)
    if uow.attempts.add_if_first(fresh):
        return Outcome(attempts.player_view(fresh, {}), created=True)
    # A concurrent start won the unique (player, event) key: return its attempt.
    winner = uow.attempts.for_player_at_event(cmd.player_id, cmd.event_id)
    assert winner is not None
    return Outcome(attempts.player_view(winner, {}))


def _owned(uow: ChallengeUnitOfWork, player_id: uuid.UUID, attempt_id: uuid.UUID) -> Attempt:
    attempt: Attempt | None = uow.attempts.get(attempt_id, for_update=True)
    if attempt is None or attempt.player_id != player_id:  # another's attempt: not found
        raise NotFound("attempt_not_found", "there is no such attempt")
    return attempt


def get_attempt(
    player_id: uuid.UUID, attempt_id: uuid.UUID, uow: ChallengeUnitOfWork, clock: Clock
) -> Outcome:
    attempt, answers = _resolve_expiry(uow, _owned(uow, player_id, attempt_id), clock.now())
    return Outcome(attempts.player_view(attempt, answers))


def answer_question(cmd: AnswerQuestion, uow: ChallengeUnitOfWork, clock: Clock) -> Outcome:
    now = clock.now()
    attempt, answers = _resolve_expiry(uow, _owned(uow, cmd.player_id, cmd.attempt_id), now)
    try:
        answer, new = attempts.answer(attempt, answers, cmd.index, cmd.submission, now)
    except DeckyardError as refusal:
        return Outcome(attempts.player_view(attempt, answers), refusal=refusal)
    if new:
        uow.attempts.add_answer(attempt.id, answer)
        answers = {**answers, answer.position: answer}
        if len(answers) == len(attempt.questions):
            attempt = _complete(uow, attempt, answers, now)
    return Outcome(attempts.player_view(attempt, answers))


def expire_due(uow: ChallengeUnitOfWork, clock: Clock, limit: int = 100) -> int:
    """The sweeper: complete attempts whose deadline passed with nobody asking."""
    now = clock.now()
    due = uow.attempts.due_for_expiry(now, limit)
    for attempt in due:
        _complete(uow, attempt, uow.attempts.answers(attempt.id), now)
    return len(due)


REWARD_GRANTED_CONSUMER = "challenge.attempt_reward"


def record_reward(event: Event, uow: ChallengeUnitOfWork) -> bool:
    """Show in the attempt's result the cards the cards service granted for it."""
    if not uow.inbox.first_delivery(event.event_id, REWARD_GRANTED_CONSUMER):
        return False
    data = event.data
    reward = {
        "grantedAt": data["granted_at"].isoformat(),
        "cards": [
            {
                "ownedCardId": str(card["owned_card_id"]),
                "definitionId": str(card["definition_id"]),
                "name": card["name"],
                "kind": card["kind"],
                "rarity": card["rarity"],
                "affinity": card["affinity"],
            }
            for card in data["cards"]
        ],
    }
    return uow.attempts.record_reward(data["attempt_id"], reward)
