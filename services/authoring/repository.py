"""Content, its audit log and the lifecycle's dependency questions, in PostgreSQL."""

from __future__ import annotations

import builtins
import uuid
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select, text, tuple_, update
from sqlalchemy.orm import Session

from services.authoring.domain import AuditEntry, Content, Referenced, State
from services.authoring.orm import content, content_audit
from services.authoring.purge import author_gate
from shared.content import Kind
from shared.db import Database, UnitOfWork
from shared.errors import Conflict
from shared.player_gate import PlayerGate


def _content(row: Any) -> Content:
    return Content(
        id=row.id,
        lineage_id=row.lineage_id,
        game=row.game,
        kind=row.kind,
        state=State(row.state),
        version=row.version,
        body=row.body,
        created_by=row.created_by,
        submitted_by=row.submitted_by,
        replaces=row.replaces,
        created_at=row.created_at,
        updated_at=row.updated_at,
        published_at=row.published_at,
        retired_at=row.retired_at,
    )


def _values(item: Content) -> dict[str, Any]:
    return {
        "lineage_id": item.lineage_id,
        "game": item.game,
        "kind": item.kind,
        "state": item.state.value,
        "version": item.version,
        "body": item.body,
        "name_key": item.name_key,
        "created_by": item.created_by,
        "submitted_by": item.submitted_by,
        "replaces": item.replaces,
        "created_at": item.created_at,
        "updated_at": item.updated_at,
        "published_at": item.published_at,
        "retired_at": item.retired_at,
    }


class SqlContentRepository:
    def __init__(self, session: Session) -> None:
        self._session = session

    def get(self, content_id: uuid.UUID, for_update: bool = False) -> Content | None:
        query = select(content).where(content.c.id == content_id)
        if for_update:
            query = query.with_for_update()
        row = self._session.execute(query).first()
        return _content(row) if row else None

    def reserve_name(self, item: Content) -> None:
        """Refuse a card name another lineage uses, in any state (retired names stay taken).

        A transaction-scoped advisory lock on the name serialises concurrent
        claims, so two drafts cannot take one name at once.
        """
        name_key = item.name_key
        if name_key is None:
            return
        self._session.execute(
            text("SELECT pg_advisory_xact_lock(hashtext(:name))"), {"name": name_key}
        )
        taken = self._session.execute(
            select(content.c.id)
            .where(content.c.name_key == name_key, content.c.lineage_id != item.lineage_id)
            .limit(1)
        ).first()
        if taken:
            raise Conflict("duplicate_name", "another card definition already has this name")

    def add(self, item: Content) -> None:
        self._session.execute(insert(content).values(id=item.id, **_values(item)))

    def save(self, item: Content) -> None:
        self._session.execute(
            update(content).where(content.c.id == item.id).values(**_values(item))
        )

    def audit(self, entry: AuditEntry) -> None:
        self._session.execute(
            insert(content_audit).values(
                content_id=entry.content_id,
                version=entry.version,
                actor=entry.actor,
                at=entry.at,
                action=entry.action,
                from_state=entry.from_state.value if entry.from_state else None,
                to_state=entry.to_state.value,
                reason=entry.reason,
            )
        )

    def audit_entries(self, content_id: uuid.UUID) -> list[AuditEntry]:
        rows = self._session.execute(
            select(content_audit)
            .where(content_audit.c.content_id == content_id)
            .order_by(content_audit.c.id)
        ).all()
        return [
            AuditEntry(
                r.content_id,
                r.version,
                r.actor,
                r.at,
                r.action,
                State(r.from_state) if r.from_state else None,
                State(r.to_state),
                r.reason,
            )
            for r in rows
        ]

    def list(
        self,
        kind: str | None,
        state: str | None,
        before: tuple[datetime, uuid.UUID] | None,
        limit: int,
    ) -> list[Content]:
        """Content newest first (by creation, then id), only what comes after ``before``
        in that order (a page's keyset, shared/pages.py); ``limit`` at most."""
        query = (
            select(content).order_by(content.c.created_at.desc(), content.c.id.desc()).limit(limit)
        )
        if before is not None:
            query = query.where(tuple_(content.c.created_at, content.c.id) < tuple_(*before))
        if kind:
            query = query.where(content.c.kind == kind)
        if state:
            query = query.where(content.c.state == state)
        return [_content(r) for r in self._session.execute(query).all()]

    def in_review_for(
        self, reviewer: str, after: tuple[datetime, uuid.UUID] | None, limit: int
    ) -> builtins.list[Content]:
        """The review queue (services/authoring/review.py): content in review that
        ``reviewer`` did not submit, oldest submission first (``updated_at``: nothing
        changes content in review but a transition), only what comes after ``after``
        in that order; ``limit`` at most."""
        query = (
            select(content)
            .where(content.c.state == State.IN_REVIEW.value, content.c.submitted_by != reviewer)
            .order_by(content.c.updated_at, content.c.id)
            .limit(limit)
        )
        if after is not None:
            query = query.where(tuple_(content.c.updated_at, content.c.id) > tuple_(*after))
        return [_content(r) for r in self._session.execute(query).all()]

    # -- TerraKard's knowledge questions, for battle (never for a client) ------------

    def questions_about(self, game: str, kind: str, lineage_ids: Iterable[str]) -> dict[str, Any]:
        """The newest published question of ``kind`` about each card lineage, by lineage."""
        wanted = [str(i) for i in lineage_ids]
        if not wanted:
            return {}
        about = content.c.body["card_lineage_id"].astext
        rows = self._session.execute(
            select(content.c.id, content.c.body, about.label("lineage"))
            .where(
                content.c.game == game,
                content.c.kind == kind,
                content.c.state == "published",
                about.in_(wanted),
            )
            .order_by(content.c.published_at)
        ).all()
        return {row.lineage: {"id": row.id, "body": row.body} for row in rows}

    def published_body(self, content_id: uuid.UUID, game: str, kind: str) -> Any:
        """The body of content of ``game`` and ``kind`` that was published (retired since
        or not), or None."""
        return self._session.execute(
            select(content.c.body).where(
                content.c.id == content_id,
                content.c.game == game,
                content.c.kind == kind,
                content.c.published_at.is_not(None),
            )
        ).scalar()

    # -- what the lifecycle asks about other content --------------------------------

    def referenced(self, ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, Referenced]:
        wanted = list(ids)
        if not wanted:
            return {}
        # FOR SHARE: a dependency cannot be retired while this transaction relies on it
        # (retirement locks its own row FOR UPDATE), nor can this one read a stale state.
        rows = self._session.execute(
            select(content.c.id, content.c.kind, content.c.state, content.c.body)
            .where(content.c.id.in_(wanted))
            .with_for_update(read=True)
        ).all()
        return {r.id: Referenced(r.id, r.kind, State(r.state), r.body) for r in rows}

    def published_events_using(self, challenge_id: uuid.UUID) -> int:
        return int(
            self._session.execute(
                select(func.count()).where(
                    content.c.kind == Kind.EVENT.value,
                    content.c.state == State.PUBLISHED.value,
                    content.c.body["challenge_id"].astext == str(challenge_id),
                )
            ).scalar_one()
        )

    def published_starters(self, kind: str, affinity: str | None) -> int:
        query = select(func.count()).where(
            content.c.kind == kind,
            content.c.state == State.PUBLISHED.value,
            content.c.body["starter"].as_boolean().is_(True),
        )
        if affinity is not None:
            query = query.where(content.c.body["affinity"].astext == affinity)
        return int(self._session.execute(query).scalar_one())

    def founding_name_key(self, lineage_id: uuid.UUID) -> str | None:
        """The name of a lineage's first version (its id is the lineage id)."""
        return self._session.execute(
            select(content.c.name_key).where(content.c.id == lineage_id)
        ).scalar()

    def published_challenges_using(self, question_id: uuid.UUID) -> Sequence[Referenced]:
        rows = self._session.execute(
            select(content.c.id, content.c.kind, content.c.state, content.c.body).where(
                content.c.kind == Kind.CHALLENGE.value,
                content.c.state == State.PUBLISHED.value,
                content.c.body["question_ids"].contains([str(question_id)]),
            )
        ).all()
        return [Referenced(r.id, r.kind, State(r.state), r.body) for r in rows]

    def published_events_using_any(self, challenge_ids: Iterable[uuid.UUID]) -> Sequence[uuid.UUID]:
        wanted = [str(i) for i in challenge_ids]
        return list(
            self._session.execute(
                select(content.c.id)
                .where(
                    content.c.kind == Kind.EVENT.value,
                    content.c.state == State.PUBLISHED.value,
                    content.c.body["challenge_id"].astext.in_(wanted),
                )
                .order_by(content.c.id)
            ).scalars()
        )

    def other_published_versions(self, item: Content) -> Sequence[Content]:
        """The lineage's published versions but ``item``, locked; the advisory lock on the
        lineage makes two replacements published at once supersede one another in turn."""
        self._session.execute(
            text("SELECT pg_advisory_xact_lock(hashtext(:lineage))"),
            {"lineage": f"lineage:{item.lineage_id}"},
        )
        rows = self._session.execute(
            select(content)
            .where(
                content.c.lineage_id == item.lineage_id,
                content.c.state == State.PUBLISHED.value,
                content.c.id != item.id,
            )
            .with_for_update()
        ).all()
        return [_content(r) for r in rows]


@dataclass
class AuthoringUnitOfWork:
    content: SqlContentRepository
    events: UnitOfWork
    authors: PlayerGate  # passed first by every write, keyed by the actor's subject


@contextmanager
def unit_of_work(db: Database) -> Iterator[AuthoringUnitOfWork]:
    with db.transaction() as tx:
        yield AuthoringUnitOfWork(SqlContentRepository(tx.session), tx, author_gate(tx.session))
