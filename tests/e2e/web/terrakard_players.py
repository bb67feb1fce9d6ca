"""TerraKard players for the browser journeys, prepared the server's way (with
tests/e2e/terrakard/test_attack_api.py's player and tutorial): a defender with an active
saved plan, an attacker with a legal deck, both past the tutorial, and a whole attack
played over the API, so that a journey starts at the defense report and the attack's
history."""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

from tests.e2e.terrakard.test_attack_api import Player, past_the_tutorial
from tests.e2e.web.chronovore_players import named_player
from tests.e2e.web.terrakard_victory import POSTURE, RESERVE_CONDITION, certain_victory
from tests.helpers import wait_for


def signed_in_as_named(web_api: Any, prefix: str) -> tuple[str, Player]:
    """A new player the browser can sign in as (the name to type), and their API."""
    name, named = named_player(web_api, prefix)
    player = Player(web_api, prefix)
    player.token = named.token
    return name, player


def starting_cards(player: Player) -> list[dict[str, Any]]:
    """The starting collection, Commons first, once the published cards reached cards."""

    def claimed() -> Any:
        response = player.call("POST", "/terrakard/collection/start")
        return response.json() if response.status_code == 200 else None

    cards = wait_for(claimed, timeout=30)["cards"]
    return sorted(cards, key=lambda card: card["rarity"] != "Common")


def with_deck(web_api: Any, prefix: str) -> tuple[str, Player, list[dict[str, Any]], str]:
    """A named player with the starting collection and a legal attack deck of 8, past
    the tutorial: (name, API, cards, deck id)."""
    name, player = signed_in_as_named(web_api, prefix)
    cards = starting_cards(player)
    deck = player.ok(
        "POST", "/terrakard/decks", {"name": "Raid", "cards": [c["id"] for c in cards[:8]]}
    )
    assert deck["legal"], deck
    past_the_tutorial(player, deck["id"])
    return name, player, cards, deck["id"]


def with_plan(web_api: Any, prefix: str) -> tuple[str, Player]:
    """A named player past the tutorial whose saved plan (five rounds, a reserve for
    when the defense is low, cautious) is active."""
    name, player, cards, _ = with_deck(web_api, prefix)
    rounds, reserve = [c["id"] for c in cards[:5]], cards[5]["id"]
    plan = player.ok(
        "POST",
        "/terrakard/plans",
        {"name": "Wall", "rounds": rounds, "reserve": reserve, "condition": {"trigger": "low_hp"},
         "posture": "cautious", "activate": True},
    )  # fmt: skip
    assert plan["legal"] and plan["active"], plan
    return name, player


def with_a_certain_victory(
    web_api: Any, attacker_prefix: str, defender_prefix: str
) -> tuple[str, Player, str, Player, str]:
    """A defender whose active plan the attacker's new deck beats on every terrain
    (terrakard_victory.py proves it through the pure engine first), the attacker's
    knowledge questions off: (defender's name, API, attacker's name, API, deck id)."""
    defender, defender_api, defender_cards, _ = with_deck(web_api, defender_prefix)
    attacker, attacker_api, attacker_cards, _ = with_deck(web_api, attacker_prefix)
    budget = attacker_api.ok("GET", "/terrakard/collection")["budget"]["attack"]
    victory = certain_victory(attacker_cards, defender_cards, budget)
    plan = defender_api.ok(
        "POST",
        "/terrakard/plans",
        {"name": "Thin wall", "rounds": victory.rounds, "reserve": victory.reserve,
         "condition": RESERVE_CONDITION, "posture": POSTURE, "activate": True},
    )  # fmt: skip
    assert plan["legal"] and plan["active"], plan
    deck = attacker_api.ok("POST", "/terrakard/decks", {"name": "Sure", "cards": victory.deck})
    assert deck["legal"], deck
    attacker_api.ok("PUT", "/terrakard/settings", {"questions": False})
    return defender, defender_api, attacker, attacker_api, deck["id"]


def victory_pack(attacker: Player) -> dict[str, Any]:
    """The victory pack the attacker's last attack earned, once cards granted it."""

    def granted() -> Any:
        packs = attacker.ok("GET", "/terrakard/packs")["packs"]
        return packs[0] if packs else None

    return dict(wait_for(granted, timeout=30))


def pseudonym_of(player: Player) -> str:
    """The name the arena and the reports give the player (ours: from the account id)."""
    player_id = player.ok("GET", "/me")["id"]
    return "Keeper-" + hashlib.sha256(player_id.encode()).hexdigest()[:6]


def next_action(view: dict[str, Any]) -> dict[str, Any]:
    """Begin, answer the question with its first choice, or play the first legal card."""
    kinds = {a["kind"] for a in view["legalActions"]}
    if "begin" in kinds:
        return {"kind": "begin"}
    if "answer" in kinds:
        return {"kind": "answer", "choice": 0}
    return next(a for a in view["legalActions"] if a["kind"] == "play")


def attack_to_the_end(attacker: Player, deck_id: str, defender: Player) -> str:
    """The attacker attacks the defender from the arena and plays until the attack is
    over: the attack's id, once the defender's report is written."""
    targets = attacker.ok("GET", "/terrakard/arena")["items"]
    target = next(t for t in targets if t["pseudonym"] == pseudonym_of(defender))
    view = attacker.ok(
        "POST", "/terrakard/attacks", {"deckId": deck_id, "targetId": target["targetId"]}
    )
    attack = view["id"]
    for _ in range(30):  # begin, five rounds, a question: the engine ends it well before
        if view["status"] == "finished":
            break
        body = {"expectedVersion": view["version"], "action": next_action(view),
                "idempotencyKey": uuid.uuid4().hex}  # fmt: skip
        view = attacker.ok("POST", f"/terrakard/attacks/{attack}/actions", body)
    assert view["status"] == "finished", view

    def reported() -> bool:
        items = defender.ok("GET", "/terrakard/defense-reports")["items"]
        return any(r["matchId"] == attack for r in items)

    wait_for(reported, timeout=30)
    return str(attack)
