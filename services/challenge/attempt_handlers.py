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
from shared import pages
from shared.clock import Clock
from shared.content import Game
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
                # Challenges and their events are Quest's (rules/quest.txt); a game with
                # its own events would keep its game on the event it hosts.
                "game": Game.QUEST,
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
    # The player's starts run one at a time from here (and never after the purge), so
    # a start that lost a race finds the winner's attempt below and stores no claim.
    uow.players.admit(cmd.player_id)
    existing = uow.attempts.for_player_at_event(cmd.player_id, cmd.event_id, for_update=True)
    if existing is not None:  # resume: same questions, options and deadline, even if closed
        attempt, answers = _resolve_expiry(uow, existing, now)
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
    if not uow.attempts.add_if_first(fresh):
        # Unreachable while starts pass the gate; kept so the unique key is never a 500.
        raise Conflict("attempt_start_in_progress", "this attempt is being started; try again")
    uow.attempts.add_claim(cmd.player_id, claim, now)  # only the start that made the attempt
    return Outcome(attempts.player_view(fresh, {}), created=True)


def _owned(
    uow: ChallengeUnitOfWork, player_id: uuid.UUID, attempt_id: uuid.UUID, now: datetime
) -> tuple[Attempt, dict[int, Answer]]:
    """The player's attempt, locked, with its answers; an expiry it passed resolved."""
    attempt, answers = uow.attempts.locked_with_answers(attempt_id)
    if attempt is None or attempt.player_id != player_id:  # another's attempt: not found
        raise NotFound("attempt_not_found", "there is no such attempt")
    if attempt.expired(now):
        attempt = _complete(uow, attempt, answers, now)
    return attempt, answers


def get_attempt(
    player_id: uuid.UUID, attempt_id: uuid.UUID, uow: ChallengeUnitOfWork, clock: Clock
) -> Outcome:
    uow.players.admit(player_id)  # resolving an expiry writes AttemptCompleted
    attempt, answers = _owned(uow, player_id, attempt_id, clock.now())
    return Outcome(attempts.player_view(attempt, answers))


def list_attempts(
    player_id: uuid.UUID, cursor: str | None, limit: int, uow: ChallengeUnitOfWork
) -> dict[str, Any]:
    """The player's attempts, newest first, a page: each its event, status, times, score
    and reward (no question: an active attempt is read in full by its own route)."""
    rows = uow.attempts.page_of_player(player_id, pages.position(cursor), limit + 1)
    return pages.page(rows, limit, lambda row: (row["started_at"], row["id"]), _summary)


def _summary(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "event_id": row["event_id"],
        "event_name": row["event_name"],
        "status": row["status"],
        "started_at": row["started_at"],
        "deadline": row["deadline"],
        "completed_at": row["completed_at"],
        "correct_count": row["correct_count"],
        "reward": row["reward"],
    }


def answer_question(cmd: AnswerQuestion, uow: ChallengeUnitOfWork, clock: Clock) -> Outcome:
    now = clock.now()
    uow.players.admit(cmd.player_id)
    attempt, answers = _owned(uow, cmd.player_id, cmd.attempt_id, now)
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
    """The sweeper: complete attempts whose deadline passed with nobody asking.

    It already holds the attempts' rows, so it only tries each player's gate: a player
    being purged (or busy) is skipped, never waited for, and never completed after
    the purge. Returns how many it completed."""
    now = clock.now()
    completed = 0
    for attempt in uow.attempts.due_for_expiry(now, limit):
        if uow.players.try_admit(attempt.player_id):
            _complete(uow, attempt, uow.attempts.answers(attempt.id), now)
            completed += 1
    return completed


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
                "affinity": card["attributes"].get("affinity"),
            }
            for card in data["cards"]
        ],
    }
    return uow.attempts.record_reward(data["attempt_id"], reward)
