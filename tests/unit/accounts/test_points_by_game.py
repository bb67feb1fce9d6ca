"""Progression points by game: each entry is worth what its game's points table says,
and carries that game; a fake second game, registered here only, proves it."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from games.kit.progression import PointsTable
from games.quest.points import QUEST_POINTS
from services.accounts import domain
from shared.errors import InvalidInput

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
FAKE = PointsTable("duelkit", lambda correct: 3 * correct, lambda outcome: 7)


@pytest.fixture
def two_games(monkeypatch):
    monkeypatch.setattr(domain, "POINTS_TABLES", {"quest": QUEST_POINTS, "duelkit": FAKE})


def test_an_attempt_is_worth_what_its_game_s_table_says(two_games):
    quest = domain.attempt_entry(uuid.uuid4(), uuid.uuid4(), 4, NOW)
    other = domain.attempt_entry(uuid.uuid4(), uuid.uuid4(), 4, NOW, "duelkit")
    assert (quest.game, quest.points) == ("quest", 40)
    assert (other.game, other.points) == ("duelkit", 12)


def test_a_cpu_match_is_worth_what_its_game_s_table_says(two_games):
    entry = domain.cpu_match_entry(uuid.uuid4(), uuid.uuid4(), "defeat", NOW, "duelkit")
    assert (entry.game, entry.points, entry.reason) == ("duelkit", 7, "cpu_defeat")
    assert domain.cpu_match_entry(uuid.uuid4(), uuid.uuid4(), "victory", NOW).points == 25


def test_a_game_without_a_points_table_earns_no_entry():
    with pytest.raises(InvalidInput) as refused:
        domain.attempt_entry(uuid.uuid4(), uuid.uuid4(), 4, NOW, "duelkit")
    assert refused.value.code == "unknown_game"
