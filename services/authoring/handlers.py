"""Authoring use cases: plain functions over a unit of work."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.quest.canonical import QUEST_CANONICAL, CanonicalCards
from services.authoring import domain, kinds
from services.authoring.domain import AuditEntry, Content, State
from services.authoring.repository import AuthoringUnitOfWork
from shared.clock import Clock
from shared.errors import NotFound


@dataclass(frozen=True)
class CreateContent:
    actor: str
    kind: str
    game: str
    body: Any
    replaces: uuid.UUID | None = None


@dataclass(frozen=True)
class EditContent:
    actor: str
    content_id: uuid.UUID
    expected_version: int
    body: Any


@dataclass(frozen=True)
class TransitionContent:
    actor: str
    content_id: uuid.UUID
    to: str
    expected_version: int
    reason: str | None = None


def _existing(uow: AuthoringUnitOfWork, content_id: uuid.UUID, for_update: bool = False) -> Content:
    item = uow.content.get(content_id, for_update=for_update)
    if item is None:
        raise NotFound("content_not_found", "there is no such content")
    return item


def create_content(
    cmd: CreateContent,
    uow: AuthoringUnitOfWork,
    clock: Clock,
    new_id: Callable[[], uuid.UUID] = uuid.uuid4,
) -> Content:
    uow.authors.admit(cmd.actor)  # an author whose account is being deleted writes nothing
    replaced = _existing(uow, cmd.replaces) if cmd.replaces else None
    item, entry = domain.create(
        new_id(), cmd.actor, cmd.kind, cmd.game, cmd.body, clock.now(), replaces=replaced
    )
    uow.content.reserve_name(item)
    uow.content.add(item)
    uow.content.audit(entry)
    return item


def edit_content(cmd: EditContent, uow: AuthoringUnitOfWork, clock: Clock) -> Content:
    uow.authors.admit(cmd.actor)
    item = _existing(uow, cmd.content_id, for_update=True)
    edited, entry = domain.edit(item, cmd.actor, cmd.expected_version, cmd.body, clock.now())
    uow.content.reserve_name(edited)
    uow.content.save(edited)
    uow.content.audit(entry)
    return edited


def transition_content(
    cmd: TransitionContent,
    uow: AuthoringUnitOfWork,
    clock: Clock,
    canonical: CanonicalCards = QUEST_CANONICAL,
) -> Content:
    uow.authors.admit(cmd.actor)
    item = _existing(uow, cmd.content_id, for_update=True)
    now = clock.now()
    moved, entry, events = domain.transition(
        item, cmd.actor, cmd.to, cmd.expected_version, cmd.reason, now, uow.content, canonical
    )
    uow.content.save(moved)
    uow.content.audit(entry)
    if moved.state is State.PUBLISHED and kinds.is_card(moved.game, moved.kind):
        # Cards only: a question's replacement does not retire its original, which
        # published challenges may still list by id (README, "Authoring").
        for original in uow.content.other_published_versions(moved):
            superseded, superseded_entry, retired = domain.supersede(
                original, moved, cmd.actor, now
            )
            uow.content.save(superseded)
            uow.content.audit(superseded_entry)
            events += retired
    for event in events:
        uow.events.add_event(event)
    return moved


def get_content(content_id: uuid.UUID, uow: AuthoringUnitOfWork) -> Content:
    return _existing(uow, content_id)


def audit_of(content_id: uuid.UUID, uow: AuthoringUnitOfWork) -> list[AuditEntry]:
    _existing(uow, content_id)
    return uow.content.audit_entries(content_id)
