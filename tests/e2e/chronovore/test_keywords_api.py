"""Keywords through the gateway (rulebook: "Bold words on a card are keywords. Rest on
the card to read the definition."): each answer that shows a Chronovore card carries
its keywords, each with its definition: the library, the catalogue, a pack opening, the
collection, a deck list and a match's cards."""

from __future__ import annotations

import pytest

from tests.e2e.chronovore import support
from tests.e2e.chronovore.support import CPU_CLASS, legal_list, starting_packs
from tests.e2e.quest.test_cards_api import Player

pytestmark = pytest.mark.e2e

starters = support.starters  # the published seed catalogue (fixture)
core_set = support.core_set  # the Core Set as the library shows it (fixture)

INITIATIVE = {
    "keyword": "initiative",
    "name": "Initiative",
    "definition": "This monster strikes the hero first.",
}


def test_bandit_scout_shows_initiative_with_its_definition(api, core_set):
    scout = next(c for c in core_set.values() if c["name"] == "Bandit Scout")
    assert scout["definition"]["initiative"] is True
    assert scout["definition"]["keywords"] == [INITIATIVE]
    catalogue = api.get("/cards/catalogue", params={"game": "chronovore"})
    assert catalogue.status_code == 200, catalogue.text
    listed = next(c for c in catalogue.json()["items"] if c["name"] == "Bandit Scout")
    assert listed["definition"]["keywords"] == [INITIATIVE]
    initiative = [c for c in core_set.values() if c["definition"].get("initiative")]
    assert len(initiative) >= 7
    assert all(INITIATIVE in c["definition"]["keywords"] for c in initiative)


def test_opened_owned_and_played_cards_carry_their_keywords(api, rpc, core_set):
    keywords = {c["id"]: c["definition"]["keywords"] for c in core_set.values()}
    by_name = {c["name"]: c["definition"]["keywords"] for c in core_set.values()}
    player = Player(api)
    first, *rest = starting_packs(rpc, player)
    headers = {"Authorization": f"Bearer {player.token}", "Idempotency-Key": "keywords-1"}
    opened = api.request("POST", f"/chronovore/packs/{first}/open", headers=headers)
    assert opened.status_code in (200, 201), opened.text
    for card in opened.json()["cards"]:
        assert card["keywords"] == keywords[card["definitionId"]], card["name"]
    player_id = player.call("GET", "/me").json()["id"]
    for n, pack_id in enumerate(rest):
        rpc.cards.open_pack(player_id=player_id, pack_id=pack_id, idempotency_key=f"open-{n}")

    collection = player.call("GET", "/chronovore/collection").json()
    for group in collection["definitions"]:
        definition = group["definition"]
        assert definition["keywords"] == keywords[definition["id"]], definition["name"]

    cards = legal_list(collection, core_set, avoid=CPU_CLASS)
    deck = player.call("POST", "/chronovore/decks", json={"name": "Bold words", "cards": cards})
    assert deck.status_code == 201, deck.text
    for card in deck.json()["cards"]:
        assert card["keywords"] == keywords[card["definitionId"]], card["name"]
    view = player.call("POST", "/chronovore/matches", json={"deckId": deck.json()["id"]})
    assert view.status_code == 201, view.text
    hand = view.json()["you"]["hand"]
    assert hand
    for item in hand:
        assert item["card"]["keywords"] == by_name[item["card"]["name"]], item["card"]["name"]
