"""Quest against another player, live, through the gateway on the real stack
(docs/quest-pvp.md, "Live PvP", ours): two players paired by the matchmaking queue play a
match with 60-second windows, both told of every change through push; a missed turn is
that side's timeout and play goes on; a missed selection picks the side's first living
Creature; three missed windows in a row forfeit.

As tests/e2e/quest/test_pvp_api.py: the battle service's clock is a ``FixedClock`` moved
by the test, and the tests that reach deadlines stop the sweeper's timer and run its
entrypoint themselves, so only the sweeper, never a client, resolves them. Every test
leaves the queue empty (players join in pairs).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from tests.e2e.accounts.test_me import assert_problem
from tests.e2e.chronovore.test_pvp_api import Inbox, at_version, finished, pseudonym
from tests.e2e.platform.test_push import open_stream
from tests.e2e.quest import test_cards_api as cards_api
from tests.e2e.quest.test_battle_api import (
    T0,
    TICK,
    choose,
    chosen_seed,
    clock,
    platform,
    stop_sweeper,
)
from tests.e2e.quest.test_cards_api import Player
from tests.e2e.quest.test_pvp_api import send, sweep, two_players, view_of

pytestmark = pytest.mark.e2e

starters = cards_api.starters  # the published seed catalogue (fixture)
__all__ = ["chosen_seed", "clock", "platform"]  # fixtures, used by name

WINDOW = timedelta(seconds=60)  # ours: every live decision has a 60-second window


def join(player: Player, deck: dict[str, Any]) -> dict[str, Any]:
    joined = player.call("POST", "/quest/queue", json={"deckId": deck["id"]})
    assert joined.status_code == 200, joined.text
    return joined.json()


def by_seat(match_id: str, *players: Player) -> dict[str, Player]:
    """The players by the side they sit (the fixed clock gives both the same joining
    time: the queue's order between them is then its own)."""
    return {view_of(p, match_id)["side"]: p for p in players}


def paired(api) -> tuple[dict[str, Player], str]:
    """Two players paired by the queue: (players by seat, the match id)."""
    one, one_deck, two, two_deck = two_players(api)
    assert join(one, one_deck)["status"] == "queued"
    matched = join(two, two_deck)
    assert matched["status"] == "matched", matched
    return by_seat(matched["matchId"], one, two), matched["matchId"]


def other(side: str) -> str:
    return "cpu" if side == "player" else "player"


def test_two_players_paired_by_the_queue_play_live_told_at_once(api, starters, platform):
    stop_sweeper(platform["battle"])  # only the players move this match
    one, one_deck, two, two_deck = two_players(api)
    streams = {one.token: Inbox(open_stream(api.base_url, one.token)[0])}
    streams[two.token] = Inbox(open_stream(api.base_url, two.token)[0])
    try:
        assert_problem(one.call("DELETE", "/quest/queue"), 404, "not_queued")
        waiting = join(one, one_deck)
        assert (waiting["status"], waiting["deckId"], waiting["waiting"]) == (
            "queued",
            one_deck["id"],
            1,
        )
        assert one.call("GET", "/quest/queue").json()["status"] == "queued"
        # Chronovore's queue is another: the player does not wait there.
        assert one.call("GET", "/chronovore/queue").json()["status"] == "idle"
        matched = join(two, two_deck)
        match_id = matched["matchId"]
        assert (matched["status"], matched["waiting"]) == ("matched", 0)
        assert one.call("GET", "/quest/queue").json() == {**matched, "deckId": None}
        # Both told at once: the match waits for each of them.
        for socket in streams.values():
            told = socket.until(at_version(match_id, 0))
            assert told["type"] == "match.your_turn" and told["data"]["mode"] == "live"
        seats = by_seat(match_id, one, two)
        sockets = {side: streams[p.token] for side, p in seats.items()}
        for side, player in seats.items():
            view = view_of(player, match_id)
            assert (view["mode"], view["side"], view["opponentName"]) == (
                "live",
                side,
                pseudonym(seats[other(side)]),
            )
            assert (view["phase"], view["deadline"]) == (
                "initial_selection",
                (T0 + WINDOW).isoformat(),
            )
            assert view["fairness"]["commitment"] and view["fairness"]["seed"] is None
        # One live match at a time: neither may queue again while it runs.
        assert_problem(
            one.call("POST", "/quest/queue", json={"deckId": one_deck["id"]}),
            409,
            "active_match_exists",
        )
        # The CPU battle and asynchronous matches stay apart: a CPU battle starts beside.
        cpu = one.call("POST", "/quest/battles", json={"deckId": one_deck["id"]})
        assert cpu.status_code == 201, cpu.text
        steps = 0
        while True:
            views = {side: view_of(p, match_id) for side, p in seats.items()}
            if views["player"]["status"] == "finished":
                break
            waiting_for = [s for s, v in views.items() if v["yourTurn"] or v["you"]["mustSelect"]]
            side = waiting_for[0]
            answer = send(seats[side], views[side], choose(views[side]))
            for socket in sockets.values():  # both told of every version
                socket.until(at_version(match_id, answer["version"]))
            steps += 1
            assert steps < 200
        assert {views["player"]["outcome"], views["cpu"]["outcome"]} == {"victory", "defeat"}
        for side, socket in sockets.items():
            assert socket.until(finished(match_id))["data"]["result"] == views[side]["outcome"]
        for side, player in seats.items():
            history = player.call("GET", f"/quest/battles/{match_id}/history").json()
            assert history["replay"] is None and history["outcome"] == views[side]["outcome"]
        # Both list it beside their asynchronous matches, in the one record.
        for side, player in seats.items():
            listed = player.call("GET", "/quest/pvp-matches").json()
            [item] = listed["items"]
            assert (item["id"], item["mode"], item["outcome"]) == (
                match_id,
                "live",
                views[side]["outcome"],
            )
            won = views[side]["outcome"] == "victory"
            assert listed["record"] == {"wins": int(won), "losses": int(not won), "uncounted": 0}
        # Finished: the queue is open again, and idle.
        assert one.call("GET", "/quest/queue").json()["status"] == "idle"
    finally:
        for socket in streams.values():
            socket.socket.close()


def test_missed_windows_time_out_and_three_in_a_row_forfeit(api, starters, platform, clock):
    stop_sweeper(platform["battle"])  # the test runs the sweeper itself
    seats, match_id = paired(api)
    sockets = {s: Inbox(open_stream(api.base_url, p.token)[0]) for s, p in seats.items()}
    absent, present = "player", "cpu"
    try:
        # The initial selection: the present side chooses in time; the absent one's
        # window elapses, and the sweeper picks its first Creature.
        send(
            seats[present],
            view_of(seats[present], match_id),
            choose(view_of(seats[present], match_id)),
        )
        clock.set(T0 + WINDOW - TICK)
        sweep(platform["battle"])
        assert view_of(seats[absent], match_id)["phase"] == "initial_selection"  # not yet
        clock.set(T0 + WINDOW)
        sweep(platform["battle"])
        view = view_of(seats[absent], match_id)
        assert (view["status"], view["phase"], view["you"]["active"]) == (
            "active",
            "normal_turn",
            0,
        )
        missed = 1
        while True:
            view = view_of(seats[absent], match_id)
            if view["status"] == "finished":
                break
            deadline = datetime.fromisoformat(view["deadline"])
            assert deadline == clock.now() + WINDOW  # each turn's own 60 seconds
            if view["yourTurn"]:
                turn_number = view["turnNumber"]
                clock.set(deadline)
                sweep(platform["battle"])
                missed += 1
                after = view_of(seats[present], match_id)
                last = seats[present].call("GET", f"/quest/battles/{match_id}/history").json()
                entry = last["entries"][-1]
                assert (entry["side"], entry["action"]) == (absent, {"kind": "timeout"})
                assert entry["events"][0] == {
                    "type": "timeout",
                    "side": absent,
                    "reason": "deadline",
                }
                counts = view_of(seats[absent], match_id)["timeoutsInRow"]
                assert counts == {"you": missed, "opponent": 0}
                if missed < 3:  # a timeout: the turn ends, play goes on
                    assert (after["status"], after["turn"], after["turnNumber"]) == (
                        "active",
                        present,
                        turn_number + 1,
                    )
                else:
                    assert after["status"] == "finished"
            else:  # the present side passes in time: only the absent side's count grows
                clock.set(deadline - TICK)
                mine = view_of(seats[present], match_id)
                send(seats[present], mine, {"kind": "timeout"})
            assert missed <= 3
        lost, won = view_of(seats[absent], match_id), view_of(seats[present], match_id)
        assert (lost["outcome"], won["outcome"], lost["finishReason"]) == (
            "forfeit",
            "victory",
            "timeouts",
        )
        for name, socket in sockets.items():
            end = socket.until(finished(match_id))
            assert end["data"]["result"] == ("forfeit" if name == absent else "victory")
    finally:
        for socket in sockets.values():
            socket.socket.close()
