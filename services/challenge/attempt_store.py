"""Attempts, answers, location claims and the eligibility queries, in PostgreSQL/PostGIS."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import String, and_, cast, func, insert, literal, select, tuple_, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from games.quest.content import MAX_EVENT_RADIUS_M
from services.challenge.domain.attempt import (
    QUESTIONS_PER_ATTEMPT,
    Answer,
    Attempt,
    AttemptQuestion,
    Option,
    PublishedQuestion,
    Status,
)
from services.challenge.domain.claims import AcceptedClaim, Claim
from services.challenge.geo import point
from services.challenge.orm import (
    attempt_answers,
    attempts,
    challenges,
    events,
    location_claims,
    questions,
)
from shared.db import columns, pipelined

# Ours: PostGIS measures on the spheroid; a point placed exactly on the radius can come
# out a fraction of a millimetre outside it. "Boundary included" is honoured to 1 mm.
BOUNDARY_TOLERANCE_M = 0.001
NEARBY_M = 5000  # ours: how far GET /quest/events looks around the player
NEARBY_LIMIT = 100  # ours: at most this many events in one answer


def _questions_json(items: tuple[AttemptQuestion, ...]) -> list[dict[str, Any]]:
    return [
        {
            "position": q.position,
            "question_id": str(q.question_id),
            "kind": q.kind,
            "prompt": q.prompt,
            "difficulty": q.difficulty,
            "options": [{"id": o.id, "text": o.text} for o in q.options],
            "key": list(q.key),
            "explanation": q.explanation,
        }
        for q in items
    ]


def _questions(data: list[dict[str, Any]]) -> tuple[AttemptQuestion, ...]:
    return tuple(
        AttemptQuestion(
            position=q["position"],
            question_id=uuid.UUID(q["question_id"]),
            kind=q["kind"],
            prompt=q["prompt"],
            difficulty=q["difficulty"],
            options=tuple(Option(o["id"], o["text"]) for o in q["options"]),
            key=tuple(q["key"]),
            explanation=q["explanation"],
        )
        for q in data
    )


def _attempt(row: Any) -> Attempt:
    return Attempt(
        id=row.id,
        player_id=row.player_id,
        event_id=row.event_id,
        started_at=row.started_at,
        deadline=row.deadline,
        status=Status(row.status),
        questions=_questions(row.questions),
        completed_at=row.completed_at,
        correct_count=row.correct_count,
        reward=row.reward,
    )


def _answers(rows: Any) -> dict[int, Answer]:
    return {
        r.position: Answer(r.position, tuple(r.submitted), r.received_at, r.correct) for r in rows
    }


# The answer path's two reads, as SQL for one pipeline (SqlAttempts.locked_with_answers).
_LOCKED_ATTEMPT = f"SELECT {columns(attempts)} FROM attempts WHERE id = %s FOR UPDATE"
_ANSWERS = f"SELECT {columns(attempt_answers)} FROM attempt_answers WHERE attempt_id = %s"


def _playable_questions() -> Any:
    """The number of published (unretired) questions of an event's challenge, correlated
    with ``events``: what ``domain.attempt.start`` draws its five from."""
    return (
        select(func.count())
        .select_from(questions)
        .join(challenges, challenges.c.question_ids.has_key(cast(questions.c.id, String)))
        .where(challenges.c.id == events.c.challenge_id, questions.c.retired_at.is_(None))
        .correlate(events)
        .scalar_subquery()
    )


class SqlAttempts:
    def __init__(self, session: Session) -> None:
        self._session = session

    # -- eligibility -----------------------------------------------------------------

    def event_for_claim(self, event_id: uuid.UUID, claim: Claim) -> dict[str, Any] | None:
        here = point(claim.lat, claim.lon)
        row = self._session.execute(
            select(
                events.c.id,
                events.c.radius_m,
                events.c.starts_at,
                events.c.ends_at,
                events.c.challenge_id,
                events.c.retired_at,
                func.ST_Distance(events.c.geog, here).label("distance_m"),
                func.ST_DWithin(
                    events.c.geog, here, events.c.radius_m + BOUNDARY_TOLERANCE_M
                ).label("inside"),
            ).where(events.c.id == event_id)
        ).first()
        return dict(row._mapping) if row else None

    def nearby_events(self, lat: float, lon: float, now: datetime) -> list[dict[str, Any]]:
        """The nearest open events within NEARBY_M, nearest first.

        The index orders candidates (KNN ``<->``, on the sphere) so a dense city does not
        compute the spheroid distance of thousands of rows; the exact distance then orders
        twice as many candidates as are returned (docs/performance.md).
        """
        here = point(lat, lon)
        nearest = (
            select(events.c.id)
            .where(
                func.ST_DWithin(events.c.geog, here, NEARBY_M),
                events.c.retired_at.is_(None),
                events.c.starts_at <= now,
                events.c.ends_at > now,
                _playable_questions() >= QUESTIONS_PER_ATTEMPT,  # listed only if it can start
            )
            .order_by(events.c.geog.op("<->")(here))
            .limit(2 * NEARBY_LIMIT)
            .subquery()
        )
        rows = self._session.execute(
            select(
                events.c.id,
                events.c.name,
                events.c.description,
                func.ST_Y(func.ST_GeomFromWKB(func.ST_AsBinary(events.c.geog))).label("lat"),
                func.ST_X(func.ST_GeomFromWKB(func.ST_AsBinary(events.c.geog))).label("lon"),
                events.c.radius_m,
                events.c.starts_at,
                events.c.ends_at,
                func.ST_Distance(events.c.geog, here).label("distance_m"),
            )
            .join(nearest, nearest.c.id == events.c.id)
            .order_by("distance_m")
            .limit(NEARBY_LIMIT)
        ).all()
        return [dict(r._mapping) for r in rows]

    def events_within_radius(self, lat: float, lon: float) -> list[uuid.UUID]:
        """Events whose area contains the point: constant prefilter so the index is used."""
        here = point(lat, lon)
        rows = self._session.execute(
            select(events.c.id).where(
                and_(
                    func.ST_DWithin(events.c.geog, here, MAX_EVENT_RADIUS_M + BOUNDARY_TOLERANCE_M),
                    func.ST_DWithin(events.c.geog, here, events.c.radius_m + BOUNDARY_TOLERANCE_M),
                )
            )
        ).all()
        return [r.id for r in rows]

    def previous_claim(
        self, player_id: uuid.UUID, claim: Claim
    ) -> tuple[AcceptedClaim, float] | None:
        here = point(claim.lat, claim.lon)
        row = self._session.execute(
            select(
                func.ST_Y(func.ST_GeomFromWKB(func.ST_AsBinary(location_claims.c.geog))).label(
                    "lat"
                ),
                func.ST_X(func.ST_GeomFromWKB(func.ST_AsBinary(location_claims.c.geog))).label(
                    "lon"
                ),
                location_claims.c.accuracy_m,
                location_claims.c.acquired_at,
                func.ST_Distance(location_claims.c.geog, here).label("distance_m"),
            )
            .where(location_claims.c.player_id == player_id)
            .order_by(location_claims.c.acquired_at.desc())
            .limit(1)
        ).first()
        if row is None:
            return None
        return AcceptedClaim(row.lat, row.lon, row.accuracy_m, row.acquired_at), float(
            row.distance_m
        )

    def add_claim(self, player_id: uuid.UUID, claim: Claim, received_at: datetime) -> None:
        self._session.execute(
            insert(location_claims).values(
                player_id=player_id,
                geog=point(claim.lat, claim.lon),
                accuracy_m=claim.accuracy_m,
                acquired_at=claim.acquired_at,
                received_at=received_at,
            )
        )

    def published_questions(self, challenge_id: uuid.UUID) -> list[PublishedQuestion]:
        ids = self._session.execute(
            select(challenges.c.question_ids).where(challenges.c.id == challenge_id)
        ).scalar()
        if not ids:
            return []
        rows = self._session.execute(
            select(questions.c.id, questions.c.kind, questions.c.body).where(
                questions.c.id.in_([uuid.UUID(i) for i in ids]), questions.c.retired_at.is_(None)
            )
        ).all()
        return [PublishedQuestion(r.id, r.kind, r.body) for r in rows]

    # -- attempts ------------------------------------------------------------------

    def add_if_first(self, attempt: Attempt) -> bool:
        """Insert unless this player already has an attempt at this event (unique key)."""
        inserted = self._session.execute(
            pg_insert(attempts)
            .values(
                id=attempt.id,
                player_id=attempt.player_id,
                event_id=attempt.event_id,
                started_at=attempt.started_at,
                deadline=attempt.deadline,
                status=attempt.status.value,
                questions=_questions_json(attempt.questions),
            )
            .on_conflict_do_nothing(constraint="uq_attempts_player_event")
            .returning(literal(1))
        ).first()
        return inserted is not None

    def for_player_at_event(
        self, player_id: uuid.UUID, event_id: uuid.UUID, for_update: bool = False
    ) -> Attempt | None:
        query = select(attempts).where(
            attempts.c.player_id == player_id, attempts.c.event_id == event_id
        )
        row = self._session.execute(query.with_for_update() if for_update else query).first()
        return _attempt(row) if row else None

    def page_of_player(
        self, player_id: uuid.UUID, before: tuple[datetime, uuid.UUID] | None, limit: int
    ) -> list[dict[str, Any]]:
        """The player's attempts newest first (by start, then id), those before ``before``
        only: a summary each, never the questions (they hold the keys)."""
        query = (
            select(
                attempts.c.id,
                attempts.c.event_id,
                events.c.name.label("event_name"),
                attempts.c.status,
                attempts.c.started_at,
                attempts.c.deadline,
                attempts.c.completed_at,
                attempts.c.correct_count,
                attempts.c.reward,
            )
            .outerjoin(events, events.c.id == attempts.c.event_id)
            .where(attempts.c.player_id == player_id)
            .order_by(attempts.c.started_at.desc(), attempts.c.id.desc())
            .limit(limit)
        )
        if before is not None:
            query = query.where(tuple_(attempts.c.started_at, attempts.c.id) < tuple_(*before))
        return [dict(row._mapping) for row in self._session.execute(query)]

    def get(self, attempt_id: uuid.UUID, for_update: bool = False) -> Attempt | None:
        query = select(attempts).where(attempts.c.id == attempt_id)
        if for_update:
            query = query.with_for_update()
        row = self._session.execute(query).first()
        return _attempt(row) if row else None

    def locked_with_answers(
        self, attempt_id: uuid.UUID
    ) -> tuple[Attempt | None, dict[int, Answer]]:
        """The attempt under its row lock, and its answers read once the lock is held:
        one round trip (``shared.db.pipelined``) instead of two."""
        found, rows = pipelined(
            self._session, [(_LOCKED_ATTEMPT, (attempt_id,)), (_ANSWERS, (attempt_id,))]
        )
        if not found:
            return None, {}
        return _attempt(found[0]), _answers(rows)

    def answers(self, attempt_id: uuid.UUID) -> dict[int, Answer]:
        rows = self._session.execute(
            select(attempt_answers).where(attempt_answers.c.attempt_id == attempt_id)
        ).all()
        return _answers(rows)

    def add_answer(self, attempt_id: uuid.UUID, answer: Answer) -> None:
        self._session.execute(
            insert(attempt_answers).values(
                attempt_id=attempt_id,
                position=answer.position,
                submitted=list(answer.submitted),
                received_at=answer.received_at,
                correct=answer.correct,
            )
        )

    def save_completion(self, attempt: Attempt) -> None:
        self._session.execute(
            update(attempts)
            .where(attempts.c.id == attempt.id)
            .values(
                status=attempt.status.value,
                completed_at=attempt.completed_at,
                correct_count=attempt.correct_count,
            )
        )

    def record_reward(self, attempt_id: uuid.UUID, reward: dict[str, Any]) -> bool:
        """Keep the first reward the cards service reports for this attempt."""
        recorded = self._session.execute(
            update(attempts)
            .where(attempts.c.id == attempt_id, attempts.c.reward.is_(None))
            .values(reward=reward)
            .returning(attempts.c.id)
        ).first()
        return recorded is not None

    def due_for_expiry(self, now: datetime, limit: int) -> list[Attempt]:
        rows = self._session.execute(
            select(attempts)
            .where(attempts.c.status == Status.ACTIVE.value, attempts.c.deadline <= now)
            .order_by(attempts.c.deadline)
            .limit(limit)
            .with_for_update(skip_locked=True)
        ).all()
        return [_attempt(r) for r in rows]
