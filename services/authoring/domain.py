"""The content lifecycle: Draft -> In review -> Approved -> Published -> Retired.

Pure rules (rulebook, "Author content lifecycle"): who may move content
where, what must hold first, and what each step records. Every edit and
transition names the version it expects and writes one audit entry.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol

from games.quest.canonical import QUEST_CANONICAL, CanonicalCards
from games.quest.content import STARTER_AFFINITIES, STARTER_CREATURES_PER_AFFINITY, Rarity
from services.authoring import kinds
from shared.content import CARD_KINDS, QUESTION_KINDS, Kind
from shared.errors import Conflict, Forbidden, InvalidInput
from shared.events import (
    CONTENT_PUBLISHED,
    CONTENT_RETIRED,
    QUESTION_PUBLISHED,
    Event,
    new_event,
)

MAX_REASON = 1000


class State(StrEnum):
    DRAFT = "draft"
    IN_REVIEW = "in_review"
    APPROVED = "approved"
    PUBLISHED = "published"
    RETIRED = "retired"


ALLOWED = {
    (State.DRAFT, State.IN_REVIEW),  # submit
    (State.IN_REVIEW, State.APPROVED),  # approve (not by the submitter)
    (State.IN_REVIEW, State.DRAFT),  # return, with a reason (not by the submitter)
    (State.APPROVED, State.PUBLISHED),  # publish (any Author)
    (State.PUBLISHED, State.RETIRED),  # retire (any Author); never back
}


@dataclass(frozen=True)
class Content:
    id: uuid.UUID
    lineage_id: uuid.UUID
    game: str
    kind: str
    state: State
    version: int
    body: dict[str, Any]
    created_by: str
    submitted_by: str | None
    replaces: uuid.UUID | None
    created_at: datetime
    updated_at: datetime
    published_at: datetime | None = None
    retired_at: datetime | None = None

    @property
    def name_key(self) -> str | None:
        return kinds.card_name(self.kind, self.body, self.game)


@dataclass(frozen=True)
class AuditEntry:
    content_id: uuid.UUID
    version: int
    actor: str
    at: datetime
    action: str
    from_state: State | None
    to_state: State
    reason: str | None = None


@dataclass(frozen=True)
class Referenced:
    """What the lifecycle needs to know about a piece of content it depends on."""

    id: uuid.UUID
    kind: str
    state: State
    body: dict[str, Any]


class Dependencies(Protocol):
    def referenced(self, ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, Referenced]: ...

    def published_events_using(self, challenge_id: uuid.UUID) -> int: ...

    def published_starters(self, kind: str, affinity: str | None) -> int: ...

    def founding_name_key(self, lineage_id: uuid.UUID) -> str | None: ...

    def published_challenges_using(self, question_id: uuid.UUID) -> Sequence[Referenced]: ...

    def published_events_using_any(
        self, challenge_ids: Iterable[uuid.UUID]
    ) -> Sequence[uuid.UUID]: ...


def create(
    content_id: uuid.UUID,
    actor: str,
    kind: str,
    game: str,
    body: Any,
    now: datetime,
    replaces: Content | None = None,
) -> tuple[Content, AuditEntry]:
    loaded = kinds.load_body(kind, game, body)
    _require_weakening_replaces(loaded, replaces.id if replaces else None)
    if replaces is not None:
        if replaces.kind != kind or replaces.game != game:
            raise InvalidInput("invalid_replacement", "a replacement must be of the same kind")
        if replaces.state is not State.PUBLISHED:
            raise Conflict("invalid_replacement", "only published content can be replaced")
    content = Content(
        id=content_id,
        lineage_id=replaces.lineage_id if replaces else content_id,
        game=game,
        kind=kind,
        state=State.DRAFT,
        version=1,
        body=loaded,
        created_by=actor,
        submitted_by=None,
        replaces=replaces.id if replaces else None,
        created_at=now,
        updated_at=now,
    )
    return content, AuditEntry(content.id, 1, actor, now, "create", None, State.DRAFT)


def _require_weakening_replaces(body: dict[str, Any], replaces: uuid.UUID | None) -> None:
    """A card marked as a weakening (Chronovore: "For 7 days after a card is weakened") is
    a new version of a published card: only a replacement can carry the mark."""
    if body.get("weakening") and replaces is None:
        raise InvalidInput(
            "invalid_replacement", "only a replacement of a published card can be a weakening"
        )


def _check_version(content: Content, expected_version: int) -> None:
    if expected_version != content.version:
        raise Conflict(
            "stale_version",
            f"the content is at version {content.version}, not {expected_version}",
            {"currentVersion": content.version},
        )


def edit(
    content: Content, actor: str, expected_version: int, body: Any, now: datetime
) -> tuple[Content, AuditEntry]:
    _check_version(content, expected_version)
    if content.state is not State.DRAFT:
        raise Conflict("not_a_draft", f"only drafts can be edited; this is {content.state}")
    loaded = kinds.load_body(content.kind, content.game, body)
    _require_weakening_replaces(loaded, content.replaces)
    edited = replace(content, body=loaded, version=content.version + 1, updated_at=now)
    entry = AuditEntry(content.id, edited.version, actor, now, "edit", State.DRAFT, State.DRAFT)
    return edited, entry


def transition(
    content: Content,
    actor: str,
    to: str,
    expected_version: int,
    reason: str | None,
    now: datetime,
    dependencies: Dependencies,
    canonical: CanonicalCards = QUEST_CANONICAL,
) -> tuple[Content, AuditEntry, list[Event]]:
    try:
        target = State(to)
    except ValueError as exc:
        raise InvalidInput("unknown_state", f"{to!r} is not a lifecycle state") from exc
    _check_version(content, expected_version)
    source = content.state
    if (source, target) not in ALLOWED:
        if source is State.RETIRED:
            raise Conflict("retired_is_final", "retired content cannot be published again")
        raise Conflict("transition_not_allowed", f"content cannot go from {source} to {target}")
    reason = (reason or "").strip() or None
    if reason is not None and len(reason) > MAX_REASON:
        raise InvalidInput("reason_too_long", f"a reason has at most {MAX_REASON} characters")

    if source is State.IN_REVIEW and actor == content.submitted_by:
        raise Forbidden("own_submission", "another Author must approve or return your submission")
    if target is State.DRAFT and reason is None:
        raise InvalidInput("reason_required", "returning content to draft needs a reason")
    if target in (State.IN_REVIEW, State.APPROVED, State.PUBLISHED):
        _require_ready(content, dependencies)
    if target is State.RETIRED:
        _require_retirable(content, dependencies, canonical)

    moved = replace(
        content,
        state=target,
        version=content.version + 1,
        updated_at=now,
        submitted_by=actor if target is State.IN_REVIEW else content.submitted_by,
        published_at=now if target is State.PUBLISHED else content.published_at,
        retired_at=now if target is State.RETIRED else content.retired_at,
    )
    entry = AuditEntry(content.id, moved.version, actor, now, "transition", source, target, reason)
    return moved, entry, _events_of(moved, target, now)


def _require_ready(content: Content, dependencies: Dependencies) -> None:
    problems = kinds.readiness_problems(content.kind, content.game, content.body)
    problems += _dependency_problems(content.kind, content.body, dependencies)
    problems += _replacement_problems(content, dependencies)
    if problems:
        raise Conflict(
            "not_ready", "the content is not ready: " + "; ".join(problems), {"problems": problems}
        )


def _dependency_problems(kind: str, body: dict[str, Any], dependencies: Dependencies) -> list[str]:
    if kind == Kind.CHALLENGE:
        ids = [uuid.UUID(str(i)) for i in body.get("question_ids", [])]
        found = dependencies.referenced(ids)
        return [
            f"question {i} is not a published, valid question"
            for i in ids
            if not _usable(found.get(i), QUESTION_KINDS)
        ]
    if kind == Kind.EVENT:
        problems = []
        challenge_id = body.get("challenge_id")
        reward_id = body.get("reward_definition_id")
        wanted = [uuid.UUID(str(i)) for i in (challenge_id, reward_id) if i]
        found = dependencies.referenced(wanted)
        if challenge_id:
            challenge = found.get(uuid.UUID(str(challenge_id)))
            if not _usable(challenge, {Kind.CHALLENGE}):
                problems.append("the event's challenge is not a published, valid challenge")
            elif challenge and _dependency_problems(challenge.kind, challenge.body, dependencies):
                problems.append("the event's challenge depends on unavailable questions")
        if reward_id:
            reward = found.get(uuid.UUID(str(reward_id)))
            if not (
                _usable(reward, CARD_KINDS)
                and reward is not None
                and reward.body.get("rarity") == Rarity.COMMON
                and reward.body.get("reward_eligible")
                and not reward.body.get("evolved")
            ):
                problems.append("the reward is not an available published Common card")
        return problems
    if kind == Kind.CAMPAIGN:
        ids = [uuid.UUID(str(i)) for i in body.get("event_ids", [])]
        found = dependencies.referenced(ids)
        return [
            f"event {i} is not published" for i in ids if not _usable(found.get(i), {Kind.EVENT})
        ]
    return []


def _usable(item: Referenced | None, allowed_kinds: Iterable[str]) -> bool:
    return (
        item is not None
        and item.kind in set(allowed_kinds)
        and item.state is State.PUBLISHED
        and not kinds.readiness_problems(item.kind, "quest", item.body)
    )


def _replacement_problems(content: Content, dependencies: Dependencies) -> list[str]:
    """A replacement takes its original's place; a starter Creature's place needs a starter
    Creature of the same affinity (the starter set counts them by affinity)."""
    if content.replaces is None or content.kind != Kind.CREATURE:
        return []
    original = dependencies.referenced([content.replaces]).get(content.replaces)
    if original is None or not original.body.get("starter"):
        return []
    body = content.body
    if not (
        body.get("starter")
        and body.get("rarity") == Rarity.COMMON
        and body.get("affinity") == original.body.get("affinity")
        and not body.get("evolved")
    ):
        return [
            "a replacement of a starter Creature must be a Common starter Creature "
            f"of the same affinity ({original.body.get('affinity')})"
        ]
    return []


def _require_retirable(
    content: Content, dependencies: Dependencies, canonical: CanonicalCards
) -> None:
    if content.kind == Kind.CHALLENGE and dependencies.published_events_using(content.id):
        raise Conflict(
            "challenge_in_use", "a published event depends on this challenge; retire it first"
        )
    if content.kind in QUESTION_KINDS:
        _require_question_retirable(content, dependencies)
    if kinds.is_card(content.game, content.kind):
        dependents = _card_dependents(content, dependencies, canonical)
        if dependents:
            raise Conflict(
                "card_in_use",
                f"the {' and the '.join(dependents)} depend on this card: publish a "
                "replacement for it instead (it takes this card's place when published)",
                {"dependents": dependents},
            )


def _card_dependents(
    content: Content, dependencies: Dependencies, canonical: CanonicalCards
) -> list[str]:
    """What would lose this card, were it retired with no replacement taking its place.

    A published replacement retires its original itself (``supersede``); an explicit
    retirement therefore leaves the lineage with no active version at all.
    """
    founder = dependencies.founding_name_key(content.lineage_id)
    found = canonical.dependents(founder, kinds.name_key) if founder else []
    if content.kind == Kind.CREATURE and content.body.get("starter"):
        affinity = content.body.get("affinity")
        if affinity in STARTER_AFFINITIES and (
            dependencies.published_starters(content.kind, affinity) - 1
            < STARTER_CREATURES_PER_AFFINITY
        ):
            found.append(f"{affinity} starter set")
    return found


def _require_question_retirable(content: Content, dependencies: Dependencies) -> None:
    """A published challenge keeps at least five playable questions (the attempt needs five)."""
    short = []
    for challenge in dependencies.published_challenges_using(content.id):
        ids = [uuid.UUID(str(i)) for i in challenge.body.get("question_ids", [])]
        found = dependencies.referenced([i for i in ids if i != content.id])
        playable = sum(1 for i in found.values() if _usable(i, QUESTION_KINDS))
        if playable < kinds.MIN_CHALLENGE_QUESTIONS:
            short.append(challenge.id)
    if short:
        events = dependencies.published_events_using_any(short)
        raise Conflict(
            "question_in_use",
            f"{len(short)} published challenge(s) would keep fewer than "
            f"{kinds.MIN_CHALLENGE_QUESTIONS} playable questions "
            f"(used by {len(events)} published event(s)); retire those first",
            {"challenges": [str(i) for i in short], "events": [str(i) for i in events]},
        )


def supersede(
    original: Content, replacement: Content, actor: str, now: datetime
) -> tuple[Content, AuditEntry, list[Event]]:
    """The published ``replacement`` retires every other published version of its lineage:
    exactly one version of a card is active (issue 13). Owned copies, running matches and
    their snapshots keep the version they hold; retirement never touches them."""
    retired = replace(
        original, state=State.RETIRED, version=original.version + 1, updated_at=now, retired_at=now
    )
    entry = AuditEntry(
        original.id,
        retired.version,
        actor,
        now,
        "supersede",
        State.PUBLISHED,
        State.RETIRED,
        f"superseded by {replacement.id}",
    )
    return retired, entry, _events_of(retired, State.RETIRED, now)


def _events_of(content: Content, target: State, now: datetime) -> list[Event]:
    if target is State.PUBLISHED:
        events = [
            new_event(
                CONTENT_PUBLISHED,
                {
                    "content_id": content.id,
                    "lineage_id": content.lineage_id,
                    "kind": content.kind,
                    "game": content.game,
                    "version": content.version,
                    "published_at": now,
                    "snapshot": kinds.public_view(content.kind, content.game, content.body),
                    "replaces": content.replaces,
                },
                occurred_at=now,
            )
        ]
        if content.kind in QUESTION_KINDS:
            events.append(
                new_event(
                    QUESTION_PUBLISHED,
                    {
                        "content_id": content.id,
                        "kind": content.kind,
                        "game": content.game,
                        "version": content.version,
                        "published_at": now,
                        "body": content.body,
                    },
                    occurred_at=now,
                )
            )
        return events
    if target is State.RETIRED:
        data = {
            "content_id": content.id,
            "kind": content.kind,
            "game": content.game,
            "retired_at": now,
        }
        return [new_event(CONTENT_RETIRED, data, occurred_at=now)]
    return []
