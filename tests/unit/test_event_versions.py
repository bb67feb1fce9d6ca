"""Contracts with a new version: producers write it, consumers still read the old one,
upgraded to the new shape (a V1 message was written before the change, and may still be
in an outbox or a queue)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from shared.errors import InvalidInput
from shared.events import ATTEMPT_COMPLETED, REWARD_GRANTED, read_event

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
