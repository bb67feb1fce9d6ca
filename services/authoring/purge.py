"""Account deletion in authoring: authored history stays, its author becomes nobody.

rules/quest.txt: published content stays "against a fresh profile-free historical
actor"; "retained Author history may use Deleted author". Authoring records actors
as Auth0 subjects (``content.created_by``, ``content.submitted_by``,
``content_audit.actor``). Each becomes one new historical actor id per deleted
account - so the history still shows that one person did these things, but not who -
and ``display_actor`` names it "Deleted author". Idempotent: a second request finds
the subject nowhere and answers again.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime

from sqlalchemy import update
from sqlalchemy.orm import Session

from services.authoring.orm import content, content_audit, purged_players
from services.authoring.review_records import forget_author
from shared.clock import Clock
from shared.db import UnitOfWork
from shared.events import Event
from shared.player_gate import SqlPlayerGate
from shared.purge import purge_once

SERVICE = "authoring"

HISTORICAL_ACTOR_PREFIX = "deleted-author|"  # ours: cannot be an Auth0 subject's provider
DELETED_AUTHOR = "Deleted author"


def author_gate(session: Session) -> SqlPlayerGate:
    """Authoring's gate, keyed by the author's subject (shared/player_gate.py)."""
    return SqlPlayerGate(session, SERVICE, purged_players)


def historical_actor(new_id: Callable[[], uuid.UUID] = uuid.uuid4) -> str:
    """A fresh actor id that belongs to no profile and links to nothing."""
    return f"{HISTORICAL_ACTOR_PREFIX}{new_id().hex}"


def is_historical(actor: str) -> bool:
    return actor.startswith(HISTORICAL_ACTOR_PREFIX)


def display_actor(actor: str) -> str:
    """How an actor is shown: a deleted author as "Deleted author", others as they are."""
    return DELETED_AUTHOR if is_historical(actor) else actor


def purge_personal_data(
    event: Event,
    tx: UnitOfWork,
    clock: Clock,
    new_id: Callable[[], uuid.UUID] = uuid.uuid4,
) -> bool:
    """Re-attribute the deleted account's authoring history and answer PersonalDataPurged,
    in one transaction; False for a message already applied."""
    return purge_once(
        SERVICE,
        event,
        tx,
        clock,
        lambda: purge_author(
            tx.session, event.data["auth0_sub"], historical_actor(new_id), clock.now()
        ),
    )


def purge_author(session: Session, sub: str, actor: str, now: datetime) -> None:
    # First: a write by this author now waits, then finds the tombstone.
    author_gate(session).seal(sub, now)
    reattribute(session, sub, actor)
    forget_author(session, sub)  # batch approvals' retry answers: no history


def reattribute(session: Session, sub: str, actor: str) -> None:
    session.execute(update(content).where(content.c.created_by == sub).values(created_by=actor))
    session.execute(update(content).where(content.c.submitted_by == sub).values(submitted_by=actor))
    session.execute(update(content_audit).where(content_audit.c.actor == sub).values(actor=actor))
