"""A TerraKard player in a real browser: the starting collection, an attack deck within
the budget, an active defense plan, the arena, a whole attack (the tutorial) and its
replay."""

from __future__ import annotations

import pytest

from tests.e2e.platform.test_authorization_matrix import insert_terrakard_cards
from tests.e2e.web.conftest import run_journey

pytestmark = pytest.mark.e2e


def test_a_player_builds_a_deck_and_a_plan_and_attacks_from_the_arena(web_platform, settings):
    insert_terrakard_cards(settings)
    run_journey("terrakard_tour", web_platform)
