"""Quest live PvP's reconnect rule and direct live challenges, through the gateway on the
real stack (docs/quest-pvp.md, "Live PvP", ours).

- A player whose push connection drops is disconnected; the match runs on. Back within
  90 seconds (a new authenticated stream), the match goes on; not back, the battle
  sweeper ends it as their forfeit (``finishReason: "disconnected"``), both told.
- A direct live challenge by pseudonym (``POST /quest/invitations {"mode": "live"}``)
  waits 2 minutes; accepted, a live match starts (60-second windows); it expires at
  exactly 2 minutes (the sweeper marks it); the challenger may cancel it.

As test_live_pvp_api.py: battle's clock is a ``FixedClock`` moved by the test, and the
sweeper's timer is stopped: the test runs it, so only the sweeper resolves deadlines.
The gateway reports connections to battle as they open and close; the test waits until
battle has the report (its table) before it moves the clock.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.e2e.accounts.test_me import assert_problem
from tests.e2e.chronovore.test_pvp_api import Inbox, finished, pseudonym
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
from tests.e2e.quest.test_live_pvp_api import paired
from tests.e2e.quest.test_pvp_api import (
    _query,
    hidden_from,
    send,
    sweep,
    two_players,
    view_of,
)
from tests.helpers import wait_for

pytestmark = pytest.mark.e2e

starters = cards_api.starters  # the published seed catalogue (fixture)
__all__ = ["chosen_seed", "clock", "platform"]  # fixtures, used by name

RECONNECT = timedelta(seconds=90)  # ours: a disconnected player has 90 seconds to return
CHALLENGE = timedelta(minutes=2)  # ours: a direct live challenge waits 2 minutes


def connections(settings, player: Player) -> int | None:
    """What battle holds of the player's open push connections (None: nothing)."""
    player_id = player.call("GET", "/me").json()["id"]
    rows = _query(
        settings,
        "SELECT sum(connections) FROM push_presence WHERE player_id = :p",
        p=player_id,
    )
    return None if rows[0][0] is None else int(rows[0][0])


def reported(settings, player: Player, count: int) -> None:
    wait_for(lambda: connections(settings, player) == count, timeout=20)


def both_select(seats: dict[str, Player], match_id: str) -> None:
    for player in seats.values():
        send(player, view_of(player, match_id), choose(view_of(player, match_id)))


def test_a_player_back_within_90_seconds_plays_on(api, starters, platform, clock, settings):
    stop_sweeper(platform["battle"])
    seats, match_id = paired(api)
    sockets = {s: Inbox(open_stream(api.base_url, p.token)[0]) for s, p in seats.items()}
    gone, stays = "player", "cpu"
    try:
        for player in seats.values():
            reported(settings, player, 1)
        both_select(seats, match_id)
        sockets[gone].socket.close()  # the connection drops at T0
        reported(settings, seats[gone], 0)
        clock.set(T0 + RECONNECT - TICK)
        sweep(platform["battle"])  # the first turn's window (60 s) elapsed: a timeout
        assert view_of(seats[stays], match_id)["status"] == "active"
        # Back in time: a new authenticated stream, on this replica or another.
        sockets[gone] = Inbox(open_stream(api.base_url, seats[gone].token)[0])
        reported(settings, seats[gone], 1)
        clock.set(T0 + RECONNECT)
        sweep(platform["battle"])
        clock.set(T0 + 2 * RECONNECT)  # long after: connected, nothing ends it but windows
        sweep(platform["battle"])
        view = view_of(seats[gone], match_id)
        assert view["status"] == "active", view["finishReason"]
        if view["yourTurn"]:  # and it plays on
            assert send(seats[gone], view, choose(view))["status"] in ("active", "finished")
    finally:
        for inbox in sockets.values():
            inbox.socket.close()


def test_a_player_not_back_within_90_seconds_forfeits(api, starters, platform, clock, settings):
    stop_sweeper(platform["battle"])
    seats, match_id = paired(api)
    sockets = {s: Inbox(open_stream(api.base_url, p.token)[0]) for s, p in seats.items()}
    gone, stays = "cpu", "player"
    try:
        for player in seats.values():
            reported(settings, player, 1)
        both_select(seats, match_id)
        sockets[gone].socket.close()
        reported(settings, seats[gone], 0)
        clock.set(T0 + RECONNECT - TICK)
        sweep(platform["battle"])
        assert view_of(seats[stays], match_id)["status"] == "active"  # not yet
        clock.set(T0 + RECONNECT)  # exactly 90 seconds counts
        sweep(platform["battle"])
        views = {side: view_of(p, match_id) for side, p in seats.items()}
        assert (views[gone]["status"], views[gone]["finishReason"]) == ("finished", "disconnected")
        assert (views[gone]["outcome"], views[stays]["outcome"]) == ("forfeit", "victory")
        told = sockets[stays].until(finished(match_id))
        assert told["data"]["result"] == "victory"
        history = seats[stays].call("GET", f"/quest/battles/{match_id}/history").json()
        last = history["entries"][-1]
        assert (last["side"], last["action"]) == (gone, {"kind": "disconnected"})
        assert {"type": "disconnected", "side": gone} in last["events"]
        # The one who left is told too once back, and the record counts it.
        back = Inbox(open_stream(api.base_url, seats[gone].token)[0])
        back.socket.close()
        listed = seats[gone].call("GET", "/quest/pvp-matches").json()
        assert listed["record"] == {"wins": 0, "losses": 1, "uncounted": 0}
        # A client may not end a match that way.
        assert_problem(
            seats[stays].call(
                "POST",
                f"/quest/battles/{match_id}/actions",
                json={
                    "expectedVersion": views[stays]["version"],
                    "action": {"kind": "disconnected"},
                },
            ),
            422,
            "invalid_action",
        )
    finally:
        for inbox in sockets.values():
            inbox.socket.close()


def test_a_player_who_never_connects_has_90_seconds_from_the_start(
    api, starters, platform, clock, settings
):
    stop_sweeper(platform["battle"])
    seats, match_id = paired(api)
    present = Inbox(open_stream(api.base_url, seats["player"].token)[0])
    try:
        reported(settings, seats["player"], 1)
        assert connections(settings, seats["cpu"]) is None  # never opened a stream
        clock.set(T0 + RECONNECT - TICK)
        sweep(platform["battle"])
        assert view_of(seats["player"], match_id)["status"] == "active"
        clock.set(T0 + RECONNECT)
        sweep(platform["battle"])
        view = view_of(seats["cpu"], match_id)
        assert (view["outcome"], view["finishReason"]) == ("forfeit", "disconnected")
        assert present.until(finished(match_id))["data"]["result"] == "victory"
    finally:
        present.socket.close()


def test_both_away_the_one_away_longer_loses_as_long_the_side_player(
    api, starters, platform, clock
):
    stop_sweeper(platform["battle"])
    seats, match_id = paired(api)  # neither ever opens a stream: both away from the start
    clock.set(T0 + RECONNECT)
    sweep(platform["battle"])
    views = {side: view_of(p, match_id) for side, p in seats.items()}
    assert (views["player"]["outcome"], views["cpu"]["outcome"]) == ("forfeit", "victory")
    assert views["player"]["finishReason"] == "disconnected"


# -- direct live challenges -----------------------------------------------------------------


def challenge(one: Player, two: Player, deck: dict[str, Any]) -> dict[str, Any]:
    handle = two.call("GET", "/quest/invitations").json()["you"]
    body = {"to": handle, "deckId": deck["id"], "mode": "live"}
    sent = one.call("POST", "/quest/invitations", json=body)
    assert sent.status_code == 201, sent.text
    return sent.json()


def never_shown(settings, seats: dict[str, Player], inboxes, match_id: str, answers) -> None:
    """No name of the other side's unrevealed cards in anything a side was shown: its
    answers, push messages, view, history and match list (as test_pvp_api.py)."""
    for side, player in seats.items():
        hidden = hidden_from(settings, match_id, side)
        seen = [
            *answers[side],
            *(str(m) for m in inboxes[player.token].seen),
            player.call("GET", f"/quest/battles/{match_id}").text,
            player.call("GET", f"/quest/battles/{match_id}/history").text,
            player.call("GET", "/quest/pvp-matches").text,
        ]
        for text in seen:
            leaked = [n for n in hidden if n in text]
            assert not leaked, (side, leaked, text)
        answers[side] = []


def test_a_live_challenge_accepted_is_a_live_match_played_to_the_end(
    api, starters, platform, settings
):
    stop_sweeper(platform["battle"])
    one, one_deck, two, two_deck = two_players(api)
    inboxes = {p.token: Inbox(open_stream(api.base_url, p.token)[0]) for p in (one, two)}
    try:
        sent = challenge(one, two, one_deck)
        assert (sent["mode"], sent["status"], sent["to"]) == ("live", "pending", pseudonym(two))
        assert sent["expiresAt"] == (T0 + CHALLENGE).isoformat()
        received = two.call("GET", "/quest/invitations").json()["items"]
        assert [(i["id"], i["mode"], i["deckId"]) for i in received] == [(sent["id"], "live", None)]
        # An asynchronous invitation to the same player is another kind: it may wait beside.
        both = one.call(
            "POST", "/quest/invitations", json={"to": pseudonym(two), "deckId": one_deck["id"]}
        )
        assert both.status_code == 201 and both.json()["mode"] == "async"
        assert_problem(
            one.call(
                "POST",
                "/quest/invitations",
                json={"to": pseudonym(two), "deckId": one_deck["id"], "mode": "live"},
            ),
            409,
            "invitation_exists",
        )
        accepted = two.call(
            "POST", f"/quest/invitations/{sent['id']}/accept", json={"deckId": two_deck["id"]}
        )
        assert accepted.status_code == 201, accepted.text
        match = accepted.json()
        assert (match["mode"], match["side"], match["deadline"]) == (
            "live",
            "cpu",
            (T0 + timedelta(seconds=60)).isoformat(),
        )
        seats = {"player": one, "cpu": two}
        answers: dict[str, list[str]] = {"player": [], "cpu": [accepted.text]}
        assert hidden_from(settings, match["id"], "player"), "the check would prove nothing"
        for player in seats.values():
            told = inboxes[player.token].until(
                lambda m: m["type"] == "match.your_turn" and m["data"]["matchId"] == match["id"]
            )
            assert told["data"]["mode"] == "live"
        # One live match at a time: the queue refuses meanwhile.
        assert_problem(
            one.call("POST", "/quest/queue", json={"deckId": one_deck["id"]}),
            409,
            "active_match_exists",
        )
        steps = 0
        while True:
            views = {side: view_of(p, match["id"]) for side, p in seats.items()}
            if views["player"]["status"] == "finished":
                break
            never_shown(settings, seats, inboxes, match["id"], answers)
            side = next(s for s, v in views.items() if v["yourTurn"] or v["you"]["mustSelect"])
            answers[side].append(str(send(seats[side], views[side], choose(views[side]))))
            steps += 1
            assert steps < 200
        assert {views["player"]["outcome"], views["cpu"]["outcome"]} == {"victory", "defeat"}
        for player in seats.values():
            inboxes[player.token].until(finished(match["id"]))
        listed = two.call("GET", "/quest/invitations").json()["items"]
        assert {(i["mode"], i["status"]) for i in listed} == {
            ("live", "accepted"),
            ("async", "pending"),
        }
    finally:
        for inbox in inboxes.values():
            inbox.socket.close()


def test_a_live_challenge_expires_at_two_minutes(api, starters, platform, clock):
    stop_sweeper(platform["battle"])
    one, one_deck, two, two_deck = two_players(api)
    sent = challenge(one, two, one_deck)
    clock.set(T0 + CHALLENGE - TICK)
    sweep(platform["battle"])
    assert one.call("GET", "/quest/invitations").json()["items"][0]["status"] == "pending"
    clock.set(T0 + CHALLENGE)
    sweep(platform["battle"])
    assert one.call("GET", "/quest/invitations").json()["items"][0]["status"] == "expired"
    assert_problem(
        two.call(
            "POST", f"/quest/invitations/{sent['id']}/accept", json={"deckId": two_deck["id"]}
        ),
        409,
        "invitation_not_pending",
    )


def test_a_live_challenge_cancelled_and_a_mode_chronovore_lacks(api, starters, platform):
    one, one_deck, two, two_deck = two_players(api)
    sent = challenge(one, two, one_deck)
    path = f"/quest/invitations/{sent['id']}"
    assert_problem(two.call("DELETE", path), 404, "invitation_not_found")  # not theirs
    cancelled = one.call("DELETE", path)
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert_problem(
        two.call("POST", path + "/accept", json={"deckId": two_deck["id"]}),
        409,
        "invitation_not_pending",
    )
    assert_problem(
        one.call(
            "POST",
            "/quest/invitations",
            json={"to": pseudonym(two), "deckId": one_deck["id"], "mode": "ranked"},
        ),
        422,
        "mode_not_offered",
    )
    assert_problem(
        one.call(
            "POST",
            "/chronovore/invitations",
            json={"to": pseudonym(two), "deckId": one_deck["id"], "mode": "live"},
        ),
        422,
        "mode_not_offered",
    )
