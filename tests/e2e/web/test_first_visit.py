"""A new player in a real browser: the development sign-in, the starter, the collection."""

from __future__ import annotations

import pytest

from tests.e2e.web.conftest import run_journey

pytestmark = pytest.mark.e2e


def test_a_new_player_signs_in_picks_a_starter_and_sees_the_collection(web_platform):
    run_journey("first_visit", web_platform)
