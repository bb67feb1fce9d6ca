"""Two Chronovore players, each in a browser of their own, on the real stack: the queue
joined and left, an invitation by the pseudonym the lobby shows cancelled, one declined,
one accepted; the match played on the same lock-in row as against the computer (a card
placed from the keyboard and locked in on both sides, round 1 resolved on both screens,
each told of the other's lock through push), until it resolves with results that agree."""

from __future__ import annotations

import pytest

from tests.e2e.web import chronovore_players
from tests.e2e.web.conftest import run_journey

pytestmark = [pytest.mark.e2e, pytest.mark.browser_full]


def test_two_players_invite_each_other_by_pseudonym_and_play_to_the_end(web_platform, web_api, rpc):
    library = chronovore_players.core_set(web_api)
    invited, _ = chronovore_players.with_deck(web_api, rpc, library, "web-invited")
    inviter, _ = chronovore_players.with_deck(web_api, rpc, library, "web-inviter")
    run_journey("chronovore_pvp", web_platform, invited, inviter)
