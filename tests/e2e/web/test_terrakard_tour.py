"""A TerraKard player in a real browser: the starting collection, an attack deck within
the budget, an active defense plan, the arena, a whole attack and its replay."""

from __future__ import annotations

import pytest

from tests.e2e.platform.test_authorization_matrix import insert_terrakard_cards
from tests.e2e.web.conftest import run_journey
from tests.random_refs import random_sub

pytestmark = pytest.mark.e2e


def test_a_player_builds_a_deck_and_a_plan_and_attacks_from_the_arena(
    web_platform, web_api, settings
):
    insert_terrakard_cards(settings)
    # Someone in the arena: another player of level 1 with a starting collection.
    headers = {"Authorization": f"Bearer {web_api.token(random_sub('defender'))}"}
    assert web_api.request("GET", "/me", headers=headers).ok
    claimed = web_api.request("POST", "/terrakard/collection/start", headers=headers)
    assert claimed.status_code == 200, claimed.text
    run_journey("terrakard_tour", web_platform)
