"""Helpers for Chronovore through the gateway (no tests here): the Core Set published,
a new player whose starting packs are opened (over RPC: the Packs routes are the
economy's) and a legal deck built from what they gave."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games.chronovore.collection import STARTING_PACKS
from games.chronovore.content import COPY_LIMIT, DECK_SIZE, Rarity
from tests.e2e.quest import test_cards_api as cards_api
from tests.e2e.quest.test_cards_api import Player
from tests.helpers import wait_for

STARTING = sum(quantity for _, quantity in STARTING_PACKS)
CPU_CLASS = "captain"  # the configured CPU deck's (services/battle/games/chronovore_cpu_decks.json)


@pytest.fixture
def core_set(api, starters):
    """The Core Set published by the seed (``starters`` runs it), as the library shows it."""
    wait_for(lambda: len(api.get("/chronovore/library").json()["items"]) >= 120, timeout=30)
    return {card["id"]: card for card in api.get("/chronovore/library").json()["items"]}


def starting_packs(rpc, player) -> list[str]:
    """The new player's unopened packs, once cards has welcomed them."""
    player_id = player.call("GET", "/me").json()["id"]
    inventory = wait_for(
        lambda: (
            (found := rpc.cards.pack_inventory(player_id=player_id, game="chronovore"))
            and len(found["packs"]) == STARTING
            and found
        ),
        timeout=30,
    )
    return [pack["id"] for pack in inventory["packs"]]


def open_all(rpc, player) -> None:
    player_id = player.call("GET", "/me").json()["id"]
    for n, pack_id in enumerate(starting_packs(rpc, player)):
        rpc.cards.open_pack(player_id=player_id, pack_id=pack_id, idempotency_key=f"open-{n}")


def legal_list(collection: dict[str, Any], library: dict[str, Any], avoid: str) -> list[str]:
    """30 owned copy ids of one class (not ``avoid``) plus Neutral within the copy limits
    and one Mythic, the class with the most to choose from."""
    best: list[str] = []
    classes = {c["definition"]["cardClass"] for c in library.values()} - {avoid, "neutral"}
    for card_class in sorted(classes):
        chosen: list[str] = []
        per_card: Counter[str] = Counter()
        mythics = 0
        for group in collection["definitions"]:
            card = library.get(group["definition"]["id"])
            if card is None or card["definition"]["cardClass"] not in (card_class, "neutral"):
                continue
            rarity = Rarity(card["rarity"])
            for copy in group["copies"]:
                name = card["name"]
                if rarity is Rarity.MYTHIC:
                    if mythics:
                        break
                    mythics += 1
                elif per_card[name] >= COPY_LIMIT[rarity]:
                    break
                per_card[name] += 1
                chosen.append(copy["id"])
        if len(chosen) > len(best):
            best = chosen
    assert len(best) >= DECK_SIZE, "the starting packs give a legal deck"
    return best[:DECK_SIZE]


def _post(player, path, body):
    """A POST by a ``Player`` or by the authorization matrix's caller (body positional)."""
    if isinstance(player, Player):
        return player.call("POST", path, json=body)
    return player.call("POST", path, body)


def player_with_deck(api, rpc, core_set, player=None, name="Field hospital"):
    """A new player (or ``player``), their starting packs opened, a legal deck saved:
    (player, deck)."""
    player = player or Player(api)
    open_all(rpc, player)
    collection = player.call("GET", "/chronovore/collection").json()
    cards = legal_list(collection, core_set, avoid=CPU_CLASS)
    answer = _post(player, "/chronovore/decks", {"name": name, "cards": cards})
    assert answer.status_code == 201, answer.text
    deck = answer.json()
    assert deck["legal"] is True and deck["problems"] == []
    return player, deck


starters = cards_api.starters  # the published seed catalogue (fixture)
