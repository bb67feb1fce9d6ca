"""The demo content as a deployment serves it: Basic where the rulebook says Basic.

A Basic attempt is five distinct multiple-choice questions; ordering questions are an
extension beyond Basic (rulebook, "Questions and timing"). The server draws an attempt
from every question of the event's challenge, so the demo keeps ordering questions
out of every challenge but the one named for the extension (docs/demo-content.md; the
unit test tests/unit/games/quest/test_demo_content.py holds the page to the file). Here the
running stack is held to it: `deckyard seed` through the lifecycle, then each demo
event as an Author reads it (its challenge's questions) and as a player meets it (the
nearby list, an attempt started where the event stands).
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime

import pytest

from services.authoring.seed import SEED_DIR
from tests.e2e.quest import test_cards_api as cards_api
from tests.helpers import wait_for
from tests.random_refs import random_sub

pytestmark = pytest.mark.e2e

starters = cards_api.starters  # seeds the catalogue and the demo content (fixture)

CONTENT = json.loads((SEED_DIR / "quest_content.json").read_text(encoding="utf-8"))
TITLE_OF = {c["ref"]: c["title"] for c in CONTENT["challenges"]}
MULTIPLE_CHOICE, ORDERING = "question", "ordering_question"


def served_event(api, event):
    spot = event["location"]

    def find():
        nearby = api.get(f"/quest/events?lat={spot['lat']}&lon={spot['lon']}").json()["items"]
        return next((e for e in nearby if e["name"] == event["name"]), None)

    return wait_for(find, timeout=30)


def published_kinds(api, author, event_id):
    def read(content_id):
        answer = api.get(f"/authoring/content/{content_id}", token=author)
        assert answer.status_code == 200, answer.text
        return answer.json()

    challenge = read(read(event_id)["body"]["challengeId"])
    return challenge["body"]["title"], Counter(
        read(q)["kind"] for q in challenge["body"]["questionIds"]
    )


def drawn_kinds(api, event, event_id):
    claim = {**event["location"], "accuracyM": 10, "acquiredAt": datetime.now(UTC).isoformat()}
    started = api.request(
        "POST",
        f"/quest/events/{event_id}/attempt",
        headers={"Authorization": f"Bearer {api.token(random_sub('demo'))}"},
        json={"location": claim},
    )
    assert started.status_code == 201, started.text
    return Counter(q["kind"] for q in started.json()["questions"])


def test_each_demo_event_is_basic_unless_its_challenge_is_named_for_the_extension(api, starters):
    author = api.token(random_sub("demo-author"), roles=["author"])
    extension_events = 0
    for event in CONTENT["events"]:
        served = served_event(api, event)
        title, kinds = published_kinds(api, author, served["id"])
        assert title == TITLE_OF[event["challenge_ref"]]
        drawn = drawn_kinds(api, event, served["id"])
        assert sum(drawn.values()) == 5, (event["name"], drawn)
        if "ordering" in title.casefold():  # the extension, beyond Basic
            extension_events += 1
            assert kinds[ORDERING] > 0, (event["name"], kinds)
            assert set(drawn) <= {MULTIPLE_CHOICE, ORDERING}
        else:  # Basic: multiple-choice questions only, so every attempt is five of them
            assert set(kinds) == {MULTIPLE_CHOICE} and kinds[MULTIPLE_CHOICE] >= 5, (
                event["name"],
                title,
                kinds,
            )
            assert drawn == {MULTIPLE_CHOICE: 5}, (event["name"], drawn)
    assert 0 < extension_events < len(CONTENT["events"])
