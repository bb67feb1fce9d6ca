"""A whole TerraKard attack through the gateway on the real stack: cards and knowledge
questions published through authoring, two players' starting collections, a saved and
active defense plan, the arena, an attack played to its end with its question, and the
defender's report. The attacker never sees the reserve or an unrevealed plan card before
it is revealed, and no answer key ever."""

from __future__ import annotations

import hashlib
import json
import uuid
from typing import Any

import pytest

from games.kit.fair import match_commitment
from games.terrakard.articles import article_from
from games.terrakard.content import CYCLE
from games.terrakard.drafts import card_body, question_body
from gateway.casing import camelize
from tests.e2e.quest.test_attempt_api import authors
from tests.helpers import wait_for
from tests.random_refs import random_sub

pytestmark = pytest.mark.e2e

__all__ = ["authors"]

YEAR = 2026


def past_the_tutorial(player: Player, deck_id: str) -> None:
    """The tutorial (a first attack against the training plan), given up at once."""
    started = player.ok("POST", "/terrakard/tutorial", {"deckId": deck_id})
    body = {"expectedVersion": started["version"], "action": {"kind": "give_up"}}
    ended = player.ok("POST", f"/terrakard/attacks/{started['id']}/actions", body)
    assert ended["status"] == "finished"


def _publish(authors, kind: str, body: dict[str, Any]) -> dict[str, Any]:
    item = authors(
        "POST",
        "/authoring/content",
        json={"kind": kind, "game": "terrakard", "body": camelize(body)},
    )
    path = f"/authoring/content/{item['id']}/transitions"
    for to, who, version in (("in_review", 0, 1), ("approved", 1, 2), ("published", 0, 3)):
        item = authors("POST", path, who=who, json={"to": to, "expectedVersion": version})
    return item


def _article(index: int, views: int, languages: int) -> Any:
    return article_from(
        {
            # "Aa": first by name, so new players' starting collections (the first
            # cards of each category by name) are these, with their questions, whatever
            # other tests of the session published ("Tk matrix ...", "TK Common ...").
            "title": f"Aa{uuid.uuid4().hex[:10]}",
            "wikidata": f"Q{900000 + index}",
            "category": str(CYCLE[index % len(CYCLE)]),
            "length": 4000,
            "languages": languages,
            "monthly_views": views,
            "age_years": 120,
            "facts": [{"property": "P571", "label": "inception", "year": 1800 + index}],
        }
    )


# Every card this fixture published in the session, each with its question: the starting
# collection comes from every published card of the session, other tests' included.
WITH_QUESTIONS: set[str] = set()


@pytest.fixture
def catalogue(api, authors):
    """Twelve Common cards (each with its knowledge question) and two Uncommon ones."""
    articles = [_article(i, 1000 * (i + 1), 5) for i in range(12)]
    articles += [_article(12 + i, 1_500_000, 12) for i in range(2)]
    names = []
    for article in articles:
        card = _publish(authors, "card", card_body(article))
        names.append(card["body"]["name"])
        body = question_body(article, YEAR, card["lineageId"])
        assert body is not None
        _publish(authors, "knowledge_question", body)
        WITH_QUESTIONS.add(card["body"]["name"])
    return names


class Player:
    def __init__(self, api, name: str) -> None:
        self.api = api
        self.token = api.token(random_sub(name))

    def call(self, method: str, path: str, body: Any = None, headers=None):
        headers = {"Authorization": f"Bearer {self.token}", **(headers or {})}
        extra = {} if body is None else {"json": body}
        return self.api.request(method, path, headers=headers, **extra)

    def ok(self, method: str, path: str, body: Any = None, headers=None) -> Any:
        response = self.call(method, path, body, headers)
        assert response.ok, (method, path, response.status_code, response.text)
        return response.json() if response.content else None

    def start(self, names: list[str]) -> dict[str, Any]:
        """The starting collection, once the published cards have reached cards."""

        def ready():
            response = self.call("POST", "/terrakard/collection/start")
            return response.json() if response.status_code == 200 else None

        collection = wait_for(ready)
        return collection


def commons(collection: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in collection["cards"] if c["rarity"] == "Common"]


def defender_copies(plan: dict[str, Any]) -> list[str]:
    """The defender's own copies in the plan: ids of another account, never shown to the
    attacker (who holds copies of the same cards: names alone prove nothing)."""
    return [c["id"] for c in plan["rounds"]] + [plan["reserve"]["id"]]


def assert_nothing_secret(text: str, hidden: list[str]) -> None:
    leaked = [n for n in hidden if n in text]
    assert not leaked, ("the defender's copies reached the attacker", leaked)
    data = json.loads(text)
    assert not _keys(data) & {"answer", "answerKey", "explanation", "correct", "plan", "posture"}


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | set().union(*(_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_keys(v) for v in value)) if value else set()
    return set()


def test_a_whole_attack_against_another_players_saved_plan(api, catalogue, clock):
    defender, attacker = Player(api, "defender"), Player(api, "attacker")
    defense_cards = commons(defender.start(catalogue))
    plan = defender.ok(
        "POST",
        "/terrakard/plans",
        {
            "name": "Wall",
            "rounds": [c["id"] for c in defense_cards[:5]],
            "reserve": defense_cards[5]["id"],
            "condition": {"trigger": "low_hp"},
            "posture": "cautious",
            "activate": True,
        },
    )
    assert plan["legal"] and plan["active"]

    deck_cards = commons(attacker.start(catalogue))
    deck = attacker.ok(
        "POST", "/terrakard/decks", {"name": "First", "cards": [c["id"] for c in deck_cards]}
    )
    assert deck["legal"] and deck["cost"] == 8
    own = [c["id"] for c in defense_cards[:8]]
    past_the_tutorial(defender, defender.ok("POST", "/terrakard/decks",
                                            {"name": "D", "cards": own})["id"])  # fmt: skip
    past_the_tutorial(attacker, deck["id"])
    clock.advance(days=3)  # past the new players' protection

    arena = attacker.ok("GET", "/terrakard/arena")
    me = defender.ok("GET", "/me")["id"]
    assert me not in json.dumps(arena)  # targets, never account ids
    # The defender's target, as the arena offers it (by its pseudonym: ours, from the id).
    pseudonym = "Keeper-" + hashlib.sha256(me.encode()).hexdigest()[:6]
    target = next(t for t in arena["items"] if t["pseudonym"] == pseudonym)
    assert not target["automatic"] and target["level"] == 1

    response = attacker.call(
        "POST", "/terrakard/attacks", {"deckId": deck["id"], "targetId": target["targetId"]}
    )
    assert response.status_code == 201, response.text
    view = response.json()
    assert view["reconnaissance"]["pseudonym"] == pseudonym
    attack = view["id"]
    assert view["phase"] == "reconnaissance"
    hidden = defender_copies(plan)
    assert_nothing_secret(response.text, hidden)
    assert len(view["reconnaissance"]["categories"] or [None] * 5) == 5
    # The terrain is a fair roll of the attacker's own seeds, stored before it was shown
    # (issue 22); the attack's seed is committed from this first answer, not shown.
    rolls = attacker.ok("GET", "/me/fairness/rolls")["items"]
    # (The tutorial's terrain was rolled the same way, under its own attack id.)
    terrains = [r for r in rolls if r["purpose"] == "terrakard.terrain"]
    assert len(terrains) == 2
    [roll] = [r for r in terrains if r["source"] == {"type": "attack", "id": attack}]
    assert roll["draws"][0]["outcome"] == view["reconnaissance"]["terrain"]["name"]
    commitment = view["fairness"]["commitment"]
    assert len(commitment) == 64 and view["fairness"]["seed"] is None

    asked = False
    for _ in range(30):
        if view["status"] == "finished":
            break
        kinds = {a["kind"] for a in view["legalActions"]}
        if "begin" in kinds:
            action = {"kind": "begin"}
        elif "answer" in kinds:
            asked = True
            assert len(view["question"]["choices"]) == 3 and view["question"]["stake"]
            action = {"kind": "answer", "choice": 0}
        else:
            action = next(a for a in view["legalActions"] if a["kind"] == "play")
        key = uuid.uuid4().hex
        body = {"expectedVersion": view["version"], "action": action}
        response = attacker.call(
            "POST", f"/terrakard/attacks/{attack}/actions", body, {"Idempotency-Key": key}
        )
        assert response.ok, response.text
        assert_nothing_secret(response.text, hidden)
        again = attacker.call(
            "POST", f"/terrakard/attacks/{attack}/actions", body, {"Idempotency-Key": key}
        )
        assert again.json() == response.json()  # the same key: the first answer
        view = response.json()
    assert view["status"] == "finished"
    # Round 1's planned card has a question when this fixture published it (the starting
    # collection comes from every published card of the session): then it was asked.
    assert asked == (plan["rounds"][0]["name"] in WITH_QUESTIONS)
    assert view["outcome"] in ("three_stars", "two_stars", "one_star", "defeat")
    history = attacker.ok("GET", f"/terrakard/attacks/{attack}/history")
    assert history["entries"][0]["action"] == {"kind": "begin"}
    assert "correct" not in json.dumps(history)
    revealed = history["fairness"]  # over: the seed and salt match the commitment
    assert revealed["commitment"] == commitment and history["replay"] is None
    assert match_commitment(int(revealed["seed"]), revealed["salt"]) == commitment

    reports = wait_for(
        lambda: [
            r
            for r in defender.ok("GET", "/terrakard/defense-reports")["items"]
            if r["matchId"] == attack
        ]
    )
    assert reports[0]["attacker"].startswith("Keeper-")
    one = defender.ok("GET", f"/terrakard/defense-reports/{attack}")
    assert one["report"]["rounds"] and one["replay"]
    assert attacker.call("GET", f"/terrakard/defense-reports/{attack}").status_code == 404

    # A second attack on the same defender by the same attacker is refused for a while.
    again = attacker.call(
        "POST", "/terrakard/attacks", {"deckId": deck["id"], "targetId": target["targetId"]}
    )
    assert again.status_code == 409 and again.json()["code"] == "target_recently_attacked"
