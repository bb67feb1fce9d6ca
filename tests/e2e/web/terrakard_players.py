"""TerraKard players for the browser journeys, prepared the server's way (as
tests/e2e/terrakard/test_attack_api.py does): a defender with an active saved plan, an
attacker with a legal deck, both past the tutorial, and a whole attack played over the
API, so that a journey starts at the defense report and the attack's history."""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

from tests.e2e.quest.test_cards_api import Player
from tests.e2e.web.chronovore_players import named_player
from tests.helpers import wait_for


def ok(player: Player, method: str, path: str, body: Any = None) -> Any:
    response = player.call(method, path, **({} if body is None else {"json": body}))
    assert response.ok, (method, path, response.status_code, response.text)
    return response.json() if response.content else None


def starting_cards(player: Player) -> list[dict[str, Any]]:
    """The starting collection, Commons first, once the published cards reached cards."""

    def claimed() -> Any:
        response = player.call("POST", "/terrakard/collection/start")
        return response.json() if response.status_code == 200 else None

    cards = wait_for(claimed, timeout=30)["cards"]
    return sorted(cards, key=lambda card: card["rarity"] != "Common")


def past_the_tutorial(player: Player, deck_id: str) -> None:
    """The tutorial (a first attack against the training plan), given up at once."""
    started = ok(player, "POST", "/terrakard/tutorial", {"deckId": deck_id})
    body = {"expectedVersion": started["version"], "action": {"kind": "give_up"}}
    assert ok(player, "POST", f"/terrakard/attacks/{started['id']}/actions", body)["status"] == (
        "finished"
    )


def with_deck(web_api: Any, prefix: str) -> tuple[str, Player, list[dict[str, Any]], str]:
    """A named player with the starting collection and a legal attack deck of 8, past
    the tutorial: (name, API, cards, deck id)."""
    name, player = named_player(web_api, prefix)
    cards = starting_cards(player)
    deck = ok(
        player, "POST", "/terrakard/decks", {"name": "Raid", "cards": [c["id"] for c in cards[:8]]}
    )
    assert deck["legal"], deck
    past_the_tutorial(player, deck["id"])
    return name, player, cards, deck["id"]


def with_plan(web_api: Any, prefix: str) -> tuple[str, Player]:
    """A named player past the tutorial whose saved plan (five rounds, a reserve for
    when the defense is low, cautious) is active."""
    name, player, cards, _ = with_deck(web_api, prefix)
    plan = ok(
        player,
        "POST",
        "/terrakard/plans",
        {
            "name": "Wall",
            "rounds": [c["id"] for c in cards[:5]],
            "reserve": cards[5]["id"],
            "condition": {"trigger": "low_hp"},
            "posture": "cautious",
            "activate": True,
        },
    )
    assert plan["legal"] and plan["active"], plan
    return name, player


def pseudonym_of(player: Player) -> str:
    """The name the arena and the reports give the player (ours: from the account id)."""
    player_id = ok(player, "GET", "/me")["id"]
    return "Keeper-" + hashlib.sha256(player_id.encode()).hexdigest()[:6]


def attack_to_the_end(attacker: Player, deck_id: str, defender: Player) -> str:
    """The attacker attacks the defender from the arena and plays every round (the first
    legal card; the question answered with its first choice): the attack's id, once the
    defender's report is written."""
    targets = ok(attacker, "GET", "/terrakard/arena")["items"]
    target = next(t for t in targets if t["pseudonym"] == pseudonym_of(defender))
    view = ok(
        attacker,
        "POST",
        "/terrakard/attacks",
        {"deckId": deck_id, "targetId": target["targetId"]},
    )
    attack = view["id"]
    for _ in range(30):
        if view["status"] == "finished":
            break
        kinds = {a["kind"] for a in view["legalActions"]}
        if "begin" in kinds:
            action: dict[str, Any] = {"kind": "begin"}
        elif "answer" in kinds:
            action = {"kind": "answer", "choice": 0}
        else:
            action = next(a for a in view["legalActions"] if a["kind"] == "play")
        view = ok(
            attacker,
            "POST",
            f"/terrakard/attacks/{attack}/actions",
            {
                "expectedVersion": view["version"],
                "action": action,
                "idempotencyKey": uuid.uuid4().hex,
            },
        )
    assert view["status"] == "finished", view

    def reported() -> bool:
        items = ok(defender, "GET", "/terrakard/defense-reports")["items"]
        return any(r["matchId"] == attack for r in items)

    wait_for(reported, timeout=30)
    return str(attack)
