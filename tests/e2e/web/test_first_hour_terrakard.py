"""TerraKard's first hour in a real browser on a touch phone, on a fresh install of its
own with nothing but what its seed publishes, its demo defenders included
(conftest.fresh_web_platform): signed in, the starting collection, an attack deck, the
tutorial, an attack on a demo defender to its end and the victory pack opened
(first_hour.py)."""

from __future__ import annotations

import pytest

from tests.e2e.web.conftest import run_journey

pytestmark = pytest.mark.e2e


def test_a_new_player_plays_terrakard_from_the_collection_to_a_victory_pack(fresh_web_platform):
    run_journey("terrakard_first_hour", fresh_web_platform)
