"""TerraKard's kinds in authoring: the pipeline's drafts load, are ready, and a question's
answer key stays out of its public face."""

import uuid

import pytest

from games.terrakard.articles import parse_line
from games.terrakard.drafts import card_body, question_body
from services.authoring import kinds
from shared.errors import InvalidInput

ARTICLE = parse_line(
    '{"title": "Suez Canal", "wikidata": "Q899", "category": "Geography", "length": 90000,'
    ' "languages": 140, "monthly_views": 50000, "age_years": 156,'
    ' "facts": [{"property": "P1619", "label": "date of official opening", "year": 1869}]}'
)


def test_a_drafted_card_loads_and_is_ready():
    body = kinds.load_body("card", "terrakard", card_body(ARTICLE))
    assert kinds.readiness_problems("card", "terrakard", body) == []
    assert kinds.is_card("terrakard", "card")
    assert kinds.card_name("card", body, "terrakard") == "suez canal"


def test_a_card_must_carry_the_formulas_numbers():
    body = kinds.load_body("card", "terrakard", {**card_body(ARTICLE), "atk": 99})
    assert kinds.readiness_problems("card", "terrakard", body) == [
        f"atk must be {card_body(ARTICLE)['atk']} (the formula's, for these figures)"
    ]
    old = kinds.load_body("card", "terrakard", {**card_body(ARTICLE), "formula_version": 9})
    assert kinds.readiness_problems("card", "terrakard", old) == ["a card uses formula version 1"]


def test_a_question_keeps_its_answer_private():
    body = kinds.load_body(
        "knowledge_question", "terrakard", question_body(ARTICLE, 2026, str(uuid.uuid4()))
    )
    assert kinds.readiness_problems("knowledge_question", "terrakard", body) == []
    public = kinds.public_view("knowledge_question", "terrakard", body)
    assert "answer" not in public and "explanation" not in public
    assert public["choices"] == body["choices"]


def test_a_questions_difficulty_must_follow_its_cards_rarity():
    drafted = question_body(ARTICLE, 2026, str(uuid.uuid4()))
    body = kinds.load_body(
        "knowledge_question", "terrakard", {**drafted, "difficulty": "hard", "answer": None}
    )
    problems = kinds.readiness_problems("knowledge_question", "terrakard", body)
    assert problems == [
        "a knowledge question needs its right answer",
        "a question about a Uncommon card is easy",
    ]


def test_an_unknown_category_is_invalid_input():
    with pytest.raises(InvalidInput):
        kinds.load_body("card", "terrakard", {**card_body(ARTICLE), "category": "Sport"})
