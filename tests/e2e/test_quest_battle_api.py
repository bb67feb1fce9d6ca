"""A player battles the CPU through the gateway: start, play to the end, points, history.

The battle service here draws its match seeds from ``ChosenSeed``: the victory test
plays the match out with the pure engine first (the same decks, the same greedy
choices) to choose a seed the player wins, so the +25 points path runs every time;
the server's match must then go exactly as that simulation did.
"""

import uuid
from datetime import UTC, datetime

import pytest

from services.battle import domain
from services.battle.domain import CPU_DECK
from services.battle.quest import Action, Phase, Side, new_match, view
from shared.config import SERVICE_NAMES
from tests.e2e import test_quest_cards_api as cards_api
from tests.e2e.test_me import assert_problem
from tests.e2e.test_quest_cards_api import Player
from tests.helpers import wait_for

pytestmark = pytest.mark.e2e

starters = cards_api.starters  # the published seed catalogue (fixture)


class ChosenSeed:
    """The battle service's random source: every match gets the seed the test set."""

    def __init__(self) -> None:
        self.seed = 1

    def seed_for_child(self) -> int:
        return self.seed


@pytest.fixture
def chosen_seed():
    return ChosenSeed()


@pytest.fixture
def platform(start_service, settings, chosen_seed):
    """As tests/e2e/conftest.py's, with the battle service on ``chosen_seed``."""
    containers = {
        name: start_service(
            name, replacements={"random": chosen_seed} if name == "battle" else None
        )
        for name in SERVICE_NAMES
    }
    containers["gateway"] = start_service("gateway", MAX_BODY_BYTES=settings.max_body_bytes)
    return containers


def with_deck(api, affinity="Wit"):
    """A new player with their starter saved as a deck: Creatures by name, then Power cards."""
    player = Player(api)
    grant = player.call("POST", "/quest/starter", json={"affinity": affinity}).json()
    cards = sorted(grant["cards"], key=lambda c: (c["kind"], c["name"]))
    copies = [c["id"] for c in cards]
    deck = player.call("POST", "/quest/decks", json={"name": "Battle", "cards": copies}).json()
    return player, deck


def winning_seed(api, deck):
    """A seed whose match the player wins with greedy choices, and that match's end,
    played on the pure engine with the decks the server will snapshot."""
    catalogue = api.get("/cards/catalogue?game=quest").json()
    by_id = {d["id"]: d for d in catalogue}
    player = domain.player_deck(
        [
            {**card, "definition": by_id[card["definition_id"]]["definition"]}
            for card in deck["cards"]
        ]
    )
    cpu = domain.cpu_deck(
        CPU_DECK,
        [d for d in catalogue if d["kind"] == "creature"],
        [d for d in catalogue if d["kind"] == "power_card"],
    )
    now = datetime(2026, 12, 1, tzinfo=UTC)  # no deadline passes: time changes nothing here
    for seed in range(1, 2000):
        state, _ = domain.cpu_replies(new_match(player, cpu, seed, now), now)
        while state.phase is not Phase.FINISHED:
            action = Action.from_dict(choose(view(state, Side.PLAYER)))
            state, _ = domain.play(state, Side.PLAYER, action, now)
        if state.winner is Side.PLAYER:
            return seed, state
    raise AssertionError("no seed lets this deck win")


def keyed(player, path, body, key):
    """POST with an Idempotency-Key header."""
    headers = {"Authorization": f"Bearer {player.token}", "Idempotency-Key": key}
    return player.api.request("POST", path, json=body, headers=headers)


def damage(view, action):
    """What a move of the active Creature deals, as authored (before modifiers)."""
    you = view["you"]
    move = you["creatures"][you["active"]]["moves"][action["index"]]
    return sum(e.get("amount", 0) for e in move["effects"] if e["type"] == "damage")


def choose(view):
    """A greedy player: the hardest-hitting move, else a Power card, else a selection."""
    legal = [a for a in view["legal_actions"] if a["kind"] != "forfeit"]
    moves = [a for a in legal if a["kind"] == "use_move"]
    if moves:
        return max(moves, key=lambda a: damage(view, a))
    for kind in ("play_power_card", "select_creature"):
        options = [a for a in legal if a["kind"] == kind]
        if options:
            return options[0]
    return legal[0]


def test_a_player_battles_the_cpu_to_the_end_and_a_victory_scores_25(api, starters, chosen_seed):
    player, deck = with_deck(api, "Grit")
    chosen_seed.seed, simulated = winning_seed(api, deck)
    started = player.call("POST", "/quest/battles", json={"deckId": deck["id"]})
    assert started.status_code == 201, started.text
    view = started.json()
    assert (view["status"], view["phase"], view["mode"]) == ("active", "initial_selection", "cpu")
    assert "seed" not in started.text and '"random"' not in started.text
    again = player.call("POST", "/quest/battles", json={"deckId": deck["id"]})
    assert assert_problem(again, 409, "active_match_exists")["match_id"] == view["id"]
    assert player.call("GET", "/quest/battles/active").json()["id"] == view["id"]

    path = f"/quest/battles/{view['id']}"
    for _ in range(300):
        if view["status"] == "finished":
            break
        body = {"expectedVersion": view["version"], "action": choose(view)}
        answer = player.call("POST", path + "/actions", json=body)
        assert answer.status_code == 200, answer.text
        assert answer.json()["version"] > view["version"] and answer.json()["events"]
        view = answer.json()
    assert (view["status"], view["outcome"]) == ("finished", "victory")
    assert view["version"] == simulated.version  # the server played the simulated match
    assert player.call("GET", path).json()["outcome"] == view["outcome"]
    assert_problem(player.call("GET", "/quest/battles/active"), 404, "no_active_match")

    # accounts applies MatchFinished: 25 points for a CPU victory (rulebook).
    wait_for(lambda: player.call("GET", "/me").json()["points"] == 25, timeout=20)
    progression = player.call("GET", "/me/progression").json()["entries"]
    assert [(e["source_id"], e["points"]) for e in progression] == [(view["id"], 25)]

    history = player.call("GET", path + "/history")
    assert history.status_code == 200
    entries = history.json()["entries"]
    assert [e["seq"] for e in entries] == list(range(1, view["version"] + 1))
    assert entries[0]["side"] == "cpu"  # the CPU selected first, at the start
    intruder = Player(api)
    for method, suffix in (("GET", ""), ("GET", "/history")):
        assert_problem(intruder.call(method, path + suffix), 404, "match_not_found")
    assert_problem(
        intruder.call("POST", path + "/forfeit", json={"expectedVersion": view["version"]}),
        404,
        "match_not_found",
    )


def test_refused_actions_change_nothing_and_a_retried_key_returns_the_first_answer(api, starters):
    player, deck = with_deck(api)
    view = player.call("POST", "/quest/battles", json={"deckId": deck["id"]}).json()
    path = f"/quest/battles/{view['id']}"

    select_0 = {"kind": "select_creature", "index": 0}
    cases = [
        ({"expectedVersion": 0, "action": select_0}, 409, "stale_version"),
        ({"expectedVersion": 1, "action": {"kind": "use_move", "index": 0}}, 409, "wrong_phase"),
        ({"expectedVersion": 1, "action": {"kind": "dance"}}, 422, "invalid_action"),
        ({"expectedVersion": 1, "action": {"kind": "swap"}}, 422, "invalid_action"),
        ({"expectedVersion": "1", "action": {"kind": "forfeit"}}, 422, "validation_failed"),
        ({"action": {"kind": "forfeit"}}, 422, "validation_failed"),
        ([], 422, "invalid_body"),
    ]  # fmt: skip
    for body, status, code in cases:
        assert_problem(player.call("POST", path + "/actions", json=body), status, code)
    assert player.call("GET", path).json() == view

    select = {"expectedVersion": 1, "action": {"kind": "select_creature", "index": 0}}
    key = f"select-{uuid.uuid4()}"
    first = keyed(player, path + "/actions", select, key)
    assert first.status_code == 200, first.text
    retried = keyed(player, path + "/actions", select, key)
    assert retried.status_code == 200 and retried.json() == first.json()
    in_body = player.call("POST", path + "/actions", json={**select, "idempotencyKey": key})
    assert in_body.json() == first.json()
    other = {**select, "action": {"kind": "select_creature", "index": 1}}
    reused = keyed(player, path + "/actions", other, key)
    assert_problem(reused, 422, "idempotency_key_reused")
    both = keyed(player, path + "/actions", {**select, "idempotencyKey": "other"}, key)
    assert_problem(both, 422, "idempotency_key_mismatch")

    version = first.json()["version"]
    forfeited = player.call("POST", path + "/forfeit", json={"expectedVersion": version})
    assert forfeited.status_code == 200, forfeited.text
    assert (forfeited.json()["status"], forfeited.json()["outcome"]) == ("finished", "forfeit")
    assert_problem(
        player.call("POST", path + "/forfeit", json={"expectedVersion": version + 1}),
        409,
        "match_finished",
    )


def test_battle_routes_need_a_player_and_a_deck_of_ones_own(api, starters):
    for method, path in (
        ("POST", "/quest/battles"),
        ("GET", "/quest/battles/active"),
        ("GET", f"/quest/battles/{uuid.uuid4()}"),
        ("POST", f"/quest/battles/{uuid.uuid4()}/actions"),
        ("GET", f"/quest/battles/{uuid.uuid4()}/history"),
    ):
        assert api.request(method, path).status_code == 401, (method, path)
    _, deck = with_deck(api)
    stranger = Player(api)
    refused = stranger.call("POST", "/quest/battles", json={"deckId": deck["id"]})
    assert_problem(refused, 404, "deck_not_found")
    assert_problem(
        stranger.call("POST", "/quest/battles", json={"deckId": "nope"}), 422, "validation_failed"
    )
