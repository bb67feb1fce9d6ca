"""A player's Quest in a real browser: starter, an event challenge at a granted position,
a deck that follows the 3 + 2 rule, and a CPU battle's first turn."""

from __future__ import annotations

import pytest

from tests.e2e.web.conftest import run_journey

pytestmark = pytest.mark.e2e


def test_a_player_takes_a_challenge_builds_a_deck_and_battles(web_platform):
    run_journey("quest_tour", web_platform)
