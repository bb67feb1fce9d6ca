"""Chronovore's economy through the gateway on the real stack (rules/chronovore.txt,
"Gold", "Shredding and crafting", "Diamond copies"): Gold for a match against the
computer played to its end and none for leaving, Gold for matches against players across
a UTC midnight, shredding and crafting in Card Fragments with their keys, crafts racing
at the copy limit, a card weakened by an author's replacement, the Diamond pack sold
back.

Battle, cards and authoring share one ``FixedClock``: time moves only when a test moves
it. Matches against another player are battle's (its PvP helper's work): their
MatchFinished is published here as battle publishes it, seats and results.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import eventlet
import pytest

from games.chronovore import Settings
from shared.clock import FixedClock
from shared.config import SERVICE_NAMES
from shared.events import MATCH_FINISHED, new_event
from tests.e2e.accounts.test_me import assert_problem
from tests.e2e.chronovore import support
from tests.e2e.chronovore.support import player_with_deck
from tests.e2e.economy.support import grant_fragments, grant_gold, grant_packs
from tests.helpers import publish_event, wait_for
from tests.random_refs import random_sub

pytestmark = pytest.mark.e2e

starters = support.starters  # the published seed catalogue (fixture)
core_set = support.core_set  # the Core Set as the library shows it (fixture)


def _ten_seconds_before_a_coming_midnight() -> datetime:
    """In the future of the real clock: the seed publishes the Core Set at real time, and
    a version published before another of its lineage is kept as already superseded (a
    fixed past date made the weakened replacement never active once that date passed)."""
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).date()
    return datetime(tomorrow.year, tomorrow.month, tomorrow.day, tzinfo=UTC) + timedelta(
        days=1, seconds=-10
    )


T0 = _ten_seconds_before_a_coming_midnight()
CLOCKED = {"battle", "cards", "authoring"}


@pytest.fixture
def clock():
    return FixedClock(T0)


@pytest.fixture
def platform(start_service, settings, clock):
    """As tests/e2e/conftest.py's, with battle, cards and authoring on ``clock``."""
    containers = {
        name: start_service(name, replacements={"clock": clock} if name in CLOCKED else None)
        for name in SERVICE_NAMES
    }
    containers["gateway"] = start_service("gateway", MAX_BODY_BYTES=settings.max_body_bytes)
    return containers


def key() -> str:
    return f"k-{uuid.uuid4().hex}"


def known(player):
    """The player with its id (for the server-side grants a test makes over RPC)."""
    player.id = player.call("GET", "/me").json()["id"]
    return player


def new_player(api):
    return known(support.Player(api))


def post(player, path, body=None, idempotency_key=None):
    headers = {"Authorization": f"Bearer {player.token}"}
    if idempotency_key is not None:
        headers["Idempotency-Key"] = idempotency_key
    extra = {} if body is None else {"json": body}
    return player.api.request("POST", path, headers=headers, **extra)


def wallet(player) -> dict[str, int]:
    found = player.call("GET", "/chronovore/wallet").json()["balances"]
    return {b["currency"]: b["balance"] for b in found}


def gold_entries(player) -> list[dict]:
    page = player.call("GET", "/chronovore/wallet/history?currency=gold").json()
    return list(reversed(page["items"]))


def play_to_the_end(player, deck) -> dict:
    """A match against the computer, locked in (empty slots) round after round."""
    view = player.call("POST", "/chronovore/matches", json={"deckId": deck["id"]}).json()
    for _ in range(Settings().rounds):
        body = {"expectedVersion": view["version"], "action": {"kind": "lock"}}
        answer = player.call("POST", f"/chronovore/matches/{view['id']}/actions", json=body)
        assert answer.status_code == 200, answer.text
        view = answer.json()
        if view["status"] == "finished":
            return view
    raise AssertionError("the match did not end after five rounds and the duel")


# -- Gold ----------------------------------------------------------------------------------


def test_gold_for_a_computer_game_played_to_its_end_and_none_for_leaving(api, rpc, core_set):
    player, deck = player_with_deck(api, rpc, core_set)
    assert wallet(player) == {"fragments": 0, "gold": 0}
    finished = play_to_the_end(player, deck)
    assert finished["result"] in ("win", "loss", "draw")
    wait_for(lambda: wallet(player)["gold"] == 1)
    [entry] = gold_entries(player)
    assert (entry["kind"], entry["amount"], entry["reason"]) == (
        "grant",
        1,
        f"cpu match {finished['result']}",
    )
    view = player.call("POST", "/chronovore/matches", json={"deckId": deck["id"]}).json()
    left = player.call(
        "POST", f"/chronovore/matches/{view['id']}/leave", json={"expectedVersion": view["version"]}
    )
    assert left.json()["result"] == "left"
    again = play_to_the_end(player, deck)  # the leave's event came first (one outbox)
    wait_for(lambda: wallet(player)["gold"] == 2)
    assert [e["reason"] for e in gold_entries(player)][-1] == f"cpu match {again['result']}"
    assert len(gold_entries(player)) == 2  # nothing for leaving


def finished_between(me, rival, result, at):
    other = {"win": "loss", "loss": "win", "draw": "draw", "left": "win"}[result]
    seats = [
        {"seat": "a", "kind": "player", "player_id": me.id, "result": result},
        {"seat": "b", "kind": "player", "player_id": rival.id, "result": other},
    ]
    data = {"match_id": uuid.uuid4(), "game": "chronovore", "mode": "pvp", "seats": seats,
            "finished_at": at}  # fmt: skip
    return new_event(MATCH_FINISHED, data, at)


def test_gold_against_players_with_the_daily_bonus_across_a_utc_midnight(api, settings):
    me, rival = new_player(api), new_player(api)
    last_second = T0 + timedelta(seconds=9)  # 23:59:59
    games = ["win", "draw", "loss", "left", "win", "win", "loss"]
    for played, result in enumerate(games, 1):
        publish_event(settings, finished_between(me, rival, result, last_second))
        wait_for(lambda played=played: len(gold_entries(rival)) == played)
    # me: win 3+5, draw 2+4, loss 1+3, left nothing (and no game counted), win 3+2, win
    # 3+1, loss 1 (the sixth completed game); rival: loss 1+5, draw 2+4, win 3+3, win by
    # the leave 3+2, loss 1+1, loss 1, win 3
    assert [e["amount"] for e in gold_entries(me)] == [8, 6, 4, 5, 4, 1]
    assert [e["amount"] for e in gold_entries(rival)] == [6, 6, 6, 5, 2, 1, 3]
    midnight = last_second + timedelta(seconds=1)  # the next UTC day: the bonus again
    publish_event(settings, finished_between(me, rival, "draw", midnight))
    wait_for(lambda: len(gold_entries(me)) == 7)
    assert gold_entries(me)[-1]["amount"] == 2 + 5
    wait_for(lambda: len(gold_entries(rival)) == 8)
    assert gold_entries(rival)[-1]["amount"] == 2 + 5
    assert wallet(me)["gold"] == 8 + 6 + 4 + 5 + 4 + 1 + 7


# -- shredding and crafting ----------------------------------------------------------------


def loose_copies(player, deck, core_set, rarity=None, finish="plain"):
    """The player's copies in no deck, of a finish (and rarity), as (copy id, card)."""
    in_deck = {card["id"] for card in deck["cards"]}
    collection = player.call("GET", "/chronovore/collection").json()
    return [
        (copy["id"], core_set[group["definition"]["id"]])
        for group in collection["definitions"]
        for copy in group["copies"]
        if group["definition"]["id"] in core_set  # a version replaced since is left out
        and copy["id"] not in in_deck
        and copy["finish"] == finish
        and (rarity is None or group["definition"]["rarity"] == rarity)
    ]


def held(player, card_id) -> int:
    collection = player.call("GET", "/chronovore/collection").json()
    return sum(g["count"] for g in collection["definitions"] if g["definition"]["id"] == card_id)


def test_shredding_and_crafting_in_card_fragments(api, rpc, core_set):
    prices = api.get("/chronovore/crafting").json()  # public
    assert prices["currency"] == "fragments" and prices["weakenedDays"] == 7
    table = {(p["rarity"], p["finish"]): (p["shred"], p["craft"]) for p in prices["prices"]}
    assert table[("mythic", "plain")] == (256, 1280) and table[("common", "golden")] == (4, 20)
    assert not [p for p in prices["prices"] if p["finish"] == "diamond"]

    player, deck = player_with_deck(api, rpc, core_set, new_player(api))
    (copy_id, card), *_ = loose_copies(player, deck, core_set, rarity="common")
    path = f"/chronovore/collection/{copy_id}/shred"
    assert_problem(post(player, path), 422, "idempotency_key_required")
    shredded = post(player, path, idempotency_key="shred-1")
    assert shredded.status_code == 200, shredded.text
    body = shredded.json()
    assert (body["action"], body["fragments"], body["name"]) == ("shred", 1, card["name"])
    assert body["entry"]["balanceAfter"] == 1 and body["replayed"] is False
    again = post(player, path, idempotency_key="shred-1").json()
    assert again["replayed"] is True and again["id"] == body["id"]
    assert_problem(post(player, path, idempotency_key="shred-2"), 404, "copy_not_found")
    in_deck = deck["cards"][0]["id"]
    assert_problem(
        post(player, f"/chronovore/collection/{in_deck}/shred", idempotency_key=key()),
        409,
        "copy_in_deck",
    )
    stranger = support.Player(api)
    (other_copy, _), *_ = loose_copies(player, deck, core_set)
    assert_problem(
        post(stranger, f"/chronovore/collection/{other_copy}/shred", idempotency_key=key()),
        404,
        "copy_not_found",
    )
    assert wallet(player)["fragments"] == 1

    wanted = next(c for c in sorted(core_set) if core_set[c]["rarity"] == "rare"
                  and held(player, c) == 0)  # fmt: skip
    craft = {"definitionId": wanted, "finish": "golden"}
    assert_problem(post(player, "/chronovore/craft", craft, key()), 409, "insufficient_funds")
    grant_fragments(rpc, player.id, 4 * 80 + 80 - 2)  # with the shred's 1: 79 after Golden
    made = post(player, "/chronovore/craft", craft, "craft-1")
    assert made.status_code == 201, made.text
    assert (made.json()["fragments"], made.json()["finish"]) == (320, "golden")
    retried = post(player, "/chronovore/craft", craft, "craft-1")
    assert retried.status_code == 200 and retried.json()["copyId"] == made.json()["copyId"]
    plain = {**craft, "finish": "plain"}
    assert_problem(post(player, "/chronovore/craft", plain, key()), 409, "insufficient_funds")
    grant_fragments(rpc, player.id, 1)
    assert post(player, "/chronovore/craft", plain, key()).status_code == 201  # 2 of 2
    assert_problem(post(player, "/chronovore/craft", plain, key()), 409, "craft_copy_limit")
    diamond = {**craft, "finish": "diamond"}
    assert_problem(post(player, "/chronovore/craft", diamond, key()), 422, "finish_not_craftable")
    assert wallet(player)["fragments"] == 0 and held(player, wanted) == 2


def test_crafts_racing_at_the_copy_limit_make_one_copy(api, rpc, core_set):
    player, _ = player_with_deck(api, rpc, core_set, new_player(api))
    wanted = next(c for c in sorted(core_set) if core_set[c]["rarity"] == "epic"
                  and held(player, c) == 0)  # fmt: skip
    grant_fragments(rpc, player.id, 5 * 320)
    body = {"definitionId": wanted, "finish": "plain"}
    pool = eventlet.GreenPool(6)
    answers = list(pool.imap(lambda _: post(player, "/chronovore/craft", body, key()), range(6)))
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [201, 409, 409, 409, 409, 409], [a.text for a in answers]
    assert {a.json()["code"] for a in answers if a.status_code == 409} == {"craft_copy_limit"}
    assert wallet(player)["fragments"] == 4 * 320 and held(player, wanted) == 1


def test_for_seven_days_after_an_author_weakens_a_card_its_shred_pays_the_crafting_cost(
    api, rpc, core_set, clock
):
    player, deck = player_with_deck(api, rpc, core_set)
    loose = loose_copies(player, deck, core_set, rarity="common")
    by_card: dict[str, list[str]] = {}
    for copy_id, card in loose:
        if card["kind"] == "monster" and card["definition"]["cardClass"] == "neutral":
            by_card.setdefault(card["id"], []).append(copy_id)
    card_id, copies = max(by_card.items(), key=lambda item: len(item[1]))
    assert len(copies) >= 2, "two loose copies of one Neutral Common monster"
    card = core_set[card_id]
    body = {k: v for k, v in card["definition"].items() if k != "keywords"}
    body.update(attack=max(0, body["attack"] - 1), weakening=True)
    author, reviewer = (api.token(random_sub(r), roles=["author"]) for r in ("a", "r"))
    created = api.request(
        "POST",
        "/authoring/content",
        headers={"Authorization": f"Bearer {author}"},
        json={"kind": "monster", "game": "chronovore", "body": body, "replaces": card_id},
    )
    assert created.status_code == 201, created.text
    path = f"/authoring/content/{created.json()['id']}/transitions"
    for token, to, version in ((author, "in_review", 1), (reviewer, "approved", 2),
                               (author, "published", 3)):  # fmt: skip
        moved = api.request("POST", path, headers={"Authorization": f"Bearer {token}"},
                            json={"to": to, "expectedVersion": version})  # fmt: skip
        assert moved.status_code == 200, moved.text
    new_id = created.json()["id"]
    # Publication crosses authoring's outbox and cards' consumer; on a loaded machine (two
    # shards on two cores) that took more than the default ten seconds once.
    library = "/chronovore/library"
    wait_for(lambda: new_id in {c["id"] for c in api.get(library).json()["items"]}, timeout=30)
    shredded = post(player, f"/chronovore/collection/{copies[0]}/shred", idempotency_key=key())
    assert (shredded.json()["fragments"], shredded.json()["weakened"]) == (5, True)
    clock.advance(days=7)  # "for 7 days": from the publication on, not after
    later = post(player, f"/chronovore/collection/{copies[1]}/shred", idempotency_key=key())
    assert (later.json()["fragments"], later.json()["weakened"]) == (1, False)
    assert_problem(
        post(player, "/chronovore/craft", {"definitionId": card_id, "finish": "plain"}, key()),
        409,
        "card_not_craftable",  # the weakened version replaced it: craft the new one
    )


# -- Diamond packs ------------------------------------------------------------------------


def test_an_unopened_diamond_pack_sells_back_for_its_full_price(api, rpc, core_set):
    player = new_player(api)
    odds = {kind["kind"]: kind for kind in api.get("/chronovore/packs/odds").json()["items"]}
    assert odds["diamond"]["sellBack"] is True and "sellBack" not in odds["core"]
    grant_gold(rpc, player.id, 2000)
    bought = post(player, "/chronovore/shop/packs", {"kind": "diamond"}, key())
    assert bought.status_code == 201, bought.text
    [pack_id] = bought.json()["packs"]
    assert wallet(player)["gold"] == 0
    sold = post(player, f"/chronovore/packs/{pack_id}/sell", idempotency_key="sell-1")
    assert sold.status_code == 200, sold.text
    assert (sold.json()["refund"]["amount"], sold.json()["refund"]["balanceAfter"]) == (2000, 2000)
    again = post(player, f"/chronovore/packs/{pack_id}/sell", idempotency_key="sell-1")
    assert again.json()["replayed"] is True and wallet(player)["gold"] == 2000
    assert_problem(
        post(player, f"/chronovore/packs/{pack_id}/sell", idempotency_key=key()),
        409,
        "pack_already_opened",
    )
    assert_problem(
        post(player, f"/chronovore/packs/{pack_id}/open", idempotency_key=key()),
        409,
        "pack_already_opened",
    )
    [core] = grant_packs(rpc, player.id)
    assert_problem(
        post(player, f"/chronovore/packs/{core}/sell", idempotency_key=key()),
        422,
        "pack_not_sellable",
    )
    assert pack_id not in {p["id"] for p in player.call("GET", "/chronovore/packs").json()["packs"]}
