"""The card pipeline: the input format, the formula, the questions, and the sample."""

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from games.kit.refusal import Refusal
from games.terrakard.articles import parse_line
from games.terrakard.content import Category, Difficulty, Rarity
from games.terrakard.drafts import card_body, question_body
from games.terrakard.formula import points, stats
from games.terrakard.questions import question_for

SAMPLE = Path(__file__).parents[4] / "services/authoring/seed/terrakard_articles.sample.jsonl"


def line(**overrides):
    data = {
        "title": "Eiffel Tower",
        "wikidata": "Q243",
        "category": "Arts and culture",
        "length": 100000,
        "languages": 180,
        "monthly_views": 250000,
        "age_years": 136,
        "facts": [{"property": "P571", "label": "inception", "year": 1889}],
    }
    data.update(overrides)
    return json.dumps({k: v for k, v in data.items() if v is not None})


def test_a_line_becomes_an_article_and_blank_or_comment_lines_are_skipped():
    article = parse_line(line(title="  Eiffel   Tower "))
    assert article.title == "Eiffel Tower" and article.category is Category.ARTS_AND_CULTURE
    assert parse_line("   \n") is None
    assert parse_line('{"comment": "a sample"}') is None


@pytest.mark.parametrize(
    "bad",
    [
        "[1, 2]",
        "{not json",
        line(wikidata="243"),
        line(category="Sport"),
        line(languages=0),
        line(length=-1),
        line(monthly_views=1.5),
        line(title="x" * 81),
        line(facts=[{"property": "P571", "label": "inception", "year": 0}]),
        line(colour="red"),
    ],
)
def test_a_malformed_line_is_refused(bad):
    with pytest.raises(Refusal):
        parse_line(bad)


def test_band_points_start_at_each_bands_floor():
    bands = (10, 20)
    assert [points(v, bands) for v in (9, 10, 19, 20, 10**9)] == [0, 1, 1, 2, 2]


def test_the_formula_in_whole_numbers():
    computed = stats(parse_line(line()))
    # views 250000: 5; languages 180: 6; length 100000: 5; age 136: 4
    assert computed.renown == 3 * 5 + 3 * 6 + 2 * 5 == 43
    assert (computed.atk, computed.def_) == (10 + 25 + 18 + 10, 10 + 20 + 15 + 12)
    assert computed.rarity is Rarity.EPIC


@pytest.mark.parametrize(
    ("views", "languages", "length", "renown", "rarity"),
    [
        (5_000, 80, 15_000, 22, Rarity.COMMON),
        (5_000, 80, 30_000, 24, Rarity.UNCOMMON),
        (20_000, 120, 60_000, 32, Rarity.UNCOMMON),
        (60_000, 120, 30_000, 33, Rarity.RARE),
        (20_000, 230, 100_000, 40, Rarity.RARE),
        (150_000, 170, 60_000, 41, Rarity.EPIC),
        (400_000, 230, 60_000, 47, Rarity.EPIC),
        (1_000_000, 230, 30_000, 48, Rarity.LEGENDARY),
    ],
)
def test_rarity_follows_renown_on_both_sides_of_each_floor(
    views, languages, length, renown, rarity
):
    article = parse_line(line(monthly_views=views, languages=languages, length=length))
    assert (stats(article).renown, stats(article).rarity) == (renown, rarity)


def test_an_article_without_a_dated_fact_has_no_question():
    article = parse_line(line(facts=[]))
    assert question_for(article, Rarity.RARE, 2026) is None
    assert question_body(article, 2026) is None


@pytest.mark.parametrize(
    ("rarity", "difficulty", "gaps"),
    [
        (Rarity.COMMON, Difficulty.EASY, (30, 40, 50, 60)),
        (Rarity.UNCOMMON, Difficulty.EASY, (30, 40, 50, 60)),
        (Rarity.RARE, Difficulty.MEDIUM, (8, 10, 12, 15)),
        (Rarity.EPIC, Difficulty.HARD, (2, 3, 4, 5)),
        (Rarity.LEGENDARY, Difficulty.HARD, (2, 3, 4, 5)),
    ],
)
def test_three_answers_as_close_as_the_difficulty(rarity, difficulty, gaps):
    question = question_for(parse_line(line()), rarity, 2026)
    years = [int(c) for c in question.choices]
    assert question.difficulty is difficulty and years == sorted(years) and len(set(years)) == 3
    assert years[question.answer] == 1889
    assert min(abs(y - 1889) for y in years if y != 1889) in gaps


def test_questions_are_deterministic_and_the_right_answer_moves():
    places = Counter()
    for n in range(1, 60):
        article = parse_line(line(wikidata=f"Q{n}"))
        first = question_for(article, Rarity.RARE, 2026)
        assert first == question_for(article, Rarity.RARE, 2026)
        places[first.answer] += 1
    assert set(places) == {0, 1, 2}


def test_no_wrong_year_after_the_latest_year_nor_year_zero():
    recent = parse_line(line(facts=[{"property": "P577", "label": "publication", "year": 2024}]))
    for n in range(1, 30):
        question = question_for(replace(recent, wikidata=f"Q{n}"), Rarity.COMMON, 2025)
        assert all(int(c) <= 2025 for c in question.choices)
    ancient = parse_line(line(facts=[{"property": "P571", "label": "inception", "year": -2}]))
    question = question_for(ancient, Rarity.EPIC, 2025)
    assert "0" not in question.choices and "-0" not in question.choices
    assert "2 BC" in question.choices


def test_the_sample_has_150_real_articles_of_every_category_and_rarity():
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    assert "SAMPLE" in lines[0] and "APPROXIMATE" in lines[0]
    articles = [a for a in map(parse_line, lines) if a is not None]
    assert len(articles) >= 150
    assert all(a.approximate for a in articles)
    assert len({a.title for a in articles}) == len({a.wikidata for a in articles}) == len(articles)
    assert {a.category for a in articles} == set(Category)
    assert {stats(a).rarity for a in articles} == set(Rarity)
    bodies = [card_body(a) for a in articles]
    assert all(b["figures"]["approximate"] for b in bodies)
    questions = [question_body(a, 2025) for a in articles]
    assert sum(q is not None for q in questions) >= 150
