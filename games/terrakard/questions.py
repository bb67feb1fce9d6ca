"""Knowledge questions from the pipeline's data (ours; docs/terrakard.md, "Knowledge
questions"): "In which year ...?" about the card's first fact with a year, three
answers, deterministic.

The difficulty follows the card's rarity (rulebook: easy Common/Uncommon, medium Rare,
hard Epic/Legendary) and sets how close the two wrong years are to the right one: a
gap drawn from the difficulty's gaps, and one of three patterns (the right year lowest,
in the middle or highest, so its place tells nothing), both drawn from a SHA-256 of the
Wikidata id. No wrong year lies after ``latest_year`` nor is year 0. The answers are
shown in increasing order; the right one's place is the answer key, which only the
server keeps.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

from games.kit.frozen import plain
from games.terrakard.articles import Article, Fact
from games.terrakard.content import DIFFICULTY_OF, Difficulty, Rarity

# Ours: the gaps (in years) between the right year and the nearest wrong one.
GAPS: Mapping[Difficulty, tuple[int, ...]] = {
    Difficulty.EASY: (30, 40, 50, 60),
    Difficulty.MEDIUM: (8, 10, 12, 15),
    Difficulty.HARD: (2, 3, 4, 5),
}
PATTERNS = ((1, 2), (-1, 1), (-2, -1))  # the wrong years, in gaps from the right one

PROMPTS: Mapping[str, str] = {
    "P571": "In which year did {title} come into being?",
    "P569": "In which year was {title} born?",
    "P575": "In which year was {title} discovered or invented?",
    "P577": "In which year was {title} first published or released?",
    "P580": "In which year did {title} begin?",
    "P585": "In which year did {title} take place?",
    "P1619": "In which year was {title} officially opened?",
}
OTHER_PROMPT = "{title}: in which year ({label})?"


@plain
@dataclass(frozen=True)
class Question:
    prompt: str
    choices: tuple[str, str, str]
    answer: int  # the right choice's place: the answer key
    difficulty: Difficulty
    source: str  # the Wikidata property
    explanation: str


def year_text(year: int) -> str:
    return f"{-year} BC" if year < 0 else str(year)


def _draw(wikidata: str, salt: str, n: int) -> int:
    digest = hashlib.sha256(f"{wikidata}:{salt}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % n


def _wrong_years(fact: Fact, wikidata: str, difficulty: Difficulty, latest: int) -> list[int]:
    gaps = GAPS[difficulty]
    gap = gaps[_draw(wikidata, "gap", len(gaps))]
    first = _draw(wikidata, "pattern", len(PATTERNS))
    for shift in range(len(PATTERNS)):  # the drawn pattern, or the next one that fits
        pattern = PATTERNS[(first + shift) % len(PATTERNS)]
        years = [fact.year + k * gap for k in pattern]
        if all(y != 0 and y <= latest for y in years):
            return years
    return []


def question_for(article: Article, rarity: Rarity, latest_year: int) -> Question | None:
    """The article's question, or None when it has no fact to ask about."""
    difficulty = DIFFICULTY_OF[rarity]
    for fact in article.facts:
        if fact.year > latest_year:
            continue
        wrong = _wrong_years(fact, article.wikidata, difficulty, latest_year)
        if len(wrong) != 2:
            continue
        years = sorted([fact.year, *wrong])
        texts = tuple(year_text(y) for y in years)
        template = PROMPTS.get(fact.property, OTHER_PROMPT)
        return Question(
            prompt=template.format(title=article.title, label=fact.label),
            choices=(texts[0], texts[1], texts[2]),
            answer=years.index(fact.year),
            difficulty=difficulty,
            source=fact.property,
            explanation=(
                f"Wikidata {article.wikidata}, {fact.property} ({fact.label}): "
                f"{year_text(fact.year)}."
            ),
        )
    return None
