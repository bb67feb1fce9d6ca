"""A Chronovore player in a real browser: the library without an account, then signed in
the starting packs opened with their odds shown, a legal deck of 30, and a match against
the computer with a card locked in from the keyboard."""

from __future__ import annotations

import pytest

from tests.e2e.web.conftest import run_journey
from tests.helpers import wait_for

pytestmark = pytest.mark.e2e
CORE_SET = 120  # at least: the seed publishes the whole Core Set


def test_a_player_browses_the_library_opens_packs_builds_a_deck_and_plays(web_platform, web_api):
    wait_for(
        lambda: len(web_api.get("/chronovore/library").json()["items"]) >= CORE_SET, timeout=30
    )
    run_journey("chronovore_tour", web_platform)
