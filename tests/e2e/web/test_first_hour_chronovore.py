"""Chronovore's first hour in a real browser on a touch phone, on a fresh install of its
own with nothing but what its seed publishes (conftest.fresh_web_platform): signed in, the
starting packs opened, a class deck, a whole match against the computer played by taps,
then the Golden pack (first_hour.py)."""

from __future__ import annotations

import pytest

from tests.e2e.web.conftest import run_journey

pytestmark = pytest.mark.e2e


def test_a_new_player_plays_chronovore_from_the_starting_packs_to_a_match_and_a_pack(
    fresh_web_platform,
):
    run_journey("chronovore_first_hour", fresh_web_platform)
