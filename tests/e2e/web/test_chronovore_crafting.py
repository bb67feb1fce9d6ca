"""A Chronovore player shreds and crafts in a real browser on the real stack: the prices
per rarity and finish, loose copies shredded (the Card Fragments each paid), a craft the
server refuses shown in its words, a Common card crafted; then an unopened Diamond pack
sold back for its price."""

from __future__ import annotations

import pytest

from tests.e2e.economy.support import grant_packs
from tests.e2e.web import chronovore_players
from tests.e2e.web.conftest import run_journey

pytestmark = [pytest.mark.e2e, pytest.mark.browser_full]


def test_a_player_shreds_loose_copies_crafts_a_card_and_sells_a_diamond_pack(
    web_platform, web_api, rpc
):
    library = chronovore_players.core_set(web_api)
    name, player = chronovore_players.with_deck(web_api, rpc, library, "web-crafter")
    player_id = player.call("GET", "/me").json()["id"]
    grant_packs(rpc, player_id, kind="diamond")
    run_journey("chronovore_crafting", web_platform, name)
