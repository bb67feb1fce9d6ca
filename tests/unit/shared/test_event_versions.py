"""Contracts with a new version: producers write it, consumers still read the old one,
upgraded to the new shape (a V1 message was written before the change, and may still be
in an outbox or a queue)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from services.challenge import handlers as challenge_handlers
from services.challenge.repository import ChallengeUnitOfWork
from shared.errors import InvalidInput
from shared.events import (
    ATTEMPT_COMPLETED,
    CONTENT_PUBLISHED,
    CONTENT_RETIRED,
    QUESTION_PUBLISHED,
    REWARD_GRANTED,
    new_event,
    read_event,
)

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def message(type_: str, version: int, data: dict) -> dict:
    return {
        "event_id": str(uuid.uuid4()),
        "type": type_,
        "version": version,
        "occurred_at": NOW.isoformat(),
        "data": data,
    }


def attempt_v1() -> dict:
    return {
        "attempt_id": str(uuid.uuid4()),
        "player_id": str(uuid.uuid4()),
        "event_id": str(uuid.uuid4()),
        "correct_count": 4,
        "completed_at": NOW.isoformat(),
    }


def test_producers_write_the_new_versions():
    assert (ATTEMPT_COMPLETED.version, REWARD_GRANTED.version) == (2, 2)


def test_an_attempt_completed_v1_is_read_as_a_quest_attempt():
    event = read_event(ATTEMPT_COMPLETED, message("AttemptCompleted", 1, attempt_v1()))
    assert event.data["game"] == "quest"
    assert event.data["correct_count"] == 4


def test_an_attempt_completed_v2_needs_its_game():
    with pytest.raises(InvalidInput) as refused:
        read_event(ATTEMPT_COMPLETED, message("AttemptCompleted", 2, attempt_v1()))
    assert refused.value.code == "invalid_event"
    v2 = read_event(
        ATTEMPT_COMPLETED, message("AttemptCompleted", 2, {**attempt_v1(), "game": "terrakard"})
    )
    assert v2.data["game"] == "terrakard"


def test_a_version_no_consumer_reads_is_refused():
    with pytest.raises(InvalidInput) as refused:
        read_event(ATTEMPT_COMPLETED, message("AttemptCompleted", 3, attempt_v1()))
    assert refused.value.code == "unexpected_event"


def test_a_reward_granted_v1_is_read_with_quest_s_affinity_as_an_attribute():
    card = {
        "owned_card_id": str(uuid.uuid4()),
        "definition_id": str(uuid.uuid4()),
        "name": "Quillip",
        "kind": "creature",
        "rarity": "Common",
        "affinity": "Wit",
    }
    power = {**card, "kind": "power_card", "affinity": None}
    data = {
        "attempt_id": str(uuid.uuid4()),
        "player_id": str(uuid.uuid4()),
        "correct_count": 5,
        "cards": [card, power],
        "granted_at": NOW.isoformat(),
    }
    event = read_event(REWARD_GRANTED, message("RewardGranted", 1, data))
    assert event.data["game"] == "quest"
    assert [(c["finish"], c["attributes"]) for c in event.data["cards"]] == [
        ("standard", {"affinity": "Wit"}),
        ("standard", {}),
    ]
    assert all("affinity" not in c for c in event.data["cards"])


def test_a_question_published_v1_is_read_as_a_quest_question():
    data = {
        "content_id": str(uuid.uuid4()),
        "kind": "question",
        "version": 1,
        "published_at": NOW.isoformat(),
        "body": {"prompt": "?"},
    }
    event = read_event(QUESTION_PUBLISHED, message("QuestionPublished", 1, data))
    assert (event.data["game"], QUESTION_PUBLISHED.version) == ("quest", 2)


class _Inbox:
    def first_delivery(self, message_id, consumer):
        return True


class _RefusingContent:
    def add(self, kind, row):
        raise AssertionError("another game's content must not be kept")

    def retire(self, kind, content_id, at):
        raise AssertionError("another game's content must not be retired")


def test_challenge_keeps_quest_content_only():
    uow = ChallengeUnitOfWork(_RefusingContent(), _Inbox(), None, None, None)  # type: ignore[arg-type]
    other = {"content_id": uuid.uuid4(), "kind": "challenge", "game": "terrakard"}
    published = {**other, "lineage_id": other["content_id"], "version": 1, "published_at": NOW}
    assert not challenge_handlers.record_published_content(
        new_event(CONTENT_PUBLISHED, {**published, "snapshot": {"title": "t"}}, NOW), uow
    )
    assert not challenge_handlers.record_published_question(
        new_event(QUESTION_PUBLISHED, {**published, "kind": "question", "body": {}}, NOW), uow
    )
    assert not challenge_handlers.record_retired_content(
        new_event(CONTENT_RETIRED, {**other, "retired_at": NOW}, NOW), uow
    )
