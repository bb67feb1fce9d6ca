"""`deckyard terrakard draft` on the real authoring service: drafts an Author can
publish, the answer key kept out of the public snapshot, a second run creates nothing."""

import json

import pytest

from deckyard.terrakard import draft
from games.terrakard.content import GAME
from tests.integration.authoring.test_lifecycle import ALICE, BOB, publish
from tests.random_refs import random_suffix

pytestmark = pytest.mark.integration


def article(title, year):
    return json.dumps(
        {
            "title": title,
            "wikidata": "Q243",
            "category": "Arts and culture",
            "length": 100000,
            "languages": 180,
            "monthly_views": 250000,
            "age_years": 136,
            "facts": [{"property": "P571", "label": "inception", "year": year}],
            "approximate": True,
        }
    )


@pytest.fixture
def authoring(start_service, rpc):
    start_service("authoring")
    return rpc.authoring


def test_drafted_cards_and_questions_can_be_reviewed_and_published(authoring):
    suffix = random_suffix()
    lines = [
        '{"comment": "a small file"}',
        article(f"Tower {suffix}", 1889),
        "not json",
        article(f"Bridge {suffix}", 1937),
    ]
    created = []

    def create(kind, body):
        created.append(authoring.create(actor=ALICE, kind=kind, game=GAME, body=body))
        return created[-1]

    report = draft(lines, create, latest_year=2026)

    assert (report.cards, report.questions, report.already) == (2, 2, 0)
    assert report.problems == ["line 3: not JSON: Expecting value"]
    assert {c["state"] for c in created} == {"draft"}
    card, question = created[0], created[1]
    assert question["body"]["card_lineage_id"] == card["lineageId"]
    published_card = publish(authoring, card, author=ALICE, reviewer=BOB)
    published_question = publish(authoring, question, author=ALICE, reviewer=BOB)
    assert published_card["state"] == published_question["state"] == "published"
    assert published_card["body"]["rarity"] == "Epic"
    assert published_question["body"]["answer"] in (0, 1, 2)  # the author sees the key


def test_drafting_the_same_file_again_creates_nothing(authoring):
    lines = [article(f"Canal {random_suffix()}", 1869)]

    def create(kind, body):
        return authoring.create(actor=ALICE, kind=kind, game=GAME, body=body)

    first = draft(lines, create, latest_year=2026)
    again = draft(lines, create, latest_year=2026)

    assert (first.cards, first.questions) == (1, 1)
    assert (again.cards, again.questions, again.already) == (0, 0, 1)


def test_a_card_whose_numbers_are_not_the_formulas_is_not_ready(authoring):
    from shared.errors import Conflict

    body = {
        "name": f"Tampered {random_suffix()}",
        "wikidata": "Q90",
        "category": "Geography",
        "rarity": "Legendary",
        "atk": 80,
        "def": 80,
        "figures": {"length": 10, "languages": 1, "monthly_views": 0, "age_years": 0},
        "formula_version": 1,
    }
    card = authoring.create(actor=ALICE, kind="card", game=GAME, body=body)
    with pytest.raises(Conflict) as caught:
        authoring.transition(actor=ALICE, content_id=card["id"], to="in_review", expected_version=1)
    assert caught.value.code == "not_ready"
    assert "atk must be 10" in caught.value.message
