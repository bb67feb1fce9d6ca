"""An attempt: five questions chosen and shuffled once, answers locked, a fixed deadline.

Rulebook "Start and resume", "Questions and timing", "Answers, expiry, and
feedback". Options get ids that exist only within the attempt, so nothing a
player sees identifies the authored answer key.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from services.challenge.domain.timing import on_time, time_limit
from shared.content import Kind
from shared.errors import Conflict, InvalidInput, NotFound
from shared.randomness import RandomSource

QUESTIONS_PER_ATTEMPT = 5  # rulebook: five distinct questions


class Status(StrEnum):
    ACTIVE = "active"
    COMPLETED = "completed"


@dataclass(frozen=True)
class PublishedQuestion:
    id: uuid.UUID
    kind: str
    body: Mapping[str, Any]


@dataclass(frozen=True)
class Option:
    id: str
    text: str


@dataclass(frozen=True)
class AttemptQuestion:
    position: int
    question_id: uuid.UUID
    kind: str
    prompt: str
    difficulty: int
    options: tuple[Option, ...]  # in the order shown to the player
    key: tuple[str, ...]  # private: the correct option id, or all ids in the correct order
    explanation: str  # private until completion, and shown only for ordering questions

    def mark(self, submitted: tuple[str, ...]) -> bool:
        return submitted == self.key


@dataclass(frozen=True)
class Answer:
    position: int
    submitted: tuple[str, ...]
    received_at: datetime
    correct: bool


@dataclass(frozen=True)
class Attempt:
    id: uuid.UUID
    player_id: uuid.UUID
    event_id: uuid.UUID
    started_at: datetime
    deadline: datetime
    status: Status
    questions: tuple[AttemptQuestion, ...]
    completed_at: datetime | None = None
    correct_count: int | None = None
    reward: Mapping[str, Any] | None = None  # from RewardGranted: {"grantedAt", "cards"}

    def expired(self, now: datetime) -> bool:
        return self.status is Status.ACTIVE and not on_time(now, self.deadline)


def _option_ids(count: int, rng: RandomSource) -> list[str]:
    """Random ids in the order drawn. Never sorted: for an ordering question the ids are
    given to the items in their correct order, so sorted ids would spell out the answer."""
    ids: list[str] = []
    while len(ids) < count:
        candidate = f"o{rng.randrange(16**8):08x}"
        if candidate not in ids:
            ids.append(candidate)
    return ids


def _prepare(position: int, question: PublishedQuestion, rng: RandomSource) -> AttemptQuestion:
    body = question.body
    if question.kind == Kind.ORDERING_QUESTION:
        texts = list(body["items"])  # authored in the correct order
        ids = _option_ids(len(texts), rng)
        key = tuple(ids)
    else:
        texts = [choice["text"] for choice in body["choices"]]
        ids = _option_ids(len(texts), rng)
        key = tuple(
            i for i, choice in zip(ids, body["choices"], strict=True) if choice.get("correct")
        )
    options = [Option(i, t) for i, t in zip(ids, texts, strict=True)]
    rng.shuffle(options)
    return AttemptQuestion(
        position=position,
        question_id=question.id,
        kind=question.kind,
        prompt=body["prompt"],
        difficulty=int(body["difficulty"]),
        options=tuple(options),
        key=key,
        explanation=body.get("explanation", ""),
    )


def start(
    attempt_id: uuid.UUID,
    player_id: uuid.UUID,
    event_id: uuid.UUID,
    published: Sequence[PublishedQuestion],
    now: datetime,
    rng: RandomSource,
) -> Attempt:
    """Choose five distinct questions, shuffle their options, fix the deadline."""
    distinct = sorted({q.id: q for q in published}.values(), key=lambda q: str(q.id))
    if len(distinct) < QUESTIONS_PER_ATTEMPT:
        raise Conflict(
            "challenge_not_playable", "this event's challenge has fewer than five questions"
        )
    chosen = rng.sample(distinct, QUESTIONS_PER_ATTEMPT)
    questions = tuple(_prepare(position, q, rng) for position, q in enumerate(chosen))
    deadline = now + time_limit([q.difficulty for q in questions])
    return Attempt(attempt_id, player_id, event_id, now, deadline, Status.ACTIVE, questions)


def parse_submission(question: AttemptQuestion, submission: Mapping[str, Any]) -> tuple[str, ...]:
    """``{"choice": id}`` for multiple choice, ``{"order": [4 ids]}`` for ordering."""
    option_ids = {o.id for o in question.options}
    if question.kind == Kind.ORDERING_QUESTION:
        order = submission.get("order")
        if (
            set(submission) != {"order"}
            or not isinstance(order, list)
            or not all(isinstance(item, str) for item in order)
            or len(order) != len(option_ids)
            or set(order) != option_ids
        ):
            raise InvalidInput(
                "invalid_order", "send every item of this question exactly once, in your order"
            )
        return tuple(order)
    choice = submission.get("choice")
    if set(submission) != {"choice"} or not isinstance(choice, str) or choice not in option_ids:
        raise InvalidInput("unknown_option", "choose one of this question's option ids")
    return (choice,)


def answer(
    attempt: Attempt,
    answers: Mapping[int, Answer],
    position: int,
    submission: Mapping[str, Any],
    now: datetime,
) -> tuple[Answer, bool]:
    """Accept one answer; return it and whether it is new.

    A repeated identical answer returns the stored one (idempotent); a
    different one for an answered question is refused. The caller resolves
    expiry first: this refuses anything at or after the deadline.
    """
    if not 0 <= position < len(attempt.questions):
        raise NotFound("question_not_in_attempt", "this attempt has no such question")
    question = attempt.questions[position]
    submitted = parse_submission(question, submission)
    existing = answers.get(position)
    if existing is not None:
        if existing.submitted == submitted:
            return existing, False
        raise Conflict("answer_locked", "this question is already answered; answers are final")
    if not on_time(now, attempt.deadline):
        raise Conflict("deadline_passed", "the time for this attempt is up")
    if attempt.status is not Status.ACTIVE:
        raise Conflict("attempt_completed", "this attempt is over")
    return Answer(position, submitted, now, question.mark(submitted)), True


def complete(attempt: Attempt, answers: Mapping[int, Answer], now: datetime) -> Attempt:
    """Unanswered questions count as incorrect."""
    correct = sum(1 for a in answers.values() if a.correct)
    completed_at = min(now, attempt.deadline)
    return Attempt(
        attempt.id,
        attempt.player_id,
        attempt.event_id,
        attempt.started_at,
        attempt.deadline,
        Status.COMPLETED,
        attempt.questions,
        completed_at,
        correct,
    )


def player_view(attempt: Attempt, answers: Mapping[int, Answer]) -> dict[str, Any]:
    """What the player may see: never a key, and no correctness until completion."""
    view: dict[str, Any] = {
        "id": str(attempt.id),
        "eventId": str(attempt.event_id),
        "status": attempt.status.value,
        "startedAt": attempt.started_at.isoformat(),
        "deadline": attempt.deadline.isoformat(),
        "questions": [
            {
                "index": q.position,
                "kind": q.kind,
                "prompt": q.prompt,
                "options": [{"id": o.id, "text": o.text} for o in q.options],
                "answer": _submitted_json(q, answers.get(q.position)),
            }
            for q in attempt.questions
        ],
    }
    if attempt.status is Status.COMPLETED:
        view["result"] = {
            "score": attempt.correct_count,
            "completedAt": attempt.completed_at.isoformat() if attempt.completed_at else None,
            "review": [_review(q, answers.get(q.position)) for q in attempt.questions],
            "reward": _reward(attempt),
        }
    return view


def _reward(attempt: Attempt) -> dict[str, Any]:
    """The granted cards once the cards service has rolled them; until then, pending.

    The roll happens once, in the cards service; this only shows what it granted.
    """
    if attempt.reward is None:
        return {"status": "pending", "cards": []}
    return {"status": "granted", **attempt.reward}


def _submitted_json(question: AttemptQuestion, answer: Answer | None) -> Any:
    if answer is None:
        return None
    if question.kind == Kind.ORDERING_QUESTION:
        return {"order": list(answer.submitted)}
    return {"choice": answer.submitted[0]}


def _review(question: AttemptQuestion, answer: Answer | None) -> dict[str, Any]:
    correct_answer = (
        {"order": list(question.key)}
        if question.kind == Kind.ORDERING_QUESTION
        else {"choice": question.key[0]}
    )
    entry: dict[str, Any] = {
        "index": question.position,
        "yourAnswer": _submitted_json(question, answer),
        "correctAnswer": correct_answer,
        "correct": bool(answer and answer.correct),
    }
    if question.kind == Kind.ORDERING_QUESTION:
        entry["explanation"] = question.explanation  # rulebook: ordering review only
    return entry
