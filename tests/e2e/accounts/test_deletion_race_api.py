"""DELETE /me while the same player's writes are still arriving, through the gateway with
its default lease and rate limits (issue 13, item 1): no write answers 5xx, the deletion
completes, and no table of any service database names the player afterwards.

Writes that passed the gateway's check before the lock reach the services during the
purge or after it; each service's gate (shared/player_gate.py) makes them commit before
the purge or be refused (403 ``account_locked``). tests/integration/deletion/test_races.py
races each path many more times against the purge itself; this is the whole platform.
"""

# ruff: noqa: F401, F811 - pytest fixtures imported from the modules that define them

from __future__ import annotations

import threading

import eventlet
import pytest

from tests.e2e.accounts.test_account_deletion_api import auth0, clock, delete_me, platform, token
from tests.e2e.quest.test_attempt_api import authors, claim, event_id
from tests.e2e.quest.test_cards_api import starters
from tests.helpers import wait_for
from tests.integration.deletion.test_account_deletion import engines, occurrences
from tests.random_refs import random_sub

pytestmark = pytest.mark.e2e

ROUNDS = 3  # per kind of round; each deletion waits out the gateway's lease (1 s)
REPEATS = 3  # each write is sent this many times back to back, spanning the deletion


class Player:
    def __init__(self, api, clock):
        self.api = api
        self.sub = random_sub("racing")
        self.token = token(api, clock, self.sub)
        self.id = api.get("/me", token=self.token).json()["id"]

    def call(self, method, path, body=None):
        headers = {"Authorization": f"Bearer {self.token}"}
        return self.api.request(method, path, headers=headers, json=body)


def fresh_writes(player, event_id):
    """A registered player's first writes: the starter, an attempt."""
    return [
        ("POST", "/quest/starter", {"affinity": "Wit"}),
        ("POST", f"/quest/events/{event_id}/attempt", claim()),
    ]


def established_writes(player, event_id):
    """A player with a starter, a deck, an attempt and a match: their next writes."""
    grant = player.call("POST", "/quest/starter", {"affinity": "Wit"}).json()
    copies = [c["id"] for c in sorted(grant["cards"], key=lambda c: (c["kind"], c["name"]))]
    deck = player.call("POST", "/quest/decks", {"name": "Walk", "cards": copies}).json()
    attempt = player.call("POST", f"/quest/events/{event_id}/attempt", claim()).json()
    match = player.call("POST", "/quest/battles", {"deckId": deck["id"]}).json()
    action = next(a for a in match["legalActions"] if a["kind"] != "forfeit")
    question = attempt["questions"][0]
    answer = {"choice": question["options"][0]["id"]}
    act = {"expectedVersion": match["version"], "action": action}
    return [
        ("PUT", f"/quest/attempts/{attempt['id']}/answers/{question['index']}", answer),
        ("POST", f"/quest/battles/{match['id']}/actions", act),
        ("POST", "/quest/decks", {"name": "Second", "cards": copies}),
        ("PUT", f"/quest/decks/{deck['id']}", {"expectedVersion": 1, "cards": copies[::-1]}),
        ("POST", "/quest/battles", {"deckId": deck["id"]}),
    ]


def race(api, player, writes):
    """DELETE /me and every write, from one barrier; every answer's status."""
    barrier = threading.Barrier(len(writes) + 1)
    statuses = []

    def send(method, path, body):
        barrier.wait()
        for _ in range(REPEATS):
            statuses.append((path, player.call(method, path, body).status_code))

    def delete():
        barrier.wait()
        statuses.append(("/me", delete_me(api, player.token).status_code))

    threads = [eventlet.spawn(send, *write) for write in writes] + [eventlet.spawn(delete)]
    for thread in threads:
        thread.wait()
    return statuses


@pytest.mark.parametrize("writes", [fresh_writes, established_writes])
def test_a_deletion_racing_the_players_own_writes_leaves_nothing(
    writes, api, platform, engines, clock, starters, event_id
):
    players = []
    for _ in range(ROUNDS):
        player = Player(api, clock)
        statuses = race(api, player, writes(player, event_id))
        assert [s for s in statuses if s[1] >= 500] == []
        assert ("/me", 202) in statuses
        wait_for(
            lambda p=player: api.get("/me/deletion", token=p.token).json()["status"] == "completed",
            timeout=30,
        )
        players.append(player)
    needles = [n for p in players for n in (p.id, p.id.replace("-", ""), p.sub)]
    assert occurrences(engines, needles) == []
