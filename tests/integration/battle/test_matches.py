"""Quest CPU matches over RPC on real PostgreSQL and RabbitMQ: start, act, refusals."""

from __future__ import annotations

import uuid
from datetime import timedelta

import eventlet
import pytest
from nameko.standalone.rpc import ClusterRpcProxy

from games.quest import Action, Side, replay
from games.quest import MatchState as State
from shared.errors import Conflict, InvalidInput, NotFound
from tests.integration.battle import support as support
from tests.integration.battle.support import (
    OTHER_CREATURES,
    PLAYER_CARDS,
    action_rows,
    finished_events,
    give,
    match_row,
    playable,
    player_with_deck,
    seat_rows,
    stored,
)

pytestmark = pytest.mark.integration

# The fixtures of battle/support.py, where pytest looks for them.
battle = support.battle
battle_engine = support.battle_engine
cards_engine = support.cards_engine
catalogue = support.catalogue
clock = support.clock
start_battle = support.start_battle


@pytest.fixture
def started(battle, rpc, cards_engine, catalogue):
    """A player, their deck and their new match's view."""
    player_id, deck = player_with_deck(rpc, cards_engine, catalogue)
    view = battle.start_match(player_id=player_id, deck_id=deck["id"])
    return player_id, deck, view


def act(battle, player_id, view, action, **kwargs):
    kwargs.setdefault("expected_version", view["version"])
    return battle.act(player_id=player_id, match_id=view["id"], action=action, **kwargs)


def test_a_match_starts_from_a_snapshot_of_the_deck_that_later_edits_do_not_change(
    battle, rpc, started, cards_engine, catalogue, battle_engine
):
    player_id, deck, view = started
    assert (view["status"], view["phase"], view["version"]) == ("active", "initial_selection", 1)
    assert view["outcome"] is None and view["deadline"] is None
    names = [c["name"] for c in view["you"]["creatures"]]
    assert names == [catalogue["player"][n]["name"] for n in PLAYER_CARDS[:3]]
    row = match_row(battle_engine, view["id"])
    assert (row["deck_id"], row["deck_version"], row["seed"]) == (
        uuid.UUID(deck["id"]),
        1,
        State.from_dict(row["initial_state"]).random.seed,
    )
    [cpu_select] = action_rows(battle_engine, view["id"])
    assert (cpu_select["seq"], cpu_select["side"]) == (1, "cpu")

    others = give(cards_engine, catalogue, player_id, OTHER_CREATURES)
    kept = [c["id"] for c in deck["cards"] if c["kind"] == "power_card"]
    edited = rpc.cards.edit_deck(
        player_id=player_id, deck_id=deck["id"], expected_version=1, cards=[*others, *kept]
    )
    assert edited["version"] == 2
    again = battle.get_match(player_id=player_id, match_id=view["id"])
    assert [c["name"] for c in again["you"]["creatures"]] == names
    assert again == view


def test_a_second_start_is_refused_with_the_active_match_id(battle, rpc, started, battle_engine):
    player_id, deck, view = started
    with pytest.raises(Conflict) as caught:
        battle.start_match(player_id=player_id, deck_id=deck["id"])
    assert caught.value.code == "active_match_exists"
    assert caught.value.details == {"match_id": view["id"]}
    assert battle.active_match(player_id=player_id) == view


def test_concurrent_starts_make_one_match(battle, rpc, settings, cards_engine, catalogue):
    player_id, deck = player_with_deck(rpc, cards_engine, catalogue)

    def start(_):
        with ClusterRpcProxy(settings.nameko_config(), timeout=20) as proxy:
            try:
                return proxy.battle.start_match(player_id=player_id, deck_id=deck["id"])
            except Conflict as exc:
                return exc

    results = list(eventlet.GreenPool(6).imap(start, range(6)))
    views = [r for r in results if isinstance(r, dict)]
    refusals = [r for r in results if isinstance(r, Conflict)]
    assert len(views) == 1 and len(refusals) == 5
    assert {r.code for r in refusals} == {"active_match_exists"}
    assert {r.details["match_id"] for r in refusals} == {views[0]["id"]}
    assert battle.active_match(player_id=player_id)["id"] == views[0]["id"]


def test_a_stale_version_is_refused_and_changes_nothing(battle, started, battle_engine):
    player_id, _, view = started
    before = stored(battle_engine, view["id"])
    with pytest.raises(Conflict) as caught:
        act(battle, player_id, view, {"kind": "select_creature", "index": 0}, expected_version=0)
    assert (caught.value.code, caught.value.details) == ("stale_version", {"version": 1})
    assert stored(battle_engine, view["id"]) == before


def test_an_illegal_action_is_refused_with_the_engines_code_and_changes_nothing(
    battle, started, battle_engine
):
    player_id, _, view = started
    before = stored(battle_engine, view["id"])
    for action, code in (
        ({"kind": "use_move", "index": 0}, "wrong_phase"),
        ({"kind": "select_creature", "index": 7}, "unknown_creature"),
    ):
        with pytest.raises(Conflict) as caught:
            act(battle, player_id, view, action)
        assert caught.value.code == code
    assert stored(battle_engine, view["id"]) == before


def test_the_same_idempotency_key_returns_the_stored_answer_after_the_match_moved_on(
    battle, started, battle_engine
):
    player_id, _, view = started
    select = {"kind": "select_creature", "index": 1}
    first = act(battle, player_id, view, select, idempotency_key="select-1")
    assert first["version"] > view["version"] and first["events"]
    act(battle, player_id, first, playable(first)[0], idempotency_key="move-1")
    log = action_rows(battle_engine, view["id"])
    assert act(battle, player_id, view, select, idempotency_key="select-1") == first
    with pytest.raises(InvalidInput) as caught:
        act(battle, player_id, view, {"kind": "forfeit"}, idempotency_key="select-1")
    assert caught.value.code == "idempotency_key_reused"
    assert action_rows(battle_engine, view["id"]) == log


@pytest.mark.parametrize(("offset", "timed_out"), [(0, True), (-1, False)])
def test_an_action_at_the_deadline_is_a_timeout_and_one_microsecond_before_is_applied(
    battle, started, battle_engine, clock, offset, timed_out
):
    player_id, _, view = started
    view = act(battle, player_id, view, {"kind": "select_creature", "index": 0})
    assert view["your_turn"] is True  # had the CPU gone first, it has played already
    deadline = match_row(battle_engine, view["id"])["deadline"]
    assert deadline.isoformat() == view["deadline"]
    clock.set(deadline + timedelta(microseconds=offset))
    move = next(a for a in playable(view) if a["kind"] == "use_move")
    answer = act(battle, player_id, view, move)
    first = answer["events"][0]
    if timed_out:
        assert first["type"] == "timeout" and first["replaced_action"] == move
    else:
        assert first["type"] == "move_used" and first["move"] == move["index"]
    player_row = action_rows(battle_engine, view["id"])[view["version"]]
    assert player_row["action"] == move and player_row["at"] == clock.now()


def test_the_log_replayed_over_the_initial_state_is_the_match(battle, started, battle_engine):
    player_id, _, view = started
    for _ in range(6):
        view = act(battle, player_id, view, playable(view)[0])
    row = match_row(battle_engine, view["id"])
    log = [
        (Side(r["side"]), Action.from_dict(r["action"]), r["at"])
        for r in action_rows(battle_engine, view["id"])
    ]
    assert [r["seq"] for r in action_rows(battle_engine, view["id"])] == list(
        range(1, row["version"] + 1)
    )
    assert replay(State.from_dict(row["initial_state"]), log) == State.from_dict(row["state"])


def test_a_match_played_to_the_end_writes_match_finished_once(battle, started, battle_engine):
    player_id, _, view = started
    for _ in range(300):
        if view["status"] == "finished":
            break
        view = act(battle, player_id, view, playable(view)[-1])
    assert view["status"] == "finished" and view["outcome"] in ("victory", "defeat")
    assert view["legal_actions"] == [] and view["deadline"] is None
    row = match_row(battle_engine, view["id"])
    assert (row["status"], row["outcome"], row["deadline"]) == ("finished", view["outcome"], None)
    [event] = finished_events(battle_engine, view["id"])
    assert (event["payload"]["type"], event["payload"]["version"]) == ("MatchFinished", 2)
    cpu_result = "defeat" if view["outcome"] == "victory" else "victory"
    assert event["payload"]["data"] == {
        "match_id": view["id"],
        "game": "quest",
        "mode": "cpu",
        "seats": [
            {"seat": "player", "kind": "player", "player_id": player_id, "result": view["outcome"]},
            {"seat": "cpu", "kind": "cpu", "player_id": None, "result": cpu_result},
        ],
        "finished_at": row["finished_at"].isoformat(),
    }
    assert seat_rows(battle_engine, view["id"]) == [
        (
            "player",
            "player",
            uuid.UUID(player_id),
            uuid.UUID(view["deck_id"]),
            view["outcome"],
            False,
        ),
        ("cpu", "cpu", None, None, cpu_result, False),
    ]
    with pytest.raises(Conflict) as caught:
        battle.forfeit(player_id=player_id, match_id=view["id"], expected_version=view["version"])
    assert caught.value.code == "match_finished"
    assert len(finished_events(battle_engine, view["id"])) == 1
    with pytest.raises(NotFound):
        battle.active_match(player_id=player_id)


def test_the_view_never_shows_the_seed_or_the_cpus_hand(battle, started, battle_engine):
    player_id, _, view = started
    seed = match_row(battle_engine, view["id"])["seed"]
    view = act(battle, player_id, view, {"kind": "select_creature", "index": 0})
    history = battle.match_history(player_id=player_id, match_id=view["id"])
    for shown in (view, history):
        text = repr(shown)
        assert str(seed) not in text and "'random'" not in text
    assert "power_cards" not in view["opponent"] and "creatures" not in view["opponent"]
