"""Chronovore players for the browser journeys, prepared the server's way so a journey
starts where its screens begin: signed in by a development name (the page signs in as
``dev|<name>``), the starting packs opened and a legal deck saved (over the API and RPC,
as tests/e2e/chronovore does), rather than 30 packs opened in the browser again (the
chronovore_tour journey does that)."""

from __future__ import annotations

import uuid
from typing import Any

from tests.e2e.chronovore import support
from tests.e2e.quest.test_cards_api import Player
from tests.helpers import wait_for

CORE_SET = 120  # at least: the seed publishes the whole Core Set


def core_set(web_api: Any) -> dict[str, Any]:
    """The Core Set as the library shows it, once the seed has published it."""
    wait_for(
        lambda: len(web_api.get("/chronovore/library").json()["items"]) >= CORE_SET, timeout=30
    )
    return {card["id"]: card for card in web_api.get("/chronovore/library").json()["items"]}


def named_player(web_api: Any, prefix: str) -> tuple[str, Player]:
    """A new player the browser can sign in as: (the name to type, the player's API)."""
    name = f"{prefix}-{uuid.uuid4().hex[:8]}"
    player = Player(web_api)
    player.token = web_api.token(f"dev|{name}")  # the sign-in page's subject for ``name``
    assert player.call("GET", "/me").status_code == 200
    return name, player


def with_deck(web_api: Any, rpc: Any, library: dict[str, Any], prefix: str) -> tuple[str, Player]:
    """A named player whose starting packs are opened and who has a legal deck saved."""
    name, player = named_player(web_api, prefix)
    support.player_with_deck(web_api, rpc, library, player, name="Versus deck")
    return name, player
