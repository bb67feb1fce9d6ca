"""Quest's first hour in a real browser on a touch phone, on a fresh install of its own
with nothing but what its seed publishes (conftest.fresh_web_platform): signed in, the
starter, a deck, a battle against the computer to its end, the demo event's challenge and
the card it wins (first_hour.py)."""

from __future__ import annotations

import pytest

from tests.e2e.web.conftest import run_journey

pytestmark = pytest.mark.e2e


def test_a_new_player_plays_quest_from_the_starter_to_a_won_card(fresh_web_platform):
    run_journey("quest_first_hour", fresh_web_platform)
