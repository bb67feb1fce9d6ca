"""The match host knows no game: a second game (tests/unit/battle/countgame.py) runs through the
same host and handlers as Quest: start, act, idempotent retry, stale version, deadline
expiry by a read and by the sweeper, the CPU's replies, finish and MatchFinished."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from services.battle import handlers, host
from services.battle.games import GAMES
from services.battle.host import HostedGame, Seat, SeatKind, Status
from shared.clock import FixedClock
from shared.errors import Conflict, InvalidInput, NotFound
from shared.events import MATCH_FINISHED, MATCH_UPDATED, read_event
from tests.unit.battle.countgame import COUNT, COUNT_CPU, TURN
from tests.unit.battle.support import T0, FakeStore


class CountViews:
    def match(self, match, seat):
        return {
            **COUNT.view(match.state, seat.name),
            "id": str(match.id),
            "you": seat.name,
            "status": str(match.status),
            "result": next(s.result for s in match.seats if s.name == seat.name),
            "version": match.version,
        }

    def result(self, match, seat, steps):
        events = [e for step in steps for e in step.events]
        return {**self.match(match, seat), "events": COUNT.view_events(events, seat.name)}

    def history(self, match, seat, steps):
        return {"entries": [(s.seat, s.action, s.version) for s in steps]}


COUNTING = HostedGame(COUNT, CountViews(), COUNT_CPU, one_active=frozenset({"duel"}))


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    """The count game in the registry, as its module in services/battle/games would be."""
    monkeypatch.setitem(GAMES, "count", COUNTING)


def start(store, seats, seed=0, mode="duel", settings=0):
    """A count match through the host, stored as the start handlers store one."""
    brings = {s.name: None for s in seats}
    match, initial, steps = host.start(
        COUNTING, uuid.uuid4(), mode, seats, brings, settings, seed, T0
    )
    with store.uow() as uow:
        assert uow.matches.add_if_no_active(match, initial)
        uow.matches.add_steps(match.id, steps)
    return match


def two_players():
    north, south = uuid.uuid4(), uuid.uuid4()
    seats = [Seat("north", SeatKind.PLAYER, north), Seat("south", SeatKind.PLAYER, south)]
    return north, south, seats


def against_cpu():
    player = uuid.uuid4()
    return player, [Seat("north", SeatKind.PLAYER, player), Seat("south", SeatKind.CPU)]


def act(store, clock, player_id, match, action, version, key=None):
    with store.uow() as uow:
        cmd = handlers.Act(player_id, match.id, version, action, key, game="count")
        return handlers.act(cmd, uow, clock)


def stored(store, match):
    return store.matches.rows[match.id]


def test_two_players_take_turns_and_the_finish_writes_one_match_finished_with_each_result():
    store, clock = FakeStore(), FixedClock(T0)
    north, south, seats = two_players()
    match = start(store, seats, settings=7)  # seed 0: north moves first
    answer = act(store, clock, north, match, {"add": 2}, 0)
    assert (answer["count"], answer["turn"], answer["version"]) == (9, "south", 1)
    assert answer["events"] == [{"type": "added", "seat": "north", "count": 9}]  # per seat
    answer = act(store, clock, south, match, {"add": 1}, 1)
    assert (answer["status"], answer["result"]) == ("finished", "won")
    updates = [e for e in store.events.added if e.contract is MATCH_UPDATED]
    # Another player moved: each change tells the seated players (the gateway pushes it).
    assert [(u.data["version"], u.data["to_act"]) for u in updates] == [(1, ["south"]), (2, [])]
    assert {u.data["status"] for u in updates} == {"active", "finished"}
    [event] = [e for e in store.events.added if e.contract is MATCH_FINISHED]
    assert event.event_id == host.finished_event_id(match.id)
    data = read_event(MATCH_FINISHED, event.to_message()).data
    assert (data["game"], data["mode"]) == ("count", "duel")
    assert [(s["seat"], s["kind"], s["player_id"], s["result"]) for s in data["seats"]] == [
        ("north", "player", north, "lost"),
        ("south", "player", south, "won"),
    ]
    assert stored(store, match).deadline is None


def test_a_seat_acting_out_of_turn_is_refused_by_the_engine_as_a_conflict():
    store, clock = FakeStore(), FixedClock(T0)
    north, south, seats = two_players()
    match = start(store, seats)
    with pytest.raises(Conflict) as caught:
        act(store, clock, south, match, {"add": 1}, 0)
    assert caught.value.code == "not_allowed"
    with pytest.raises(InvalidInput) as caught:
        act(store, clock, north, match, {"add": 3}, 0)
    assert caught.value.code == "invalid_action"
    assert stored(store, match) == match and store.matches.steps(match.id) == []


def test_the_cpu_replies_until_a_player_must_act():
    store, clock = FakeStore(), FixedClock(T0)
    player, seats = against_cpu()
    match = start(store, seats, seed=1)  # south (the CPU) moves first, at once
    assert (match.version, match.state.turn) == (1, "north")
    answer = act(store, clock, player, match, {"add": 1}, 1)
    assert (answer["count"], answer["version"], answer["turn"]) == (3, 3, "north")
    assert [(s.seat, s.action) for s in store.matches.steps(match.id)] == [
        ("south", {"add": 1}),
        ("north", {"add": 1}),
        ("south", {"add": 1}),
    ]


def test_the_same_idempotency_key_answers_again_and_a_stale_version_is_refused():
    store, clock = FakeStore(), FixedClock(T0)
    player, seats = against_cpu()
    match = start(store, seats)
    first = act(store, clock, player, match, {"add": 1}, 0, key="k")
    assert act(store, clock, player, match, {"add": 1}, 0, key="k") == first
    with pytest.raises(InvalidInput) as caught:
        act(store, clock, player, match, {"add": 2}, 0, key="k")
    assert caught.value.code == "idempotency_key_reused"
    with pytest.raises(Conflict) as caught:
        act(store, clock, player, match, {"add": 1}, 0)
    assert (caught.value.code, caught.value.details) == ("stale_version", {"version": 2})


def test_time_alone_ends_a_turn_at_its_deadline_not_before_on_a_read_or_by_the_sweeper():
    store, clock = FakeStore(), FixedClock(T0)
    player, seats = against_cpu()
    match = start(store, seats)
    assert match.deadline == T0 + TURN
    clock.set(T0 + TURN - timedelta(microseconds=1))
    with store.uow() as uow:
        assert handlers.expire_overdue(uow, clock) == 0
        assert handlers.get_match(player, match.id, uow, clock, game="count")["version"] == 0
    clock.set(T0 + TURN)
    with store.uow() as uow:
        seen = handlers.get_match(player, match.id, uow, clock, game="count")
    assert (seen["version"], seen["turn"], seen["count"]) == (2, "north", 1)  # waited, CPU +1
    assert stored(store, match).deadline == T0 + 2 * TURN
    clock.set(T0 + 2 * TURN)
    with store.uow() as uow:
        assert handlers.expire_overdue(uow, clock) == 1
    steps = store.matches.steps(match.id)
    assert [(s.seat, s.action, s.at) for s in steps[2:]] == [
        ("north", {"wait": True}, T0 + 2 * TURN),
        ("south", {"add": 1}, T0 + 2 * TURN),
    ]
    log = [(s.seat, s.action, s.at) for s in steps]
    assert COUNT.replay(0, {}, 0, T0, log) == stored(store, match).state


def test_one_active_match_per_player_game_and_mode_only_where_the_game_says_so():
    store = FakeStore()
    _, seats = against_cpu()
    start(store, seats)
    with store.uow() as uow:
        blocked, _, _ = host.start(COUNTING, uuid.uuid4(), "duel", seats, {}, 0, 0, T0)
        assert uow.matches.add_if_no_active(blocked, None) is False
        free, _, _ = host.start(COUNTING, uuid.uuid4(), "practice", seats, {}, 0, 0, T0)
        assert free.one_active is False and uow.matches.add_if_no_active(free, None)


def test_a_match_of_another_game_is_not_found_on_the_quest_routes():
    store, clock = FakeStore(), FixedClock(T0)
    player, seats = against_cpu()
    match = start(store, seats)
    with store.uow() as uow, pytest.raises(NotFound):
        handlers.get_match(player, match.id, uow, clock)  # the Quest route's default
    assert stored(store, match).status is Status.ACTIVE
