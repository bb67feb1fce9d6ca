"""Chronovore against another player through the gateway on the real stack: two players
paired by the queue play a whole match, each on its own gateway replica, both told of
every change through push; neither ever sees the other's cards before their pair
resolves. Invitations by pseudonym; the 2-minute choosing step ended by the sweeper on a
moved clock; leaving gives the other player the win (MatchFinished: mode ``pvp``, each
seat's result, the leaver's ``left``); after an account deletion the former opponent
sees "Deleted player".

The battle service's clock is a ``FixedClock`` at ``T0`` (tests/e2e/chronovore/
test_matches_api.py): time moves only when a test moves it.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from nameko.testing.services import entrypoint_hook

from services.accounts.deletion import CONFIRMATION_PHRASE
from services.battle.orm import plumbing
from tests.conftest import http_port
from tests.e2e.accounts.test_me import assert_problem
from tests.e2e.chronovore import support
from tests.e2e.chronovore.support import open_all
from tests.e2e.chronovore.test_matches_api import (
    CHOOSING,
    T0,
    TICK,
    clock,
    platform,
    send,
    stored_state,
)
from tests.e2e.conftest import ApiClient
from tests.e2e.platform.test_push import next_message, open_stream
from tests.e2e.quest.test_battle_api import stop_sweeper
from tests.e2e.quest.test_cards_api import Player
from tests.helpers import wait_for

pytestmark = pytest.mark.e2e

starters = support.starters  # the published seed catalogue (fixture)
core_set = support.core_set  # the Core Set as the library shows it (fixture)
__all__ = ["clock", "platform"]  # fixtures, used by name


def pseudonym(player: Player) -> str:
    player_id = player.call("GET", "/me").json()["id"]
    return "Keeper-" + hashlib.sha256(player_id.encode()).hexdigest()[:6]


def class_deck(api, rpc, core_set, avoid: str) -> tuple[Player, dict[str, Any], str]:
    """A new player with a legal deck of a class other than ``avoid`` -> (player, deck,
    its class)."""
    player = Player(api)
    open_all(rpc, player)
    collection = player.call("GET", "/chronovore/collection").json()
    cards = support.legal_list(collection, core_set, avoid=avoid)
    answer = player.call("POST", "/chronovore/decks", json={"name": "Versus", "cards": cards})
    assert answer.status_code == 201 and answer.json()["legal"], answer.text
    chosen = set(cards)
    classes = Counter(
        core_set[group["definition"]["id"]]["definition"]["cardClass"]
        for group in collection["definitions"]
        for copy in group["copies"]
        if copy["id"] in chosen
    )
    card_class = next(c for c, _ in classes.most_common() if c != "neutral")
    return player, answer.json(), card_class


def two_players(api, rpc, core_set):
    """Two players whose decks are of different classes: each one's class cards are
    names the other never holds."""
    one, one_deck, one_class = class_deck(api, rpc, core_set, avoid=support.CPU_CLASS)
    two, two_deck, _ = class_deck(api, rpc, core_set, avoid=one_class)
    return one, one_deck, two, two_deck


def hidden_from(settings, match_id: str, seat: str) -> set[str]:
    """Names of the other seat's cards ``seat`` must not see now (in hand, deck, or in a
    slot whose pair has not resolved), less any name ``seat`` holds itself and any the
    other seat played already (its discard: revealed when their pair resolved)."""
    state = stored_state(settings, match_id)
    mine = state["sides"][state["seats"].index(seat)]
    theirs = state["sides"][1 - state["seats"].index(seat)]

    def names(*piles: list[Any]) -> set[str]:
        return {item["card"]["name"] for pile in piles for item in pile if item is not None}

    secret = names(theirs["hand"], theirs["deck"], theirs["slots"])
    return (
        secret
        - names(mine["hand"], mine["deck"], mine["discard"], mine["slots"])
        - names(theirs["discard"])
    )


class Inbox:
    """A player's push socket and every message read from it so far (the events of one
    transaction may arrive in either order of the checks: MatchFinished, MatchUpdated)."""

    def __init__(self, socket) -> None:
        self.socket = socket
        self.seen: list[dict[str, Any]] = []

    def until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first message, read already or next, for which ``done`` holds."""
        for message in self.seen:
            if done(message):
                return message
        while True:
            self.seen.append(next_message(self.socket))
            if done(self.seen[-1]):
                return self.seen[-1]


def at_version(match_id: str, version: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["data"].get("matchId") == match_id and m["data"].get("version") == version


def finished(match_id: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "match.finished" and m["data"]["matchId"] == match_id


def view_of(player: Player, match_id: str) -> dict[str, Any]:
    answer = player.call("GET", f"/chronovore/matches/{match_id}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_two_players_paired_by_the_queue_play_a_whole_match_told_through_push(
    api, rpc, core_set, settings, platform, start_service
):
    stop_sweeper(platform["battle"])  # only the players' locks move this match
    one, one_deck, two, two_deck = two_players(api, rpc, core_set)
    # The second player uses another gateway replica, for its requests and its socket.
    replica = ApiClient(f"http://127.0.0.1:{http_port(start_service('gateway'))}", settings)
    two.api = replica
    one_socket = Inbox(open_stream(api.base_url, one.token)[0])
    two_socket = Inbox(open_stream(replica.base_url, two.token)[0])
    try:
        waiting = one.call("POST", "/chronovore/queue", json={"deckId": one_deck["id"]})
        assert waiting.status_code == 200, waiting.text
        assert waiting.json()["status"] == "queued" and waiting.json()["matchId"] is None
        paired = two.call("POST", "/chronovore/queue", json={"deckId": two_deck["id"]}).json()
        assert paired["status"] == "matched"
        match_id = paired["matchId"]
        assert one.call("GET", "/chronovore/queue").json()["matchId"] == match_id
        # Both told at once: the match is waiting for each of them.
        for socket in (one_socket, two_socket):
            told = socket.until(at_version(match_id, 0))
            assert told["type"] == "match.your_turn" and told["data"]["mode"] == "pvp"
        views = {"one": view_of(one, match_id), "two": view_of(two, match_id)}
        # The one waiting longer sits first (both joined at T0 here: then by player id).
        seats = {name: view["seat"] for name, view in views.items()}
        assert sorted(seats.values()) == ["first", "second"]
        assert views["one"]["opponent"]["kind"] == "player"
        assert views["one"]["opponent"]["name"] == pseudonym(two)
        assert views["two"]["opponent"]["name"] == pseudonym(one)
        assert views["one"]["deadline"] == (T0 + CHOOSING).isoformat()
        # The match's seed is committed to from the first view, and kept until the end.
        commitment = views["one"]["fairness"]["commitment"]
        assert commitment and views["two"]["fairness"]["commitment"] == commitment
        assert views["one"]["fairness"]["seed"] is None
        players = {"one": one, "two": two}
        sockets = {"one": one_socket, "two": two_socket}
        answers: dict[str, list[Any]] = {"one": [], "two": []}

        def check_secrets() -> None:
            for name, player in players.items():
                hidden = hidden_from(settings, match_id, seats[name])
                assert hidden, "the decks share every name: the check would prove nothing"
                seen = [
                    *answers[name],
                    player.call("GET", f"/chronovore/matches/{match_id}"),
                    player.call("GET", f"/chronovore/matches/{match_id}/history"),
                ]
                for answer in seen:
                    leaked = [n for n in hidden if n in answer.text]
                    assert not leaked, (name, leaked, answer.text)
                answers[name] = []

        rounds = 0
        while views["one"]["status"] == "active":
            rounds += 1
            # The first player fills a slot and locks. The placement is its answer; the
            # second player is told nothing of it (each seat has its own version:
            # docs/chronovore.md, "Face down"), then of the lock.
            view = views["one"]
            monsters = [c for c in view["you"]["hand"] if c["card"]["kind"] == "monster"]
            if monsters:
                placed = send(one, view, {"kind": "place", "card": monsters[0]["uid"], "slot": 0})
                assert placed.status_code == 200, placed.text
                answers["one"].append(placed)
                view = placed.json()
            locked = send(one, view, {"kind": "lock"})
            assert locked.status_code == 200, locked.text
            answers["one"].append(locked)
            version = locked.json()["version"]
            told_two = two_socket.until(at_version(match_id, views["two"]["version"] + 1))
            told_one = one_socket.until(at_version(match_id, version))
            assert (told_two["type"], told_one["type"]) == ("match.your_turn", "match.updated")
            theirs = view_of(two, match_id)
            answers["two"].append(two.call("GET", f"/chronovore/matches/{match_id}"))
            assert theirs["opponent"]["locked"] is True
            assert theirs["opponent"]["slots"][0] == ("face_down" if monsters else None)
            check_secrets()
            # The second player locks an empty row: the pairs resolve for both.
            resolved = send(two, theirs, {"kind": "lock"})
            assert resolved.status_code == 200, resolved.text
            answers["two"].append(resolved)
            after = resolved.json()
            assert "heroes_entered" in [e["type"] for e in after["events"]]
            views = {"one": view_of(one, match_id), "two": after}
            for name, socket in sockets.items():
                socket.until(at_version(match_id, views[name]["version"]))
            if monsters and after["status"] == "active":
                pair = views["one"]["revealed"][0]["cards"]
                assert pair[seats["one"]]["uid"] == monsters[0]["uid"]
                assert pair[seats["two"]] is None
            check_secrets()
        assert 1 <= rounds <= 5
        results = {views["one"]["result"], views["two"]["result"]}
        assert results in ({"win", "loss"}, {"draw"})
        for name, socket in sockets.items():
            end = socket.until(finished(match_id))
            assert end["data"]["result"] == views[name]["result"]
        history = two.call("GET", f"/chronovore/matches/{match_id}/history").json()
        assert (history["mode"], history["opponent"]) == ("pvp", pseudonym(one))
        revealed = view_of(one, match_id)["fairness"]
        assert revealed["commitment"] == commitment and revealed["seed"] is not None
        opened = f"{revealed['seed']}:{revealed['salt']}".encode()  # docs/fairness.md
        assert hashlib.sha256(opened).hexdigest() == commitment
        assert one.call("GET", "/chronovore/queue").json()["status"] == "idle"
    finally:
        one_socket.socket.close()
        two_socket.socket.close()


def test_before_a_seat_locks_its_opponent_sees_nothing_of_its_row(api, rpc, core_set, platform):
    """chronovore.txt: "Your opponent's cards stay face down until that pair is
    resolved"; docs/chronovore.md: "Before a seat locks, its opponent sees nothing of its
    row". While one player places, moves and takes back cards, the other's view, history
    and push stream stay as they were; at the lock, it learns that it locked, and no more."""
    stop_sweeper(platform["battle"])
    one, one_deck, two, two_deck = two_players(api, rpc, core_set)
    two_socket = Inbox(open_stream(api.base_url, two.token)[0])
    try:
        assert one.call("POST", "/chronovore/queue", json={"deckId": one_deck["id"]}).ok
        match_id = two.call("POST", "/chronovore/queue", json={"deckId": two_deck["id"]}).json()[
            "matchId"
        ]
        two_socket.until(at_version(match_id, 0))  # told of the pairing
        watched = view_of(two, match_id)
        history = two.call("GET", f"/chronovore/matches/{match_id}/history").json()
        view = view_of(one, match_id)
        hand = [c["uid"] for c in view["you"]["hand"]]
        for action in (
            {"kind": "place", "card": hand[0], "slot": 3},
            {"kind": "place", "card": hand[1], "slot": 1},
            {"kind": "move", "slot": 3, "to": 0},
            {"kind": "take_back", "slot": 1},
        ):
            answer = send(one, view, action)
            assert answer.status_code == 200, answer.text
            view = answer.json()
            assert view_of(two, match_id) == watched, action
            again = two.call("GET", f"/chronovore/matches/{match_id}/history").json()
            assert again == history, action
        assert view["version"] == watched["version"] + 4  # its own view keeps everything
        assert [
            e["action"]["kind"]
            for e in one.call("GET", f"/chronovore/matches/{match_id}/history").json()["entries"]
        ] == ["place", "place", "move", "take_back"]
        # The other player may still act at the version it saw (its own placement: the
        # first player is not told of it either).
        card = watched["you"]["hand"][0]["uid"]
        placed = send(two, watched, {"kind": "place", "card": card, "slot": 2})
        assert placed.status_code == 200, placed.text
        locked = send(one, view, {"kind": "lock"})
        assert locked.status_code == 200, locked.text
        # Its first message since the pairing is the lock: none for the hidden actions.
        two_socket.until(
            lambda m: (
                m["data"].get("matchId") == match_id
                and m["type"] in ("match.updated", "match.your_turn")
                and m["data"]["version"] > 0
            )
        )
        told = [m for m in two_socket.seen if m["data"].get("matchId") == match_id]
        assert [m["data"]["version"] for m in told] == [0, watched["version"] + 2], told
    finally:
        two_socket.socket.close()


def test_an_invitation_by_pseudonym_and_the_two_minutes_ended_by_the_sweeper(
    api, rpc, core_set, platform, clock
):
    stop_sweeper(platform["battle"])  # the test runs the sweeper itself
    one, one_deck, two, two_deck = two_players(api, rpc, core_set)
    mine = one.call("GET", "/chronovore/invitations").json()
    theirs = two.call("GET", "/chronovore/invitations").json()
    assert (mine, theirs["items"]) == ({"you": pseudonym(one), "items": [], "next": None}, [])
    assert_problem(
        one.call(
            "POST",
            "/chronovore/invitations",
            json={"to": "Keeper-zzzzzz", "deckId": one_deck["id"]},
        ),
        404,
        "player_not_found",
    )
    sent = one.call(
        "POST", "/chronovore/invitations", json={"to": theirs["you"], "deckId": one_deck["id"]}
    )
    assert sent.status_code == 201, sent.text
    invitation = sent.json()
    assert (invitation["status"], invitation["to"], invitation["sent"]) == (
        "pending",
        theirs["you"],
        True,
    )
    [received] = two.call("GET", "/chronovore/invitations").json()["items"]
    assert (received["id"], received["sent"], received["deckId"]) == (invitation["id"], False, None)
    assert_problem(
        two.call(
            "POST",
            f"/chronovore/invitations/{invitation['id']}/accept",
            json={"deckId": one_deck["id"]},
        ),
        404,
        "deck_not_found",
    )
    one_socket = Inbox(open_stream(api.base_url, one.token)[0])
    try:
        accepted = two.call(
            "POST",
            f"/chronovore/invitations/{invitation['id']}/accept",
            json={"deckId": two_deck["id"]},
        )
        assert accepted.status_code == 201, accepted.text
        view = accepted.json()
        assert (view["mode"], view["seat"], view["opponent"]["name"]) == (
            "pvp",
            "second",
            pseudonym(one),
        )
        match_id = view["id"]
        told = one_socket.until(at_version(match_id, 0))  # the inviter is told
        assert told["type"] == "match.your_turn"
        listed = one.call("GET", "/chronovore/invitations").json()["items"]
        assert (listed[0]["status"], listed[0]["matchId"]) == ("accepted", match_id)
        again = two.call(
            "POST",
            f"/chronovore/invitations/{invitation['id']}/accept",
            json={"deckId": two_deck["id"]},
        )
        assert_problem(again, 409, "invitation_not_pending")
        # The first player locks in; the second does nothing until the time runs out.
        locked = send(one, view_of(one, match_id), {"kind": "lock"}).json()

        def sweep() -> dict[str, Any]:
            with entrypoint_hook(platform["battle"], "expire_overdue_turns") as run:
                run()
            return view_of(two, match_id)

        clock.set(T0 + CHOOSING - TICK)
        assert sweep()["version"] == locked["version"]  # not yet
        clock.set(T0 + CHOOSING)
        swept = sweep()
        assert swept["version"] > locked["version"]
        # Both rows empty: nothing resolves, round 2 begins with its own 2 minutes.
        assert (swept["round"], swept["deadline"]) == (2, (T0 + 2 * CHOOSING).isoformat())
        told = one_socket.until(at_version(match_id, swept["version"]))
        assert told["data"]["deadline"] == swept["deadline"]
        history = two.call("GET", f"/chronovore/matches/{match_id}/history").json()
        timed = [e for e in history["entries"] if e["seat"] == "second"]
        assert timed[0]["action"] == {"kind": "lock"}
        assert timed[0]["events"][0] == {"type": "locked", "seat": "second", "timedOut": True}
        assert timed[0]["at"] == (T0 + CHOOSING).isoformat()
    finally:
        one_socket.socket.close()


def test_leaving_gives_the_other_player_the_win_and_a_deletion_leaves_deleted_player(
    api, rpc, core_set, settings
):
    one, one_deck, two, two_deck = two_players(api, rpc, core_set)
    one.call("POST", "/chronovore/queue", json={"deckId": one_deck["id"]})
    match_id = two.call("POST", "/chronovore/queue", json={"deckId": two_deck["id"]}).json()[
        "matchId"
    ]
    two_socket = Inbox(open_stream(api.base_url, two.token)[0])
    try:
        view = view_of(one, match_id)
        left = one.call(
            "POST",
            f"/chronovore/matches/{match_id}/leave",
            json={"expectedVersion": view["version"]},
        )
        assert left.status_code == 200, left.text
        leaver = view["seat"]
        stayer = next(seat for seat in ("first", "second") if seat != leaver)
        assert (left.json()["result"], left.json()["results"]) == (
            "left",
            {leaver: "left", stayer: "win"},
        )
        end = two_socket.until(finished(match_id))
        assert end["data"]["result"] == "win" and end["data"]["mode"] == "pvp"
    finally:
        two_socket.socket.close()
    assert view_of(two, match_id)["result"] == "win"
    one_id, two_id = (p.call("GET", "/me").json()["id"] for p in (one, two))
    event = finished_event(settings, match_id)
    assert (event["game"], event["mode"]) == ("chronovore", "pvp")
    assert sorted((s["seat"], s["kind"], s["player_id"], s["result"]) for s in event["seats"]) == (
        sorted([(leaver, "player", one_id, "left"), (stayer, "player", two_id, "win")])
    )
    # The leaver deletes their account: the other keeps the match, against "Deleted player".
    deleted = one.call("DELETE", "/me", json={"confirm": CONFIRMATION_PHRASE})
    assert deleted.status_code == 202, deleted.text
    wait_for(
        lambda: (
            two.call("GET", f"/chronovore/matches/{match_id}/history").json()["opponent"]
            == "Deleted player"
        ),
        timeout=30,
    )
    view = view_of(two, match_id)
    assert (view["opponent"]["name"], view["result"]) == ("Deleted player", "win")
    assert one_id not in two.call("GET", f"/chronovore/matches/{match_id}/history").text


def finished_event(settings, match_id: str) -> dict[str, Any]:
    """The MatchFinished payload battle wrote for the match (its outbox)."""
    engine = sa.create_engine(settings.database_url_for("battle"))
    outbox = plumbing.outbox
    try:
        with engine.connect() as conn:
            payloads = conn.execute(
                sa.select(outbox.c.payload).where(
                    outbox.c.payload["data"]["match_id"].astext == match_id
                )
            ).scalars()
            return next(p["data"] for p in payloads if "finished_at" in p["data"])
    finally:
        engine.dispose()
