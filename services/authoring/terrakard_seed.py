"""TerraKard's sample, seeded: each article of ``seed/terrakard_articles.sample.jsonl``
becomes its card and knowledge question (the bodies ``deckyard terrakard draft``
drafts: games/terrakard/drafts.py), published through the lifecycle as the rest of the
catalogue is (services/authoring/seed.py). Without them no TerraKard player could claim
a starting collection or open a pack.

A card's lineage is named by its title, its question's by the same title; each version
by a digest of its body. So a second seed finds every version it published and changes
nothing, and a line of the sample changed in a later release (figures, a fact, a
corrected Wikidata id) reaches an install that seeded the old one as a replacement,
reviewed and published like any new version (docs/terrakard.md, "The sample, seeded").

The questions are drafted against ``SAMPLE_YEAR`` rather than the calendar's year: the
same file gives the same questions in any year, so a new year does not replace them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.terrakard.articles import Article, parse_line
from games.terrakard.content import GAME
from games.terrakard.drafts import CARD_KIND, QUESTION_KIND, card_body, question_body

if TYPE_CHECKING:
    from services.authoring.seed import Seeder

SAMPLE = Path(__file__).with_name("seed") / "terrakard_articles.sample.jsonl"
# The year the sample's figures were estimated in (its Albert Einstein, born 1879, is 146
# years old): no wrong answer of a seeded question names a later year.
SAMPLE_YEAR = 2025


def card_ref(title: str) -> str:
    """The seed reference of a sample card's lineage (``SeedReport.ids`` names its
    published version by it)."""
    return "terrakard:card:" + " ".join(title.split()).casefold()


def question_ref(title: str) -> str:
    return "terrakard:question:" + " ".join(title.split()).casefold()


def version_ref(lineage_ref: str, body: dict[str, Any]) -> str:
    """A version of a lineage: the digest of its body (at most 120 characters in all:
    a lineage reference is at most 99, a title 80)."""
    digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
    return f"{lineage_ref}@{digest[:16]}"


def sample_articles(lines: Iterable[str]) -> list[Article]:
    """The sample's articles; a malformed line stops the seed (the shipped file is
    checked by a unit test, so this is a broken release, never skipped quietly)."""
    return [article for article in map(parse_line, lines) if article is not None]


def seed_terrakard_sample(seeder: Seeder) -> None:
    with SAMPLE.open(encoding="utf-8") as lines:
        articles = sample_articles(lines)
    for article in articles:
        seed_article(seeder, article)


def seed_article(seeder: Seeder, article: Article) -> None:
    """The article's card, then its question (about the card's lineage, which stays the
    same through every version of the card)."""
    body = card_body(article)
    lineage = card_ref(article.title)
    card = seeder.ensure_current(lineage, version_ref(lineage, body), CARD_KIND, GAME, body)
    if card is None:  # left to its Authors: so is its question
        return
    question = question_body(article, SAMPLE_YEAR, str(card.lineage_id))
    if question is None:  # no fact with a year: a card may have no question
        return
    lineage = question_ref(article.title)
    # The card's lineage id is the same in every version of the question: not in the digest.
    version = version_ref(lineage, {**question, "card_lineage_id": None})
    seeder.ensure_current(lineage, version, QUESTION_KIND, GAME, question)
