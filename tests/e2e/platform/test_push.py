"""The push channel, end to end: a player's own events on a WebSocket (and SSE), resumed
after a reconnect, after a gateway crash, and closed when the account is deleted.

The events are real: a CPU battle forfeited through the API makes the battle service
write MatchFinished into its outbox; its relay publishes it to the push stream
(shared/push.py), which every gateway reads (gateway/push/).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import requests
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.e2e.accounts.test_me import assert_problem
from tests.e2e.quest import test_cards_api as cards_api
from tests.e2e.quest.test_battle_api import with_deck
from tests.e2e.quest.test_cards_api import Player

pytestmark = pytest.mark.e2e

starters = cards_api.starters  # the published seed catalogue (fixture)
WAIT_SECONDS = 15.0


def socket_url(base_url: str) -> str:
    return base_url.replace("http://", "ws://") + "/stream"


def open_stream(base_url: str, token: str, last_id: str | None = None) -> tuple[Any, dict]:
    """A connected, authenticated socket and the server's ``ready`` greeting."""
    socket = connect(socket_url(base_url), open_timeout=WAIT_SECONDS)
    hello = {"type": "auth", "token": token}
    if last_id is not None:
        hello["lastId"] = last_id
    socket.send(json.dumps(hello))
    ready = json.loads(socket.recv(timeout=WAIT_SECONDS))
    assert ready["type"] == "ready", ready
    return socket, ready


def next_message(socket: ClientConnection, timeout: float = WAIT_SECONDS) -> dict:
    return json.loads(socket.recv(timeout=timeout))


def nothing_more(socket: ClientConnection) -> bool:
    """No message is waiting (a short look, not a wait for a deadline)."""
    try:
        socket.recv(timeout=0.5)
    except TimeoutError:
        return True
    return False


def finished_battle(player: Player, deck: dict) -> str:
    """A CPU battle started and forfeited by ``player``: its MatchFinished is on its way."""
    started = player.call("POST", "/quest/battles", json={"deckId": deck["id"]})
    assert started.status_code == 201, started.text
    match = started.json()
    forfeited = player.call(
        "POST",
        f"/quest/battles/{match['id']}/forfeit",
        json={"expectedVersion": match["version"]},
    )
    assert forfeited.status_code == 200, forfeited.text
    return str(match["id"])


def test_a_player_is_told_of_their_own_match_and_nobody_else_is(api, starters):
    player, deck = with_deck(api)
    other = Player(api)
    mine, ready = open_stream(api.base_url, player.token)
    theirs, _ = open_stream(api.base_url, other.token)
    assert ready["playerId"] == player.call("GET", "/me").json()["id"]
    try:
        match_id = finished_battle(player, deck)
        message = next_message(mine)
        assert message["type"] == "match.finished"
        assert message["data"]["matchId"] == match_id
        assert message["data"]["result"] == "forfeit"  # the seat's result word
        assert message["id"].isdigit()
        assert nothing_more(theirs)  # another player's match is none of theirs
    finally:
        mine.close()
        theirs.close()


def test_a_client_that_reconnects_with_its_last_id_gets_what_it_missed_once(api, starters):
    player, deck = with_deck(api)
    socket, _ = open_stream(api.base_url, player.token)
    first_match = finished_battle(player, deck)
    first = next_message(socket)
    socket.close()

    second_match = finished_battle(player, deck)  # while the client is away
    again, ready = open_stream(api.base_url, player.token, last_id=first["id"])
    try:
        assert "resync" not in ready
        missed = next_message(again)
        assert (missed["type"], missed["data"]["matchId"]) == ("match.finished", second_match)
        assert int(missed["id"]) > int(first["id"])
        assert nothing_more(again)  # the first one is not sent twice
        assert first["data"]["matchId"] == first_match
    finally:
        again.close()


def test_after_a_gateway_crash_a_new_gateway_replays_the_window(
    platform, start_gateway, settings, api, starters
):
    """SIGKILL with a socket open: the client reconnects to a new gateway (another
    replica, or this one restarted) and misses nothing - it read the stream back."""
    player, deck = with_deck(api)
    first_gateway = start_gateway(settings).wait()
    socket, _ = open_stream(first_gateway.base_url, player.token)
    finished_battle(player, deck)
    seen = next_message(socket)

    first_gateway.kill()
    with pytest.raises(ConnectionClosed):
        socket.recv(timeout=WAIT_SECONDS)
    during = finished_battle(player, deck)  # no gateway of its own is running now

    second_gateway = start_gateway(settings).wait()
    again, ready = open_stream(second_gateway.base_url, player.token, last_id=seen["id"])
    try:
        assert "resync" not in ready
        missed = next_message(again)
        assert missed["data"]["matchId"] == during
        assert nothing_more(again)
    finally:
        again.close()


def test_an_id_the_gateway_cannot_vouch_for_is_answered_with_resync(api, starters):
    player, _ = with_deck(api)
    socket, ready = open_stream(api.base_url, player.token, last_id=str(10**15))
    socket.close()
    assert ready["resync"] is True  # refetch: not an id this gateway ever read


def test_a_refused_token_gets_an_error_and_the_socket_closes(api):
    socket = connect(socket_url(api.base_url), open_timeout=WAIT_SECONDS)
    socket.send(json.dumps({"type": "auth", "token": "not-a-token"}))
    error = json.loads(socket.recv(timeout=WAIT_SECONDS))
    assert (error["type"], error["code"]) == ("error", "invalid_token")
    with pytest.raises(ConnectionClosed) as closed:
        socket.recv(timeout=WAIT_SECONDS)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


def test_deleting_the_account_closes_its_sockets(api, starters):
    player = Player(api)
    socket, _ = open_stream(api.base_url, player.token)
    deleted = player.call("DELETE", "/me", json={"confirm": "DELETE MY ACCOUNT"})
    assert deleted.status_code == 202, deleted.text
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            socket.recv(timeout=WAIT_SECONDS)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4003
    refused = connect(socket_url(api.base_url), open_timeout=WAIT_SECONDS)
    refused.send(json.dumps({"type": "auth", "token": player.token}))
    # Locked while the deletion runs, deleted once it has: refused either way (which one
    # depends on how far the purge got, not on the socket).
    code = json.loads(refused.recv(timeout=WAIT_SECONDS))["code"]
    assert code in ("account_locked", "account_deleted")
    refused.close()


def test_server_sent_events_need_a_token_and_carry_the_same_messages(api, starters):
    assert_problem(requests.get(api.base_url + "/stream/sse", timeout=5), 401, "missing_token")
    player, deck = with_deck(api)
    headers = {"Authorization": f"Bearer {player.token}", "Accept": "text/event-stream"}
    with requests.get(
        api.base_url + "/stream/sse", headers=headers, stream=True, timeout=WAIT_SECONDS
    ) as stream:
        assert stream.status_code == 200
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        lines = stream.iter_lines(decode_unicode=True)
        assert next(line for line in lines if line.startswith("event:")) == "event: ready"
        match_id = finished_battle(player, deck)
        event = next(line for line in lines if line.startswith("event:"))
        data = json.loads(next(line for line in lines if line.startswith("data:"))[5:])
    assert event == "event: match.finished"
    assert data["matchId"] == match_id
