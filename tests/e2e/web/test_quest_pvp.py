"""Two Quest players, each in a browser of their own, on the real stack: an invitation sent
by the pseudonym the Versus lobby shows and accepted; both choose their first Creature on
the battle board, which names the other player (never the computer) and shows the 24-hour
decision window; one turn played, and the other player sees it through push."""

from __future__ import annotations

import pytest

from tests.e2e.web import quest_players
from tests.e2e.web.conftest import run_journey

pytestmark = [pytest.mark.e2e, pytest.mark.browser_full]


def test_two_players_invite_each_other_by_pseudonym_and_play_a_turn(web_platform, web_api):
    invited, _ = quest_players.with_deck(web_api, "web-q-invited", "Grit")
    inviter, _ = quest_players.with_deck(web_api, "web-q-inviter", "Wit")
    run_journey("quest_pvp", web_platform, invited, inviter)
