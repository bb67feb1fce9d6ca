"""Challenge use cases: keeping the read model of published Quest content.

Challenges, events and campaigns are Quest's (rules/quest.txt): content of another
game is not ours, whatever its kind is called there.
"""

from __future__ import annotations

from typing import Any

from services.challenge.geo import point
from services.challenge.repository import TABLE_OF_KIND, ChallengeUnitOfWork
from shared.content import Game, Kind
from shared.events import Event

CONTENT_PUBLISHED_CONSUMER = "challenge.content_published"
QUESTION_PUBLISHED_CONSUMER = "challenge.question_published"
CONTENT_RETIRED_CONSUMER = "challenge.content_retired"


def _published_columns(data: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": data["content_id"],
        "version": data["version"],
        "published_at": data["published_at"],
    }


def record_published_content(event: Event, uow: ChallengeUnitOfWork) -> bool:
    """Challenges, events and campaigns from their public snapshots."""
    if not uow.inbox.first_delivery(event.event_id, CONTENT_PUBLISHED_CONSUMER):
        return False
    data = dict(event.data)
    kind, snapshot = data["kind"], data["snapshot"]
    if data["game"] != Game.QUEST:
        return False
    if kind == Kind.CHALLENGE:
        row = {"title": snapshot["title"], "question_ids": snapshot["question_ids"]}
    elif kind == Kind.EVENT:
        row = {
            "name": snapshot["name"],
            "description": snapshot.get("description", ""),
            "geog": point(snapshot["location"]["lat"], snapshot["location"]["lon"]),
            "radius_m": snapshot["radius_m"],
            "starts_at": snapshot["starts_at"],
            "ends_at": snapshot["ends_at"],
            "challenge_id": snapshot["challenge_id"],
            "reward_definition_id": snapshot["reward_definition_id"],
        }
    elif kind == Kind.CAMPAIGN:
        row = {"name": snapshot["name"], "event_ids": snapshot["event_ids"]}
    else:
        return False  # questions come complete in QuestionPublished; cards are not ours
    return uow.content.add(kind, {**_published_columns(data), **row})


def record_published_question(event: Event, uow: ChallengeUnitOfWork) -> bool:
    """A question with its private answer key, which only this service marks against."""
    if not uow.inbox.first_delivery(event.event_id, QUESTION_PUBLISHED_CONSUMER):
        return False
    data = dict(event.data)
    if data["game"] != Game.QUEST:
        return False
    row = {**_published_columns(data), "kind": data["kind"], "body": data["body"]}
    return uow.content.add(data["kind"], row)


def record_retired_content(event: Event, uow: ChallengeUnitOfWork) -> bool:
    if not uow.inbox.first_delivery(event.event_id, CONTENT_RETIRED_CONSUMER):
        return False
    kind = event.data["kind"]
    if event.data["game"] != Game.QUEST or kind not in TABLE_OF_KIND:
        return False
    return uow.content.retire(kind, event.data["content_id"], event.data["retired_at"])
