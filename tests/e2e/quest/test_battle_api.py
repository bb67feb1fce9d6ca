"""A player battles the CPU through the gateway: start, play to the end, points, history.

The battle service here draws its match seeds from ``ChosenSeed``: the victory and
defeat tests play the match out with the pure engine first (the same decks, the same
greedy choices) to choose a seed the player wins (or loses), so each path runs every
time; the server's match must then go exactly as that simulation did. The battle
service's clock is a ``FixedClock`` at ``T0``: time moves only when a test moves it,
so deadlines are reached exactly and never slept through.
"""

import io
import secrets
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from eventlet.event import Event
from nameko.testing.utils import get_extension
from nameko.timer import Timer

from deckyard.verify import verify_file
from games.quest import Action, MatchState, Phase, Side, new_match, view
from games.quest.cpu import CPU_DECK
from gateway.casing import camelize, snakeize
from services.battle import host
from services.battle.games import quest
from shared.clock import FixedClock
from shared.config import SERVICE_NAMES
from tests.e2e.accounts.test_me import assert_problem
from tests.e2e.quest import test_cards_api as cards_api
from tests.e2e.quest.test_cards_api import Player
from tests.helpers import wait_for

pytestmark = pytest.mark.e2e

starters = cards_api.starters  # the published seed catalogue (fixture)

T0 = datetime(2026, 12, 1, tzinfo=UTC)  # the battle service's time until a test moves it
TURN = timedelta(seconds=90)  # rulebook: a normal player turn has a 90-second deadline
TICK = timedelta(microseconds=1)  # the clock's (and the stored deadline's) resolution


class ChosenSeed:
    """The battle service's random source: every match gets the seed the test set."""

    def __init__(self) -> None:
        self.seed = 1

    def seed_for_child(self) -> int:
        return self.seed

    def token_bytes(self, n: int) -> bytes:
        """A match seed's salt: random, as in production (only the seed is chosen)."""
        return secrets.token_bytes(n)


@pytest.fixture
def chosen_seed():
    return ChosenSeed()


@pytest.fixture
def clock():
    return FixedClock(T0)


@pytest.fixture
def platform(start_service, settings, chosen_seed, clock):
    """As tests/e2e/conftest.py's, with the battle service on ``chosen_seed`` and ``clock``."""
    battle = {"random": chosen_seed, "clock": clock}
    containers = {
        name: start_service(name, replacements=battle if name == "battle" else None)
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


def engine_decks(api, deck):
    """The player's and the CPU's engine decks, as the server will snapshot them.
    The engine reads the services' snake_case names, the API answers camelCase."""
    catalogue = snakeize(api.get("/cards/catalogue?game=quest").json()["items"])
    by_id = {d["id"]: d for d in catalogue}
    player = quest.player_deck(
        [
            {**card, "definition": by_id[card["definition_id"]]["definition"]}
            for card in snakeize(deck["cards"])
        ]
    )
    founded = [{**d, "lineage_name": d["name"]} for d in catalogue]  # the seed: first versions
    cpu = quest.cpu_deck(
        CPU_DECK,
        [d for d in founded if d["kind"] == "creature"],
        [d for d in founded if d["kind"] == "power_card"],
    )
    return player, cpu


def greedy_match(player, cpu, seed):
    """A whole match on the pure engine, the player choosing greedily, all at ``T0``
    (as on the server, whose clock stays there): every state the player sees, that is
    the start after the CPU's selection, then the state after each player request."""
    seats = quest.cpu_match_seats(uuid.uuid4(), uuid.uuid4(), 1)
    state, _ = host.cpu_replies(quest.HOSTED, seats, new_match(player, cpu, seed, T0), T0)
    seen = [state]
    while state.phase is not Phase.FINISHED:
        # choose reads views as the API shows them: camelCase
        action = Action.from_dict(choose(camelize(view(state, Side.PLAYER))))
        state, _ = host.play(quest.HOSTED, seats, state, Side.PLAYER, action, T0)
        seen.append(state)
    return seen


def find_seed(api, deck, wanted):
    """The first seed whose greedy match (``greedy_match``'s states) is ``wanted``."""
    player, cpu = engine_decks(api, deck)
    for seed in range(1, 2000):
        seen = greedy_match(player, cpu, seed)
        if wanted(seen):
            return seed, seen
    raise AssertionError("no seed gives such a match")


def winning_seed(api, deck):
    """A seed whose match the player wins with greedy choices, and that match's end,
    played on the pure engine with the decks the server will snapshot."""
    seed, seen = find_seed(api, deck, lambda seen: seen[-1].winner is Side.PLAYER)
    return seed, seen[-1]


def player_must_replace(state: MatchState) -> bool:
    """The player's active Creature was defeated in the CPU's turn: the player selects,
    then moves (the turn order continues)."""
    return (
        state.phase is Phase.MANDATORY_REPLACEMENT
        and Side.PLAYER in state.pending
        and state.turn is Side.PLAYER
    )


def send(player, view, action):
    """One action at the view's version, which the server must accept: its answer."""
    body = {"expectedVersion": view["version"], "action": action}
    answer = player.call("POST", f"/quest/battles/{view['id']}/actions", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def refused(player, view, action, status, code):
    """The action at the view's version is refused with ``code``, and nothing changed."""
    path = f"/quest/battles/{view['id']}"
    body = {"expectedVersion": view["version"], "action": action}
    problem = assert_problem(player.call("POST", path + "/actions", json=body), status, code)
    now = player.call("GET", path).json()
    assert now["version"] == view["version"] and now["legalActions"] == view["legalActions"]
    assert now["you"] == view["you"] and now["opponent"] == view["opponent"]
    return problem


def points_recorded(player, match_id, points):
    """Wait until accounts has applied the match's MatchFinished (its progression entry)."""
    wait_for(
        lambda: (
            [
                (e["sourceId"], e["points"])
                for e in player.call("GET", "/me/progression").json()["entries"]
            ]
            == [(match_id, points)]
        ),
        timeout=20,
    )


def stop_sweeper(battle):
    """Stop the battle service's sweeper (its nameko timer), which would time a turn out
    by itself once the clock reaches the deadline, racing the test's own request.

    The sweeper is tested in tests/integration/battle/test_lifecycle.py. A fresh stop
    event lets the container stop the timer again at teardown.
    """
    timer = get_extension(battle, Timer)
    timer.stop()
    timer.should_stop = Event()


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
    legal = [a for a in view["legalActions"] if a["kind"] != "forfeit"]
    moves = [a for a in legal if a["kind"] == "use_move"]
    if moves:
        return max(moves, key=lambda a: damage(view, a))
    for kind in ("play_power_card", "select_creature"):
        options = [a for a in legal if a["kind"] == kind]
        if options:
            return options[0]
    return legal[0]


def test_a_player_battles_the_cpu_to_the_end_and_a_victory_scores_25(
    api, starters, chosen_seed, tmp_path
):
    player, deck = with_deck(api, "Grit")
    chosen_seed.seed, simulated = winning_seed(api, deck)
    started = player.call("POST", "/quest/battles", json={"deckId": deck["id"]})
    assert started.status_code == 201, started.text
    view = started.json()
    assert (view["status"], view["phase"], view["mode"]) == ("active", "initial_selection", "cpu")
    # The seed is committed from this first answer, never shown while the match runs.
    commitment = view["fairness"]["commitment"]
    assert len(commitment) == 64 and view["fairness"]["seed"] is None
    assert '"random"' not in started.text
    again = player.call("POST", "/quest/battles", json={"deckId": deck["id"]})
    assert assert_problem(again, 409, "active_match_exists")["matchId"] == view["id"]
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
    assert [(e["sourceId"], e["points"]) for e in progression] == [(view["id"], 25)]

    history = player.call("GET", path + "/history")
    assert history.status_code == 200
    entries = history.json()["entries"]
    assert [e["seq"] for e in entries] == list(range(1, view["version"] + 1))
    assert entries[0]["side"] == "cpu"  # the CPU selected first, at the start
    # Over: the seed is revealed, and the history as downloaded replays offline.
    revealed = history.json()["fairness"]
    assert revealed["commitment"] == commitment and revealed["seed"] == str(chosen_seed.seed)
    exported = tmp_path / "match.json"
    exported.write_text(history.text, encoding="utf-8")
    report = io.StringIO()
    assert verify_file(exported, report) == 0, report.getvalue()
    assert "verified" in report.getvalue()
    intruder = Player(api)
    for method, suffix in (("GET", ""), ("GET", "/history")):
        assert_problem(intruder.call(method, path + suffix), 404, "match_not_found")
    assert_problem(
        intruder.call("POST", path + "/forfeit", json={"expectedVersion": view["version"]}),
        404,
        "match_not_found",
    )
    acting = {"expectedVersion": view["version"], "action": {"kind": "forfeit"}}
    assert_problem(intruder.call("POST", path + "/actions", json=acting), 404, "match_not_found")


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
    assert forfeited.json()["winner"] == "cpu"  # rulebook: a forfeit is a CPU victory
    assert_problem(player.call("GET", "/quest/battles/active"), 404, "no_active_match")
    points_recorded(player, view["id"], 0)  # a zero-point player result
    assert player.call("GET", "/me").json()["points"] == 0
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


def test_a_match_played_to_defeat_scores_nothing(api, starters, chosen_seed):
    player, deck = with_deck(api, "Wit")
    chosen_seed.seed, seen = find_seed(api, deck, lambda seen: seen[-1].winner is Side.CPU)
    view = player.call("POST", "/quest/battles", json={"deckId": deck["id"]}).json()
    path = f"/quest/battles/{view['id']}"
    for _ in range(300):
        if view["status"] == "finished":
            break
        view = send(player, view, choose(view))
    assert (view["status"], view["outcome"], view["winner"]) == ("finished", "defeat", "cpu")
    assert (view["phase"], view["finishReason"]) == ("finished", "all_defeated")
    assert view["version"] == seen[-1].version  # the server played the simulated match
    assert all(c["defeated"] for c in view["you"]["creatures"])
    assert view["opponent"]["creaturesLeft"] > 0
    assert view["legalActions"] == [] and view["deadline"] is None
    assert view["events"][-1] == {
        "type": "match_finished",
        "winner": "cpu",
        "reason": "all_defeated",
    }

    points_recorded(player, view["id"], 0)  # accounts applied MatchFinished: no points
    assert player.call("GET", "/me").json()["points"] == 0
    refused(player, view, {"kind": "forfeit"}, 409, "match_finished")
    assert_problem(player.call("GET", "/quest/battles/active"), 404, "no_active_match")
    history = player.call("GET", path + "/history").json()
    assert (history["outcome"], len(history["entries"])) == ("defeat", view["version"])
    again = player.call("POST", "/quest/battles", json={"deckId": deck["id"]})
    assert again.status_code == 201 and again.json()["id"] != view["id"]  # the next match


def test_an_action_at_the_90_second_deadline_is_a_timeout_and_one_before_is_applied(
    api, starters, platform, clock
):
    stop_sweeper(platform["battle"])  # this test reaches each deadline itself
    player, deck = with_deck(api, "Grit")
    view = player.call("POST", "/quest/battles", json={"deckId": deck["id"]}).json()
    assert view["deadline"] is None  # initial selection has no normal-turn deadline
    clock.advance(minutes=10)  # the player may take as long as they like to select
    view = send(player, view, {"kind": "select_creature", "index": 0})
    assert (view["phase"], view["yourTurn"]) == ("normal_turn", True)
    deadline = datetime.fromisoformat(view["deadline"])
    assert deadline == clock.now() + TURN

    # Illegal moves in a normal turn are refused and change nothing.
    active = view["you"]["active"]
    refused(player, view, {"kind": "swap", "index": active}, 409, "creature_already_active")
    refused(player, view, {"kind": "use_move", "index": 9}, 409, "unknown_move")
    refused(player, view, {"kind": "select_creature", "index": 1}, 409, "wrong_phase")

    # 1 µs before the deadline: the move is applied.
    clock.set(deadline - TICK)
    move = choose(view)
    assert move["kind"] == "use_move"
    applied = send(player, view, move)
    assert applied["events"][0]["type"] == "move_used" and applied["events"][0]["side"] == "player"
    assert not [e for e in applied["events"] if e["type"] == "timeout"]
    assert (applied["phase"], applied["yourTurn"]) == ("normal_turn", True), "the CPU replied"
    deadline = datetime.fromisoformat(applied["deadline"])
    assert deadline == clock.now() + TURN  # the player's next turn began with the CPU's reply

    # Exactly at the deadline: the same kind of request becomes a timeout.
    clock.set(deadline)
    move = choose(applied)
    late = send(player, applied, move)
    timeout = {"type": "timeout", "side": "player", "reason": "deadline", "replacedAction": move}
    assert late["events"][0] == timeout
    assert not [e for e in late["events"] if e["type"] == "move_used" and e["side"] == "player"]
    mine = applied["you"]["creatures"][applied["you"]["active"]]
    assert late["you"]["creatures"][applied["you"]["active"]]["power"] == mine["power"]  # unpaid
    assert late["version"] > applied["version"] + 1  # the timeout, then the CPU's turn
    entry = player.call("GET", f"/quest/battles/{view['id']}/history").json()["entries"]
    logged = next(e for e in entry if e["seq"] == applied["version"] + 1)
    assert (logged["side"], logged["action"]) == ("player", move)  # logged as submitted
    assert logged["events"][0] == timeout

    # A read resolves an abandoned turn too: not 1 µs before the deadline, at it.
    assert late["yourTurn"], "the CPU replied"
    deadline = datetime.fromisoformat(late["deadline"])
    clock.set(deadline - TICK)
    path = f"/quest/battles/{view['id']}"
    assert player.call("GET", path).json()["version"] == late["version"]
    clock.set(deadline)
    read = player.call("GET", path).json()
    assert read["version"] > late["version"]
    entries = player.call("GET", path + "/history").json()["entries"]
    passed = next(e for e in entries if e["seq"] == late["version"] + 1)
    assert (passed["side"], passed["action"]) == ("player", {"kind": "timeout"})
    assert passed["events"][0] == {"type": "timeout", "side": "player", "reason": "deadline"}
    stale = {"expectedVersion": late["version"], "action": move}  # the old view is stale now
    assert_problem(player.call("POST", path + "/actions", json=stale), 409, "stale_version")
    assert player.call("GET", path).json()["version"] == read["version"]


def test_after_its_creature_is_defeated_the_player_selects_a_replacement_first(
    api, starters, chosen_seed, clock
):
    player, deck = with_deck(api, "Spark")
    chosen_seed.seed, seen = find_seed(api, deck, lambda seen: any(map(player_must_replace, seen)))
    requests = next(n for n, state in enumerate(seen) if player_must_replace(state))
    view = player.call("POST", "/quest/battles", json={"deckId": deck["id"]}).json()
    for _ in range(requests):
        view = send(player, view, choose(view))
    assert view["version"] == seen[requests].version
    assert (view["phase"], view["status"], view["yourTurn"]) == (
        "mandatory_replacement",
        "active",
        False,
    )
    you = view["you"]
    assert you["mustSelect"] and you["active"] is None and view["deadline"] is None
    living = [c["index"] for c in you["creatures"] if not c["defeated"]]
    fallen = [c["index"] for c in you["creatures"] if c["defeated"]]
    assert living and fallen
    assert view["legalActions"] == [
        *({"kind": "select_creature", "index": i} for i in living),
        {"kind": "forfeit"},
    ]

    # Nothing else until the replacement is selected; a refusal changes nothing.
    for action in (
        {"kind": "use_move", "index": 0},
        {"kind": "play_power_card", "index": 0},
        {"kind": "swap", "index": living[0]},
        {"kind": "timeout"},
    ):
        refused(player, view, action, 409, "wrong_phase")
    refused(player, view, {"kind": "select_creature", "index": fallen[0]}, 409, "creature_defeated")
    refused(player, view, {"kind": "select_creature", "index": 7}, 409, "unknown_creature")
    stale = {
        "expectedVersion": view["version"] - 1,
        "action": {"kind": "select_creature", "index": living[0]},
    }
    path = f"/quest/battles/{view['id']}"
    assert_problem(player.call("POST", path + "/actions", json=stale), 409, "stale_version")
    clock.advance(minutes=30)  # a replacement has no normal-turn deadline
    assert player.call("GET", path).json()["version"] == view["version"]

    # The replacement does not use a normal turn: the turn that was next comes next.
    chosen = send(player, view, {"kind": "select_creature", "index": living[0]})
    assert chosen["you"]["active"] == living[0]
    kinds = [e["type"] for e in chosen["events"]]
    assert kinds[:2] == ["creature_chosen", "creatures_revealed"]
    started = next(e for e in chosen["events"] if e["type"] == "turn_started")
    assert (started["side"], started["turnNumber"]) == (view["turn"], view["turnNumber"])
    assert view["turn"] == "player"
    assert kinds[2:] == ["turn_started"]  # the CPU did not get a turn
    assert (chosen["phase"], chosen["yourTurn"]) == ("normal_turn", True)
    assert chosen["turnNumber"] == view["turnNumber"]
    assert chosen["version"] == view["version"] + 1
    assert datetime.fromisoformat(chosen["deadline"]) == clock.now() + TURN


def assert_pages_of_own_matches(api, player, path, matches, result_word):
    """``matches`` (oldest first) are all of ``player``'s at ``path``: newest first, one
    line each with no card, a page at a time; nobody else's list shows them."""
    listed = player.call("GET", path)
    assert listed.status_code == 200, listed.text
    items = listed.json()["items"]
    assert [m["id"] for m in items] == [m["id"] for m in reversed(matches)]
    assert listed.json()["next"] is None
    for line in items:
        assert set(line) == {
            "id", "mode", "deckId", "opponent", "status", result_word, "createdAt", "finishedAt",
        }  # fmt: skip
        assert (line["mode"], line["opponent"]) == ("cpu", "cpu")
    first = player.call("GET", f"{path}?limit=1").json()
    assert [m["id"] for m in first["items"]] == [matches[-1]["id"]]
    second = player.call("GET", f"{path}?limit=1&cursor={first['next']}").json()
    assert [m["id"] for m in second["items"]] == [matches[-2]["id"]]
    assert Player(api).call("GET", path).json() == {"items": [], "next": None}
    assert api.request("GET", path).status_code == 401
    far = "644302095255559369-" + "ab" * 16  # no match's time (beyond the year 9999)
    for query, code in (
        ("cursor=12-zz", "invalid_cursor"),
        (f"cursor={far}", "invalid_cursor"),
        ("limit=0", "validation_failed"),
        ("limit=101", "validation_failed"),
    ):
        assert_problem(player.call("GET", f"{path}?{query}"), 422, code)  # fmt: skip
    return items


def test_a_player_lists_their_own_battles_newest_first_a_page_at_a_time(api, starters, clock):
    player, deck = with_deck(api)
    first = player.call("POST", "/quest/battles", json={"deckId": deck["id"]}).json()
    over = {"expectedVersion": first["version"]}
    forfeited = player.call("POST", f"/quest/battles/{first['id']}/forfeit", json=over)
    assert forfeited.status_code == 200, forfeited.text
    clock.advance(minutes=1)
    second = player.call("POST", "/quest/battles", json={"deckId": deck["id"]}).json()
    items = assert_pages_of_own_matches(api, player, "/quest/battles", [first, second], "outcome")
    assert (items[0]["status"], items[0]["outcome"], items[0]["finishedAt"]) == (
        "active", None, None
    )  # fmt: skip
    assert (items[1]["status"], items[1]["outcome"]) == ("finished", "forfeit")
    assert items[1]["deckId"] == deck["id"] and items[1]["finishedAt"] is not None
