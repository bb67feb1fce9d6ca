"""DELETE /me while the same player's writes are still arriving, through the gateway with
its default lease and rate limits (issue 13, item 1): no write answers 5xx, the deletion
completes, and no table of any service database names the player afterwards.

Writes that passed the gateway's check before the lock reach the services during the
purge or after it; each service's gate (shared/player_gate.py) makes them commit before
the purge or be refused (403 ``account_locked``). tests/integration/deletion/test_races.py
races each path many more times against the purge itself; this is the whole platform.

Eight players race at once (issue 29): each purge holds its player's gate until it
commits while that player's writes wait, each with a worker of its service. When the
purges sent a statement at a time, eight of them held the gates for seconds on a busy
machine, the waiting writes filled cards' workers, and the gateway answered 8-39
``503 service_timeout`` a run (none at four players). Every answer here must be a
success or one of the refusals a write racing a deletion may meet.
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

PLAYERS = 8  # racing at once, each against their own deletion
REPEATS = 24  # each write back to back, spanning the deletion: ~120 writes a player
# What a write racing its player's deletion (and their other writes) may answer: locked
# or deleted (gateway or service), rate limited (the gateway's default limits), gone
# with the purge, or beaten by the player's own concurrent write.
RACE_REFUSALS = {
    "account_locked",
    "account_deleted",
    "rate_limited",
    "attempt_not_found",
    "deck_not_found",
    "match_not_found",
    "stale_version",
    "active_match_exists",
    "deck_limit_reached",
}


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


def race(api, players):
    """Every player's DELETE /me and writes, from one barrier; each answer's path, status
    and problem code."""
    sends = [(player, write) for player, writes in players for write in writes]
    barrier = threading.Barrier(len(sends) + len(players))
    answers = []

    def send(player, method, path, body):
        barrier.wait()
        for _ in range(REPEATS):
            answers.append(answer(path, player.call(method, path, body)))

    def delete(player):
        barrier.wait()
        answers.append(answer("/me", delete_me(api, player.token)))

    threads = [eventlet.spawn(send, player, *write) for player, write in sends]
    threads += [eventlet.spawn(delete, player) for player, _ in players]
    for thread in threads:
        thread.wait()
    return answers


def answer(path, response):
    problem = response.headers.get("Content-Type") == "application/problem+json"
    return path, response.status_code, response.json()["code"] if problem else None


@pytest.mark.parametrize("writes", [fresh_writes, established_writes])
def test_deletions_racing_their_players_own_writes_answer_refusals_and_leave_nothing(
    writes, api, platform, engines, clock, starters, event_id
):
    players = [Player(api, clock) for _ in range(PLAYERS)]
    answers = race(api, [(player, writes(player, event_id)) for player in players])
    assert [a for a in answers if a[1] >= 400 and a[2] not in RACE_REFUSALS] == []
    assert [a for a in answers if a[0] == "/me"] == [("/me", 202, None)] * PLAYERS
    for player in players:
        wait_for(
            lambda p=player: api.get("/me/deletion", token=p.token).json()["status"] == "completed",
            timeout=60,
        )
    needles = [n for p in players for n in (p.id, p.id.replace("-", ""), p.sub)]
    assert occurrences(engines, needles) == []
