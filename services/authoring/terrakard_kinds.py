"""TerraKard's kinds of content as authoring checks them (rules/terrakard.txt): cards,
drafted from Wikipedia articles by the card pipeline (``deckyard terrakard draft``),
and their knowledge questions. The formula and the question rules are the game's own
(games/terrakard/formula.py, content.py); here they become readiness.

A knowledge question's answer key (``answer``) and explanation are private: they never
leave authoring's author endpoints (rulebook: "The right answer is never sent to your
browser before you answer").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import fields, validate

from games.kit.refusal import Refusal
from games.terrakard.articles import WIKIDATA_ID, article_from
from games.terrakard.content import CHOICES_PER_QUESTION, DIFFICULTY_OF, Category, Difficulty
from games.terrakard.content import Rarity as TerraRarity
from games.terrakard.drafts import CARD_KIND, QUESTION_KIND
from games.terrakard.formula import FORMULA_VERSION, stats
from services.authoring.kind_rules import LONG_TEXT, NAME, Body, KindRules, text_field

MAX_FIGURE = 10**12  # assumed: far above any article's figures
WIKIDATA = fields.String(required=True, validate=validate.Regexp(WIKIDATA_ID.pattern + "$"))


class Figures(Body):
    length = fields.Integer(strict=True, required=True, validate=validate.Range(0, MAX_FIGURE))
    languages = fields.Integer(strict=True, required=True, validate=validate.Range(1, MAX_FIGURE))
    monthly_views = fields.Integer(
        strict=True, required=True, validate=validate.Range(0, MAX_FIGURE)
    )
    age_years = fields.Integer(strict=True, required=True, validate=validate.Range(0, MAX_FIGURE))
    approximate = fields.Boolean(load_default=False)


class CardBody(Body):
    name = fields.String(required=True, validate=validate.Length(min=1, max=NAME))
    wikidata = WIKIDATA
    category = fields.String(required=True, validate=validate.OneOf(list(Category)))
    rarity = fields.String(required=True, validate=validate.OneOf(list(TerraRarity)))
    atk = fields.Integer(strict=True, required=True, validate=validate.Range(0, 1000))
    def_ = fields.Integer(
        strict=True, required=True, validate=validate.Range(0, 1000), data_key="def"
    )
    figures = fields.Nested(Figures, required=True)
    formula_version = fields.Integer(strict=True, required=True, validate=validate.Range(1))


class KnowledgeQuestionBody(Body):
    card = text_field(NAME, required=True)  # the card's name, for reviewers
    card_lineage_id = fields.UUID(allow_none=True, load_default=None)
    wikidata = WIKIDATA
    card_rarity = fields.String(required=True, validate=validate.OneOf(list(TerraRarity)))
    difficulty = fields.String(required=True, validate=validate.OneOf(list(Difficulty)))
    prompt = text_field(LONG_TEXT, required=True)
    choices = fields.List(
        text_field(), load_default=list, validate=validate.Length(max=CHOICES_PER_QUESTION)
    )
    answer = fields.Integer(
        strict=True,
        allow_none=True,
        load_default=None,
        validate=validate.Range(0, CHOICES_PER_QUESTION - 1),
    )
    source = text_field(NAME, load_default="")  # the Wikidata property asked about
    explanation = text_field(LONG_TEXT, load_default="")


def _card_ready(body: dict[str, Any]) -> list[str]:
    """A card's ATK, DEF and rarity are the formula's for its figures (the version it
    names), so a reviewer approves figures, and the numbers follow from them."""
    if body.get("formula_version") != FORMULA_VERSION:
        return [f"a card uses formula version {FORMULA_VERSION}"]
    article = {
        "title": body["name"],
        "wikidata": body["wikidata"],
        "category": body["category"],
        **{k: v for k, v in body["figures"].items()},
    }
    try:
        computed = stats(article_from(article))
    except Refusal as exc:
        return [exc.message]
    expected = {"atk": computed.atk, "def": computed.def_, "rarity": str(computed.rarity)}
    return [
        f"{field} must be {value} (the formula's, for these figures)"
        for field, value in expected.items()
        if body.get(field) != value
    ]


def _question_ready(body: dict[str, Any]) -> list[str]:
    problems = []
    texts = [c.strip() for c in body.get("choices", [])]
    if len(texts) != CHOICES_PER_QUESTION or not all(texts):
        problems.append("a knowledge question needs three non-blank answers")
    elif len({t.casefold() for t in texts}) != CHOICES_PER_QUESTION:
        problems.append("the three answers must be distinct")
    if body.get("answer") is None:
        problems.append("a knowledge question needs its right answer")
    if not body.get("prompt", "").strip():
        problems.append("a knowledge question needs a non-blank prompt")
    if body.get("card_lineage_id") is None:
        problems.append("a knowledge question names its card (card_lineage_id)")
    expected = DIFFICULTY_OF[TerraRarity(body["card_rarity"])]
    if body.get("difficulty") != expected:
        problems.append(f"a question about a {body['card_rarity']} card is {expected}")
    return problems


TERRAKARD_KINDS: Mapping[str, KindRules] = {
    CARD_KIND: KindRules(CardBody, _card_ready, is_card=True),
    QUESTION_KIND: KindRules(
        KnowledgeQuestionBody, _question_ready, private_fields=("answer", "explanation")
    ),
}
