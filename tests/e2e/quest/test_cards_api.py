"""A player chooses a starter, reads the collection and builds decks - via HTTP."""

import json
import uuid

import pytest

from services.authoring.orm import plumbing
from services.authoring.seed import SEED_DIR, seed
from shared.clock import SystemClock
from shared.db import Database, make_engine
from tests.e2e.accounts.test_me import assert_problem
from tests.helpers import wait_for
from tests.random_refs import random_sub

pytestmark = pytest.mark.e2e


REPLACEMENTS = json.loads((SEED_DIR / "quest_card_replacements.json").read_text(encoding="utf-8"))


def in_catalogue(api, name):
    return next(
        (d for d in api.get("/cards/catalogue?game=quest").json()["items"] if d["name"] == name),
        None,
    )


@pytest.fixture
def starters(api, settings):
    """The catalogue as `deckyard run` publishes it: the seed, through the lifecycle.

    (The starter Power cards have fixed names, unique for ever, so the tests cannot
    publish their own; the seed is idempotent, so every test may ask for it.)
    """
    engine = make_engine(settings.database_url_for("authoring"), pool_size=1)
    try:
        seed(Database(engine, plumbing, SystemClock().now), SystemClock())
    finally:
        engine.dispose()
    for name in ("Quillip", "Field Kit", "Reserve Focus"):
        wait_for(lambda name=name: in_catalogue(api, name), timeout=30)
    # The seed's replacements (docs/balance.md) supersede their founders: wait until the
    # cards service offers the new versions, so a test sees the numbers a match will use.
    for entry in REPLACEMENTS:
        wait_for(
            lambda body=entry["body"]: (
                (in_catalogue(api, body["name"]) or {}).get("definition", {}).get("hp")
                == body["hp"]
            ),
            timeout=30,
        )


class Player:
    def __init__(self, api):
        self.api = api
        self.token = api.token(random_sub())

    def call(self, method, path, **kwargs):
        headers = {"Authorization": f"Bearer {self.token}"}
        return self.api.request(method, path, headers=headers, **kwargs)


def test_the_catalogue_is_browsable_without_an_account(api, starters):
    response = api.get("/cards/catalogue?game=quest")
    assert response.status_code == 200
    assert any(d["name"] == "Field Kit" for d in response.json()["items"])
    assert response.json()["next"] is None  # the catalogue comes whole


def test_a_player_chooses_a_starter_once_and_builds_a_deck_from_it(api, starters):
    player = Player(api)
    assert_problem(player.call("GET", "/quest/starter"), 404, "starter_not_chosen")

    chosen = player.call("POST", "/quest/starter", json={"affinity": "Wit"})
    assert chosen.status_code == 201, chosen.text
    grant = chosen.json()
    assert grant["affinity"] == "Wit"
    assert sorted(c["kind"] for c in grant["cards"]) == ["creature"] * 3 + ["power_card"] * 2
    again = player.call("POST", "/quest/starter", json={"affinity": "Wit"})
    assert again.status_code == 200 and again.json() == grant
    other = player.call("POST", "/quest/starter", json={"affinity": "Grit"})
    assert_problem(other, 409, "starter_already_chosen")
    assert_problem(
        Player(api).call("POST", "/quest/starter", json={"affinity": "Mystic"}),
        422,
        "starter_affinity_not_offered",
    )

    collection = player.call("GET", "/quest/collection").json()
    assert collection["totalCopies"] == 5
    assert collection["starterAffinity"] == "Wit"

    copies = [c["id"] for c in grant["cards"]]
    created = player.call("POST", "/quest/decks", json={"name": "Starter", "cards": copies})
    assert created.status_code == 201, created.text
    deck = created.json()
    assert (deck["cost"], deck["legal"], deck["version"]) == (5, True, 1)
    assert player.call("GET", "/quest/decks").json()["items"] == [deck]

    renamed = player.call(
        "PUT", f"/quest/decks/{deck['id']}", json={"expectedVersion": 1, "name": "Walk"}
    )
    assert renamed.status_code == 200 and renamed.json()["version"] == 2
    stale = player.call(
        "PUT", f"/quest/decks/{deck['id']}", json={"expectedVersion": 1, "name": "Late"}
    )
    assert_problem(stale, 409, "stale_version")
    assert_problem(player.call("DELETE", f"/quest/decks/{deck['id']}"), 422, "validation_failed")
    deleted = player.call("DELETE", f"/quest/decks/{deck['id']}?expectedVersion=2")
    assert deleted.status_code == 204
    assert_problem(player.call("GET", f"/quest/decks/{deck['id']}"), 404, "deck_not_found")


def test_bad_deck_requests_get_clear_errors_and_change_nothing(api, starters):
    player, stranger = Player(api), Player(api)
    mine = [
        c["id"]
        for c in player.call("POST", "/quest/starter", json={"affinity": "Wit"}).json()["cards"]
    ]
    theirs = [
        c["id"]
        for c in stranger.call("POST", "/quest/starter", json={"affinity": "Wit"}).json()["cards"]
    ]

    cases = [
        ({"name": "Six", "cards": [*mine, theirs[0]]}, 422, "deck_size"),
        ({"name": "Four", "cards": mine[:4]}, 422, "deck_size"),
        ({"name": "Twice", "cards": [mine[0], *mine[:4]]}, 422, "deck_copy_repeated"),
        ({"name": "Theirs", "cards": [theirs[0], *mine[1:]]}, 422, "deck_copy_not_owned"),
        ({"name": "Unknown", "cards": [str(uuid.uuid4()), *mine[1:]]}, 422, "deck_copy_not_owned"),
        ({"name": "  ", "cards": mine}, 422, "deck_name_blank"),
        ({"name": "Bad", "cards": "all of them"}, 422, "validation_failed"),
        ({"name": "Bad", "cards": [1, 2, 3, 4, 5]}, 422, "validation_failed"),
        ({"cards": mine}, 422, "validation_failed"),
        ([], 422, "invalid_body"),
    ]
    for body, status, code in cases:
        assert_problem(player.call("POST", "/quest/decks", json=body), status, code)
    malformed = player.api.request(
        "POST",
        "/quest/decks",
        data=b"{not json",
        headers={"Authorization": f"Bearer {player.token}", "Content-Type": "application/json"},
    )
    assert_problem(malformed, 400, "malformed_json")
    assert player.call("GET", "/quest/decks").json()["items"] == []


def test_another_players_deck_is_404_for_every_verb(api, starters):
    owner, intruder = Player(api), Player(api)
    copies = [
        c["id"]
        for c in owner.call("POST", "/quest/starter", json={"affinity": "Wit"}).json()["cards"]
    ]
    deck = owner.call("POST", "/quest/decks", json={"name": "Mine", "cards": copies}).json()
    path = f"/quest/decks/{deck['id']}"
    assert_problem(intruder.call("GET", path), 404, "deck_not_found")
    assert_problem(
        intruder.call("PUT", path, json={"expectedVersion": 1, "name": "Stolen"}),
        404,
        "deck_not_found",
    )
    assert_problem(intruder.call("DELETE", path + "?expectedVersion=1"), 404, "deck_not_found")
    assert owner.call("GET", path).json() == deck


def test_card_routes_need_a_player(api):
    for method, path in (
        ("GET", "/quest/collection"),
        ("POST", "/quest/starter"),
        ("GET", "/quest/decks"),
        ("GET", "/me/progression"),
    ):
        response = api.request(method, path)
        assert response.status_code == 401, (method, path, response.text)
