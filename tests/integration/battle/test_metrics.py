"""Battle's gauge: matches by game and status, counted from its database."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY

from services.battle import orm
from services.battle.metrics import measure_matches
from shared.clock import SystemClock
from shared.db import Database
from tests.integration.battle import support as support
from tests.integration.battle.support import player_with_deck

pytestmark = pytest.mark.integration

battle = support.battle
battle_engine = support.battle_engine
cards_engine = support.cards_engine
catalogue = support.catalogue
clock = support.clock
start_battle = support.start_battle


def matches(game, status):
    return REGISTRY.get_sample_value("deckyard_battle_matches", {"game": game, "status": status})


def test_matches_are_counted_by_game_and_status(
    battle, rpc, battle_engine, cards_engine, catalogue
):
    database = Database(battle_engine, orm.plumbing, now=SystemClock().now)
    measure_matches("battle", database)
    before = matches("quest", "active") or 0
    player_id, deck = player_with_deck(rpc, cards_engine, catalogue)
    view = battle.start_match(player_id=player_id, deck_id=deck["id"])
    measure_matches("battle", database)
    assert matches("quest", "active") == before + 1

    battle.forfeit(player_id=player_id, match_id=view["id"], expected_version=view["version"])
    measure_matches("battle", database)
    assert matches("quest", "active") == before
    assert matches("quest", "finished") >= 1
