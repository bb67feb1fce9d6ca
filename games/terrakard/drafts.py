"""The bodies the card pipeline drafts into authoring (services/authoring/
terrakard_kinds.py checks them): a card from an article, and its knowledge question.

Both are pure functions of the article line (and, for the question, the latest year a
wrong answer may name), so drafting the same file twice gives the same bodies.
"""

from __future__ import annotations

from typing import Any

from games.terrakard.articles import Article
from games.terrakard.formula import FORMULA_VERSION, stats
from games.terrakard.questions import question_for

CARD_KIND = "card"
QUESTION_KIND = "knowledge_question"


def figures(article: Article) -> dict[str, Any]:
    return {
        "length": article.length,
        "languages": article.languages,
        "monthly_views": article.monthly_views,
        "age_years": article.age_years,
        "approximate": article.approximate,
    }


def card_body(article: Article) -> dict[str, Any]:
    computed = stats(article)
    return {
        "name": article.title,
        "wikidata": article.wikidata,
        "category": str(article.category),
        "rarity": str(computed.rarity),
        "atk": computed.atk,
        "def": computed.def_,
        "figures": figures(article),
        "formula_version": FORMULA_VERSION,
    }


def question_body(
    article: Article, latest_year: int, card_lineage_id: str | None = None
) -> dict[str, Any] | None:
    """The card's question for review, or None when the article has no fact to ask."""
    rarity = stats(article).rarity
    question = question_for(article, rarity, latest_year)
    if question is None:
        return None
    return {
        "card": article.title,
        "card_lineage_id": card_lineage_id,
        "wikidata": article.wikidata,
        "card_rarity": str(rarity),
        "difficulty": str(question.difficulty),
        "prompt": question.prompt,
        "choices": list(question.choices),
        "answer": question.answer,
        "source": question.source,
        "explanation": question.explanation,
    }
