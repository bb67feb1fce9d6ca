"""Wallet, public odds, packs and the shop through the gateway (docs/economy.md)."""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.accounts.test_me import assert_problem
from tests.e2e.chronovore.support import STARTING
from tests.e2e.economy.support import (
    GAME,
    RARITIES,
    Player,
    grant_gold,
    grant_packs,
    key,
)
from tests.helpers import wait_for

pytestmark = pytest.mark.e2e


def welcomed(rpc, player) -> dict[str, int]:
    """The new player's starting packs (docs/chronovore.md), once cards has granted them
    (on PlayerRegistered): the counts the test's own grants add to."""
    found = wait_for(
        lambda: (
            (inventory := rpc.cards.pack_inventory(player_id=player.id, game=GAME))
            and len(inventory["packs"]) == STARTING
            and inventory
        ),
        timeout=30,
    )
    return counts(found)


def counts(inventory: dict) -> dict[str, int]:
    """Pack counts by kind: the RPC answers a map, the API a list (its keys are data)."""
    listed = inventory["counts"]
    if isinstance(listed, dict):
        return dict(listed)
    return {c["kind"]: c["count"] for c in listed}


def test_the_odds_are_public_and_only_games_with_an_economy_have_them(api):
    odds = api.get(f"/{GAME}/packs/odds")
    assert odds.status_code == 200, odds.text
    kinds = {kind["kind"]: kind for kind in odds.json()["items"]}
    assert set(kinds) == {"core", "golden", "diamond"}
    core = kinds["core"]
    assert core["price"] == {"currency": "gold", "amount": 10}
    assert core["finishOdds"] == {"plain": "19/20", "golden": "99/2000", "diamond": "1/2000"}
    assert set(core["slotRarityOdds"][0]) == RARITIES and core["floor"] == "uncommon"
    terrakard = {kind["kind"]: kind for kind in api.get("/terrakard/packs/odds").json()["items"]}
    assert set(terrakard) == {"gold", "silver", "bronze", "copper", "rampart"}
    assert terrakard["rampart"]["price"] == {"currency": "rampart_tokens", "amount": 5}
    assert_problem(api.get("/quest/packs/odds"), 404, "route_not_found")
    assert_problem(api.get(f"/{GAME}/packs"), 401, "missing_token")


def test_a_granted_pack_opens_once_and_a_retry_returns_the_same_opening(api, rpc, core_set):
    player, stranger = Player(api), Player(api)
    welcome = welcomed(rpc, player)
    first, second = grant_packs(rpc, player.id, 2)
    inventory = player.ok("GET", f"/{GAME}/packs")
    assert counts(inventory) == {**welcome, "core": welcome["core"] + 2}
    assert {first, second} <= {p["id"] for p in inventory["packs"]}

    opening_path = f"/{GAME}/packs/{first}/open"
    assert_problem(player.call("POST", opening_path), 422, "idempotency_key_required")
    # Another player's pack, or this pack under another game, answers as an unknown pack.
    theirs = stranger.call("POST", opening_path, key="same")
    unknown = stranger.call("POST", f"/{GAME}/packs/{uuid.uuid4()}/open", key="same")
    assert_problem(theirs, 404, "pack_not_found")
    # The same answer but for the id of the request it names.
    assert {**theirs.json(), "requestId": None} == {**unknown.json(), "requestId": None}
    assert_problem(
        player.call("POST", f"/terrakard/packs/{first}/open", key="k"), 404, "pack_not_found"
    )

    same = key()
    opened = player.ok("POST", opening_path, key=same)
    assert len(opened["cards"]) == 5 and opened["replayed"] is False
    assert {card["rarity"] for card in opened["cards"]} <= RARITIES
    assert any(card["rarity"] != "common" for card in opened["cards"])  # the floor
    assert opened["roll"]["nonce"] == 0 and opened["roll"]["purpose"] == "chronovore.pack.core"
    again = player.ok("POST", opening_path, key=same)
    assert (again["cards"], again["roll"], again["replayed"]) == (
        opened["cards"],
        opened["roll"],
        True,
    )
    assert_problem(player.call("POST", opening_path, key=key()), 409, "pack_already_opened")
    assert_problem(
        player.call("POST", f"/{GAME}/packs/{second}/open", key=same),
        422,
        "idempotency_key_reused",
    )
    assert player.ok("GET", "/me/fairness")["nonce"] == 1  # the retry took no nonce
    assert counts(player.ok("GET", f"/{GAME}/packs")) == {**welcome, "core": welcome["core"] + 1}
    [roll] = player.ok("GET", "/me/fairness/rolls")["items"]
    assert roll["source"] == {"type": "pack", "id": first} and roll["serverSeed"] is None


def test_buying_spends_the_price_together_or_changes_nothing(api, rpc):
    player = Player(api)
    welcome = welcomed(rpc, player)
    grant_gold(rpc, player.id, 15)
    wallet = player.ok("GET", f"/{GAME}/wallet")
    assert wallet["balances"] == [
        {"currency": "fragments", "balance": 0},
        {"currency": "gold", "balance": 15},
    ]
    history = player.ok("GET", f"/{GAME}/wallet/history")

    short = player.call("POST", f"/{GAME}/shop/packs", {"kind": "core", "quantity": 2}, key="b1")
    assert assert_problem(short, 409, "insufficient_funds")["balance"] == 15
    assert short.json()["needed"] == 20
    assert player.ok("GET", f"/{GAME}/wallet") == wallet
    assert player.ok("GET", f"/{GAME}/wallet/history") == history
    assert counts(player.ok("GET", f"/{GAME}/packs")) == welcome

    bought = player.call("POST", f"/{GAME}/shop/packs", {"kind": "core"}, key="b2")
    assert bought.status_code == 201, bought.text
    grant = bought.json()
    assert (grant["quantity"], grant["payment"]["amount"], grant["payment"]["balanceAfter"]) == (
        1,
        10,
        5,
    )
    retry = player.call("POST", f"/{GAME}/shop/packs", {"kind": "core"}, key="b2")
    assert retry.status_code == 200 and retry.json()["packs"] == grant["packs"]
    assert retry.json()["replayed"] is True
    assert_problem(
        player.call("POST", f"/{GAME}/shop/packs", {"kind": "core", "quantity": 2}, key="b2"),
        422,
        "idempotency_key_reused",
    )
    assert_problem(
        player.call("POST", f"/{GAME}/shop/packs", {"kind": "core"}),
        422,
        "idempotency_key_required",
    )
    assert_problem(
        player.call("POST", f"/{GAME}/shop/packs", {"kind": "nope"}, key="b3"),
        404,
        "unknown_pack_kind",
    )
    gold = player.ok("GET", f"/{GAME}/wallet")["balances"][1]
    assert gold == {"currency": "gold", "balance": 5}
    held = {p["id"] for p in player.ok("GET", f"/{GAME}/packs")["packs"]}
    assert set(grant["packs"]) <= held and len(held) == STARTING + len(grant["packs"])

    newest = player.ok("GET", f"/{GAME}/wallet/history?currency=gold&limit=1")
    assert [e["kind"] for e in newest["items"]] == ["spend"] and newest["next"]
    older = player.ok("GET", f"/{GAME}/wallet/history?limit=1&cursor={newest['next']}")
    assert [(e["kind"], e["amount"]) for e in older["items"]] == [("grant", 15)]
    assert_problem(
        player.call("GET", f"/{GAME}/wallet/history?currency=diamonds"), 422, "unknown_currency"
    )
