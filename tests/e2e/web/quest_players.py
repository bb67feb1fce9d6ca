"""Quest players for the browser journeys, prepared the server's way so a journey starts
where its screens begin: signed in by a development name (the page signs in as
``dev|<name>``), a starter chosen and saved as a legal deck over the API (as
tests/e2e/quest/test_battle_api.py's ``with_deck`` does), rather than built in the browser
again (the quest_tour journey does that)."""

from __future__ import annotations

from typing import Any

from tests.e2e.quest.test_cards_api import Player
from tests.e2e.web.chronovore_players import named_player


def with_deck(web_api: Any, prefix: str, affinity: str) -> tuple[str, Player]:
    """A named player whose starter of ``affinity`` is saved as a legal deck."""
    name, player = named_player(web_api, prefix)
    chosen = player.call("POST", "/quest/starter", json={"affinity": affinity})
    assert chosen.status_code == 201, chosen.text
    copies = [card["id"] for card in chosen.json()["cards"]]
    deck = player.call("POST", "/quest/decks", json={"name": "Versus deck", "cards": copies})
    assert deck.status_code == 201 and deck.json()["legal"], deck.text
    return name, player
