"""Chronovore through the gateway on the real stack: the public library, a new player's
starting packs, deck lists saved either way with their legal mark and problems, and a
whole match against the computer, locking in round after round (empty slots allowed);
the CPU's slotted cards never in a response before their pair resolves; the 2-minute
choosing step ended by the sweeper on a moved clock; leaving.

The battle service's clock is a ``FixedClock`` at ``T0``: time moves only when a test
moves it, so the choosing step's deadline is reached exactly and never slept through.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from nameko.testing.services import entrypoint_hook

from games.chronovore import Settings
from shared.clock import FixedClock
from shared.config import SERVICE_NAMES
from tests.e2e.accounts.test_me import assert_problem
from tests.e2e.chronovore import support
from tests.e2e.chronovore.support import STARTING, player_with_deck, starting_packs
from tests.e2e.quest.test_battle_api import assert_pages_of_own_matches, stop_sweeper
from tests.e2e.quest.test_cards_api import Player

pytestmark = pytest.mark.e2e

starters = support.starters  # the published seed catalogue (fixture)
core_set = support.core_set  # the Core Set as the library shows it (fixture)

T0 = datetime(2026, 12, 1, tzinfo=UTC)
CHOOSING = timedelta(seconds=Settings().choosing_seconds)  # rulebook: 2 minutes
TICK = timedelta(microseconds=1)


@pytest.fixture
def clock():
    return FixedClock(T0)


@pytest.fixture
def platform(start_service, settings, clock):
    """As tests/e2e/conftest.py's, with the battle service on ``clock``."""
    containers = {
        name: start_service(name, replacements={"clock": clock} if name == "battle" else None)
        for name in SERVICE_NAMES
    }
    containers["gateway"] = start_service("gateway", MAX_BODY_BYTES=settings.max_body_bytes)
    return containers


def stored_state(settings, match_id):
    """The engine state as battle keeps it (what the API must never show whole)."""
    engine = sa.create_engine(settings.database_url_for("battle"))
    try:
        with engine.connect() as conn:
            return conn.execute(
                sa.text("SELECT state FROM matches WHERE id = :id"), {"id": match_id}
            ).scalar_one()
    finally:
        engine.dispose()


def cpu_secrets(settings, match_id) -> list[str]:
    """The names of the CPU's cards in hand, deck and slots right now that the player's
    own deck does not hold (a new player's CPU plays Neutral cards: the training deck)."""
    state = stored_state(settings, match_id)

    def names(seat: str) -> set[str]:
        side = state["sides"][state["seats"].index(seat)]
        items = [*side["hand"], *side["deck"], *(s for s in side["slots"] if s is not None)]
        return {item["card"]["name"] for item in items}

    return sorted(names("cpu") - names("player"))


def send(player, view, action, key=None):
    headers = {"Authorization": f"Bearer {player.token}"}
    if key is not None:
        headers["Idempotency-Key"] = key
    body = {"expectedVersion": view["version"], "action": action}
    path = f"/chronovore/matches/{view['id']}/actions"
    return player.api.request("POST", path, headers=headers, json=body)


def start_with_cpu_cards(player, deck, settings, tries=30):
    """A started match whose CPU slotted cards in round 1 (it may lock an empty row when
    nothing in its hand is worth playing: then the player leaves and starts again, on a
    new seed)."""
    for _ in range(tries):
        started = player.call("POST", "/chronovore/matches", json={"deckId": deck["id"]})
        assert started.status_code == 201, started.text
        view = started.json()
        if "face_down" in view["opponent"]["slots"]:
            return started
        leave = {"expectedVersion": view["version"]}
        left = player.call("POST", f"/chronovore/matches/{view['id']}/leave", json=leave)
        assert left.status_code == 200, left.text
    raise AssertionError("the CPU played no card in round 1 of any match")


def test_the_library_is_public_and_a_new_player_starts_with_packs_not_cards(api, rpc, core_set):
    library = api.get("/chronovore/library")
    assert library.status_code == 200 and len(library.json()["items"]) >= 120
    assert library.json()["next"] is None  # the Core Set comes whole
    card = next(c for c in library.json()["items"] if c["name"] == "Dreadnought")
    assert card["definition"]["cardClass"] == "captain" and card["kind"] == "monster"
    player = Player(api)
    assert len(starting_packs(rpc, player)) == STARTING  # 30 Core Set + 1 Golden
    collection = player.call("GET", "/chronovore/collection").json()
    assert collection["totalCopies"] == 0  # "an empty collection"


def test_deck_lists_are_saved_either_way_and_only_a_legal_one_starts_a_match(api, rpc, core_set):
    player, deck = player_with_deck(api, rpc, core_set)
    short = deck["cards"][:29]
    wip = player.call(
        "POST", "/chronovore/decks", json={"name": "Half", "cards": [c["id"] for c in short]}
    )
    assert wip.status_code == 201, wip.text
    assert wip.json()["legal"] is False
    assert [p["code"] for p in wip.json()["problems"]] == ["deck_size"]
    assert_problem(
        player.call("POST", "/chronovore/matches", json={"deckId": wip.json()["id"]}),
        422,
        "deck_size",
    )
    edited = player.call(
        "PUT",
        f"/chronovore/decks/{wip.json()['id']}",
        json={"expectedVersion": 1, "cards": [c["id"] for c in deck["cards"]]},
    )
    assert edited.status_code == 200 and edited.json()["legal"] is True
    listed = player.call("GET", "/chronovore/decks").json()["items"]
    assert {d["id"] for d in listed} == {deck["id"], wip.json()["id"]}
    gone = player.call("DELETE", f"/chronovore/decks/{wip.json()['id']}?expectedVersion=2")
    assert gone.status_code == 204


def test_a_chronovore_deck_is_not_found_through_quest_s_routes(api, rpc, core_set):
    player, deck = player_with_deck(api, rpc, core_set)
    path = f"/quest/decks/{deck['id']}"
    assert_problem(player.call("GET", path), 404, "deck_not_found")
    renamed = player.call("PUT", path, json={"expectedVersion": 1, "name": "Quest now"})
    assert_problem(renamed, 404, "deck_not_found")
    assert_problem(player.call("DELETE", f"{path}?expectedVersion=1"), 404, "deck_not_found")
    battle = player.call("POST", "/quest/battles", json={"deckId": deck["id"]})
    assert_problem(battle, 404, "deck_not_found")
    unchanged = player.call("GET", f"/chronovore/decks/{deck['id']}").json()
    assert unchanged["name"] == deck["name"] and unchanged["version"] == 1


def test_a_whole_match_against_the_computer_through_the_api(api, rpc, core_set, settings, platform):
    stop_sweeper(platform["battle"])  # this test decides when time passes
    player, deck = player_with_deck(api, rpc, core_set)
    started = start_with_cpu_cards(player, deck, settings)
    view = started.json()
    assert (view["round"], view["status"], view["deadline"]) == (
        1,
        "active",
        (T0 + CHOOSING).isoformat(),
    )
    assert view["opponent"]["locked"] and "face_down" in view["opponent"]["slots"]
    again = player.call("POST", "/chronovore/matches", json={"deckId": deck["id"]})
    assert_problem(again, 409, "active_match_exists")
    # The CPU's cards stay face down: no answer names one before its pair resolves.
    hidden = cpu_secrets(settings, view["id"])
    assert hidden
    uid = view["you"]["hand"][0]["uid"]
    placed = send(player, view, {"kind": "place", "card": uid, "slot": 1}, key="place-1")
    assert placed.status_code == 200, placed.text
    assert send(player, view, {"kind": "place", "card": uid, "slot": 1}, key="place-1").json() == (
        placed.json()
    )
    assert_problem(send(player, view, {"kind": "lock"}), 409, "stale_version")
    answers = [
        started,
        placed,
        player.call("GET", f"/chronovore/matches/{view['id']}"),
        player.call("GET", f"/chronovore/matches/{view['id']}/history"),
        player.call("GET", "/chronovore/matches/active"),
    ]
    for answer in answers:
        assert answer.status_code in (200, 201), answer.text
        assert not [name for name in hidden if name in answer.text], answer.text
    view = placed.json()
    assert view["you"]["slots"][1]["uid"] == uid
    moved = send(player, view, {"kind": "move", "slot": 1, "to": 3}).json()
    back = send(player, moved, {"kind": "take_back", "slot": 3}).json()
    assert back["you"]["slots"] == [None] * 4
    # Lock in (empty slots are allowed) round after round until the match ends.
    view = back
    for _ in range(Settings().rounds):
        answer = send(player, view, {"kind": "lock"})
        assert answer.status_code == 200, answer.text
        view = answer.json()
        assert "heroes_entered" in [e["type"] for e in view["events"]]
        if view["status"] == "finished":
            break
    assert view["status"] == "finished" and view["result"] in ("win", "loss", "draw")
    assert view["legalActions"] == []
    history = player.call("GET", f"/chronovore/matches/{view['id']}/history").json()
    assert history["result"] == view["result"] and history["version"] == view["version"]
    assert all("card" not in e["action"] for e in history["entries"] if e["seat"] == "cpu")
    assert_problem(player.call("GET", "/chronovore/matches/active"), 404, "no_active_match")
    assert_problem(player.call("GET", f"/quest/battles/{view['id']}"), 404, "match_not_found")
    assert_problem(
        Player(api).call("GET", f"/chronovore/matches/{view['id']}"), 404, "match_not_found"
    )


def test_the_sweeper_locks_a_player_in_when_the_two_minutes_run_out(
    api, rpc, core_set, platform, clock
):
    stop_sweeper(platform["battle"])  # the test runs the sweeper itself, once per step
    player, deck = player_with_deck(api, rpc, core_set)
    view = player.call("POST", "/chronovore/matches", json={"deckId": deck["id"]}).json()
    uid = view["you"]["hand"][0]["uid"]
    view = send(player, view, {"kind": "place", "card": uid, "slot": 0}).json()

    def sweep():
        with entrypoint_hook(platform["battle"], "expire_overdue_turns") as run:
            run()
        return player.call("GET", f"/chronovore/matches/{view['id']}").json()

    clock.set(T0 + CHOOSING - TICK)
    assert sweep()["version"] == view["version"]  # not yet
    clock.set(T0 + CHOOSING)
    swept = sweep()
    assert swept["version"] > view["version"]
    assert swept["revealed"][0]["cards"]["player"]["uid"] == uid  # locked in as placed
    assert (swept["round"], swept["deadline"]) == (2, (T0 + 2 * CHOOSING).isoformat())
    history = player.call("GET", f"/chronovore/matches/{view['id']}/history").json()
    timed = [
        e for e in history["entries"] if e["seat"] == "player" and e["action"] == {"kind": "lock"}
    ]
    assert timed[0]["events"][0] == {"type": "locked", "seat": "player", "timedOut": True}
    assert timed[0]["at"] == (T0 + CHOOSING).isoformat()


def test_leaving_gives_the_computer_the_win(api, rpc, core_set):
    player, deck = player_with_deck(api, rpc, core_set)
    view = player.call("POST", "/chronovore/matches", json={"deckId": deck["id"]}).json()
    left = player.call(
        "POST", f"/chronovore/matches/{view['id']}/leave", json={"expectedVersion": view["version"]}
    )
    assert left.status_code == 200, left.text
    assert (left.json()["status"], left.json()["result"]) == ("finished", "left")
    assert left.json()["results"] == {"player": "left", "cpu": "win"}
    assert json.loads(left.text)["finishReason"] == "left"
    unknown = uuid.uuid4()
    assert_problem(
        player.call("POST", "/chronovore/matches", json={"deckId": str(unknown)}),
        404,
        "deck_not_found",
    )


def test_a_player_lists_their_own_matches_newest_first_a_page_at_a_time(api, rpc, core_set, clock):
    player, deck = player_with_deck(api, rpc, core_set)
    first = player.call("POST", "/chronovore/matches", json={"deckId": deck["id"]}).json()
    left = player.call(
        "POST",
        f"/chronovore/matches/{first['id']}/leave",
        json={"expectedVersion": first["version"]},
    )
    assert left.status_code == 200, left.text
    clock.advance(minutes=1)
    second = player.call("POST", "/chronovore/matches", json={"deckId": deck["id"]}).json()
    items = assert_pages_of_own_matches(
        api, player, "/chronovore/matches", [first, second], "result"
    )
    assert (items[0]["status"], items[0]["result"]) == ("active", None)
    assert (items[1]["status"], items[1]["result"]) == ("finished", "left")
    # Quest's list is another game's: a Chronovore match is not in it.
    assert player.call("GET", "/quest/battles").json() == {"items": [], "next": None}
