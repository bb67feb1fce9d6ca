"""The battle handlers on an in-memory unit of work: start, act, refusals, finish, sweep."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest

from games.quest import Action, MatchState, Side, replay
from services.battle import handlers
from services.battle.host import finished_event_id
from shared.errors import Conflict, Forbidden, InvalidInput, NotFound
from shared.events import MATCH_FINISHED
from tests.unit.battle.support import FakeCards, FakeStore, started


def only(store):
    [match] = store.matches.rows.values()
    return match


def player_of(match):
    return next(s.player_id for s in match.seats if s.kind == "player")


def results(event):
    return {s["seat"]: s["result"] for s in event.data["seats"]}


def act(store, clock, view, action, version=None, key=None, player_id=None):
    match = only(store)
    with store.uow() as uow:
        return handlers.act(
            handlers.Act(
                player_id or player_of(match),
                match.id,
                view["version"] if version is None else version,
                action,
                key,
            ),
            uow,
            clock,
        )


def snapshot(store):
    match = only(store)
    return match.state.to_dict(), len(store.matches.log[match.id]), len(store.events.added)


def play_to_the_end(store, clock, view, pick=0):
    """The player takes the ``pick``-th legal action that is not a forfeit, until the end."""
    for _ in range(500):
        if view["status"] == "finished":
            return view
        legal = [a for a in view["legal_actions"] if a["kind"] != "forfeit"]
        view = act(store, clock, view, legal[min(pick, len(legal) - 1)])
        clock.advance(1)
    raise AssertionError("the match did not end")


def test_a_new_match_waits_for_the_players_selection_the_cpu_has_chosen():
    store, _, view = started()
    assert view["status"] == "active" and view["phase"] == "initial_selection"
    assert view["version"] == 1  # the CPU's selection was applied and logged
    assert view["you"]["must_select"] is True
    assert view["opponent"]["has_chosen"] is True and view["opponent"]["active"] is None
    assert {a["kind"] for a in view["legal_actions"]} == {"select_creature", "forfeit"}
    [step] = store.matches.steps(only(store).id)
    assert step.seat == Side.CPU and step.action["kind"] == "select_creature"


def test_a_second_start_is_refused_with_the_active_id_before_asking_cards():
    store, clock, first = started()
    player_id = player_of(only(store))
    cards = FakeCards()
    with pytest.raises(Conflict) as caught:
        started(store, clock, cards, player_id=player_id)
    assert caught.value.code == "active_match_exists"
    assert caught.value.details == {"match_id": first["id"]}
    assert cards.calls == []


def test_a_quest_match_asks_cards_for_a_quest_deck_so_another_game_s_deck_is_not_found():
    cards = FakeCards()
    started(cards=cards)
    assert cards.deck_games == ["quest"]


def test_a_stale_version_is_refused_and_changes_nothing():
    store, clock, view = started()
    before = snapshot(store)
    with pytest.raises(Conflict) as caught:
        act(store, clock, view, {"kind": "select_creature", "index": 0}, version=0)
    assert caught.value.code == "stale_version"
    assert caught.value.details == {"version": 1}
    assert snapshot(store) == before


def test_an_illegal_action_is_a_plain_conflict_with_the_engines_code():
    store, clock, view = started()
    before = snapshot(store)
    with pytest.raises(Conflict) as caught:
        act(store, clock, view, {"kind": "use_move", "index": 0})
    assert type(caught.value) is Conflict  # registered for RPC, unlike IllegalAction
    assert caught.value.code == "wrong_phase"
    assert snapshot(store) == before


@pytest.mark.parametrize(
    "action",
    [{"kind": "dance"}, {"kind": "use_move"}, {"kind": "use_move", "index": "0"}, {}],
)
def test_a_malformed_action_is_invalid_input_and_changes_nothing(action):
    store, clock, view = started()
    before = snapshot(store)
    with pytest.raises(InvalidInput) as caught:
        act(store, clock, view, action)
    assert caught.value.code == "invalid_action"
    assert snapshot(store) == before


def test_another_players_match_is_not_found():
    store, clock, view = started()
    with pytest.raises(NotFound) as caught:
        act(store, clock, view, {"kind": "forfeit"}, player_id=uuid.uuid4())
    assert caught.value.code == "match_not_found"
    with store.uow() as uow, pytest.raises(NotFound):
        handlers.history(uuid.uuid4(), only(store).id, uow, clock)


def test_the_same_idempotency_key_returns_the_first_answer_even_after_the_match_moved_on():
    store, clock, view = started()
    select = {"kind": "select_creature", "index": 0}
    first = act(store, clock, view, select, key="k-1")
    nxt = next(a for a in first["legal_actions"] if a["kind"] != "forfeit")
    act(store, clock, first, nxt, key="k-2")
    assert act(store, clock, view, select, key="k-1") == first
    with pytest.raises(InvalidInput) as caught:
        act(store, clock, view, {"kind": "select_creature", "index": 1}, key="k-1")
    assert caught.value.code == "idempotency_key_reused"


def test_an_action_exactly_at_the_deadline_is_a_timeout_and_a_microsecond_before_is_applied():
    for offset, timed_out in ((timedelta(0), True), (timedelta(microseconds=-1), False)):
        store, clock, view = started()
        view = act(store, clock, view, {"kind": "select_creature", "index": 0})
        assert view["your_turn"]  # had the CPU gone first, it has played already
        deadline = only(store).deadline
        clock.set(deadline + offset)
        move = next(a for a in view["legal_actions"] if a["kind"] == "use_move")
        answer = act(store, clock, view, move)
        kinds = [e["type"] for e in answer["events"]]
        assert ("timeout" in kinds) is timed_out
        assert ("move_used" in kinds[:1]) is not timed_out
        if timed_out:
            assert answer["events"][0]["replaced_action"] == move


def test_forfeit_finishes_with_outcome_forfeit_and_one_match_finished():
    store, clock, view = started()
    answer = act(store, clock, view, {"kind": "forfeit"})
    match = only(store)
    assert (answer["status"], answer["outcome"]) == ("finished", "forfeit")
    assert match.deadline is None and match.finished_at == clock.now()
    [event] = store.events.added
    assert event.contract is MATCH_FINISHED and event.event_id == finished_event_id(match.id)
    assert results(event) == {"player": "forfeit", "cpu": "victory"}
    assert (event.data["game"], event.data["mode"]) == ("quest", "cpu")
    with pytest.raises(Conflict) as caught:
        act(store, clock, answer, {"kind": "forfeit"})
    assert caught.value.code == "match_finished"
    assert len(store.events.added) == 1


@pytest.mark.parametrize(("seed", "pick"), [(1, 0), (2, 0), (3, 1), (4, 2), (5, 0)])
def test_a_match_played_to_the_end_finishes_once_and_its_log_replays_to_its_state(seed, pick):
    store, clock, view = started(seed=seed)
    final = play_to_the_end(store, clock, view, pick)
    match = only(store)
    assert final["outcome"] in ("victory", "defeat")
    assert final["outcome"] == ("victory" if match.state.winner is Side.PLAYER else "defeat")
    [event] = store.events.added
    assert results(event)["player"] == final["outcome"]
    log = [(Side(s.seat), Action.from_dict(s.action), s.at) for s in store.matches.steps(match.id)]
    assert [s.version for s in store.matches.steps(match.id)] == list(range(1, match.version + 1))
    assert replay(store.matches.initial[match.id], log) == match.state
    assert MatchState.from_dict(json.loads(json.dumps(match.state.to_dict()))) == match.state


def test_the_sweeper_times_out_only_overdue_turns_and_the_cpu_replies():
    store, clock, view = started()
    view = act(store, clock, view, {"kind": "select_creature", "index": 0})
    deadline = only(store).deadline
    clock.set(deadline - timedelta(microseconds=1))
    with store.uow() as uow:
        assert handlers.expire_overdue(uow, clock) == 0
    clock.set(deadline)
    with store.uow() as uow:
        assert handlers.expire_overdue(uow, clock) == 1
    match = only(store)
    steps = store.matches.steps(match.id)
    timeout = next(s for s in steps if s.action["kind"] == "timeout")
    assert timeout.seat == Side.PLAYER and timeout.at == deadline
    assert steps[-1].seat == Side.CPU or match.status == "finished"
    if match.status == "active":
        assert match.state.turn is Side.PLAYER and match.deadline > deadline


def test_reading_a_match_resolves_an_overdue_turn_first():
    store, clock, view = started()
    view = act(store, clock, view, {"kind": "select_creature", "index": 0})
    clock.set(only(store).deadline + timedelta(seconds=5))
    with store.uow() as uow:
        seen = handlers.get_match(player_of(only(store)), only(store).id, uow, clock)
    assert seen["version"] > view["version"]
    assert any(s.action["kind"] == "timeout" for s in store.matches.steps(only(store).id))


def test_no_active_match_is_not_found():
    store = FakeStore()
    with store.uow() as uow, pytest.raises(NotFound) as caught:
        handlers.active_match(uuid.uuid4(), uow, None)
    assert caught.value.code == "no_active_match"


# -- the player gate (shared/player_gate.py) ------------------------------------------------


def test_the_sweeper_skips_a_busy_or_purged_player_and_plays_the_turn_once_free():
    store, clock, view = started()
    view = act(store, clock, view, {"kind": "select_creature", "index": 0})
    match = only(store)
    clock.set(match.deadline)
    for blocked in ("busy", "purged"):
        getattr(store.players, blocked).add(player_of(match))
        with store.uow() as uow:
            assert handlers.expire_overdue(uow, clock) == 0
        assert only(store).version == match.version
        getattr(store.players, blocked).clear()
    with store.uow() as uow:
        assert handlers.expire_overdue(uow, clock) == 1


def test_an_action_of_a_purged_player_is_refused_as_account_locked_before_anything():
    store, clock, view = started()
    store.players.purged.add(player_of(only(store)))
    with pytest.raises(Forbidden) as refused:
        act(store, clock, view, {"kind": "select_creature", "index": 0})
    assert refused.value.code == "account_locked"
    assert only(store).version == view["version"]


def test_a_start_for_a_player_purged_while_the_decks_were_read_is_refused():
    store = FakeStore()
    player_id = uuid.uuid4()
    store.players.purged.add(player_id)
    with pytest.raises(Forbidden):
        started(store=store, player_id=player_id)
    assert store.matches.rows == {}
