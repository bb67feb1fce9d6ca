"""The card pipeline's input: one JSON object per line, one line per Wikipedia article
(docs/terrakard.md, "The card pipeline", documents the format for people).

    {"title": "Eiffel Tower", "wikidata": "Q243", "category": "Arts and culture",
     "length": 98000, "languages": 180, "monthly_views": 250000, "age_years": 137,
     "facts": [{"property": "P571", "label": "inception", "year": 1889}],
     "approximate": true}

- ``title``: the article's title, which becomes the card's name (1 to 80 characters);
- ``wikidata``: the item's id (``Q`` and digits);
- ``category``: one of the six categories, spelled as the rulebook does;
- ``length``: the article's size in bytes of wikitext (English Wikipedia);
- ``languages``: how many language editions of Wikipedia have an article (sitelinks);
- ``monthly_views``: average monthly page views over the last twelve months;
- ``age_years``: years since the subject's inception, birth, discovery or first
  publication (0 when unknown or less than a year);
- ``facts`` (optional): Wikidata statements with a year, for the knowledge question
  (``property`` like ``P571``, its ``label``, ``year``; negative years are BC);
- ``approximate`` (optional): the figures are rounded or estimated (the shipped sample).

A blank line, or an object with a ``comment`` and no ``title``, is skipped. Anything
else malformed is refused with the line's problem, never guessed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.kit.frozen import plain
from games.kit.refusal import Refusal
from games.terrakard.content import Category, category

MAX_TITLE = 80  # authoring's card names (services/authoring/kind_rules.py NAME)
WIKIDATA_ID = re.compile(r"Q[1-9][0-9]*")
PROPERTY_ID = re.compile(r"P[1-9][0-9]*")
FIELDS = frozenset(
    {
        "title",
        "wikidata",
        "category",
        "length",
        "languages",
        "monthly_views",
        "age_years",
        "facts",
        "approximate",
    }
)


@plain
@dataclass(frozen=True)
class Fact:
    property: str
    label: str
    year: int


@plain
@dataclass(frozen=True)
class Article:
    title: str
    wikidata: str
    category: Category
    length: int
    languages: int
    monthly_views: int
    age_years: int
    facts: tuple[Fact, ...] = ()
    approximate: bool = False


def _refuse(message: str) -> Refusal:
    return Refusal("invalid_article", message)


def _count(data: Mapping[str, Any], name: str, minimum: int = 0) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise _refuse(f"{name} must be a whole number of at least {minimum}")
    return value


def _fact(data: Any) -> Fact:
    if not isinstance(data, Mapping) or set(data) != {"property", "label", "year"}:
        raise _refuse("a fact has exactly a property, a label and a year")
    prop, label, year = data["property"], data["label"], data["year"]
    if not isinstance(prop, str) or not PROPERTY_ID.fullmatch(prop):
        raise _refuse(f"{prop!r} is not a Wikidata property id")
    if not isinstance(label, str) or not label.strip():
        raise _refuse("a fact's label is text")
    if not isinstance(year, int) or isinstance(year, bool) or year == 0:
        raise _refuse("a fact's year is a whole number, not 0 (negative for BC)")
    return Fact(prop, label.strip(), year)


def article_from(data: Mapping[str, Any]) -> Article:
    unknown = set(data) - FIELDS
    if unknown:
        raise _refuse(f"unknown fields {sorted(unknown)}")
    title = data.get("title")
    if not isinstance(title, str) or not title.strip() or len(title.strip()) > MAX_TITLE:
        raise _refuse(f"title must be text of 1 to {MAX_TITLE} characters")
    wikidata = data.get("wikidata")
    if not isinstance(wikidata, str) or not WIKIDATA_ID.fullmatch(wikidata):
        raise _refuse(f"{wikidata!r} is not a Wikidata item id")
    facts = data.get("facts", [])
    if not isinstance(facts, list):
        raise _refuse("facts is a list")
    approximate = data.get("approximate", False)
    if not isinstance(approximate, bool):
        raise _refuse("approximate is true or false")
    return Article(
        title=" ".join(title.split()),
        wikidata=wikidata,
        category=category(data.get("category")),
        length=_count(data, "length"),
        languages=_count(data, "languages", 1),
        monthly_views=_count(data, "monthly_views"),
        age_years=_count(data, "age_years"),
        facts=tuple(_fact(f) for f in facts),
        approximate=approximate,
    )


def parse_line(line: str) -> Article | None:
    """One line of the input: an article, or None for a blank or comment line."""
    if not line.strip():
        return None
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise _refuse(f"not JSON: {exc.msg}") from None
    if not isinstance(data, Mapping):
        raise _refuse("a line is one JSON object")
    if "comment" in data and "title" not in data:
        return None
    return article_from(data)
