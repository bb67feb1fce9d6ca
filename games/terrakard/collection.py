"""TerraKard's collection rules for the cards service (games/kit/collection.py), the
card snapshot a match holds, and the starting collection (ours).

A definition's game attributes are its category, ATK, DEF and Wikidata id. The kit's
``assess_deck`` knows no level: through it a TerraKard deck is judged at level 1's
budget, the smallest of all (a deck legal there is legal at every level); TerraKard's
own deck and plan use cases pass the player's level (``plans.assess_deck``).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from games.kit.collection import (
    Assessment,
    CardCopy,
    CardPool,
    CollectionRules,
    Problem,
    clean_deck_name,
)
from games.kit.fair import Draws
from games.kit.refusal import Refusal
from games.terrakard import config, plans
from games.terrakard.content import CYCLE, GAME, Card, QuestionFace, Rarity, category, rarity
from games.terrakard.drafts import CARD_KIND

CARD_KINDS = frozenset({CARD_KIND})
SOURCES = frozenset({"starter", "pack"})
LOWEST_LEVEL = 1


def card_attributes(kind: str, snapshot: Mapping[str, Any]) -> dict[str, Any]:
    if kind not in CARD_KINDS:
        raise Refusal("unknown_card_kind", f"{kind!r} is not a kind of TerraKard card")
    rarity(snapshot.get("rarity"))
    return {
        "category": str(category(snapshot.get("category"))),
        "atk": int(snapshot["atk"]),
        "def": int(snapshot["def"]),
        "wikidata": snapshot.get("wikidata"),
        "name": str(snapshot["name"]),
    }


def card_of(
    copy_id: Any, name: str, rarity_name: str, attributes: Mapping[str, Any],
    question: Mapping[str, Any] | None = None,
) -> Card:  # fmt: skip
    """The card a match holds for an owned copy (its id as the card id)."""
    return Card(
        card_id=str(copy_id),
        name=name,
        category=category(attributes["category"]),
        rarity=rarity(rarity_name),
        atk=int(attributes["atk"]),
        def_=int(attributes["def"]),
        question=None if question is None else QuestionFace.from_dict(question),
    )


def _card(copy: CardCopy) -> Card:
    return card_of(copy.copy_id, str(copy.attributes["name"]), copy.rarity, copy.attributes)


def assess_deck(copy_ids: Sequence[uuid.UUID], owned: Mapping[uuid.UUID, CardCopy]) -> Assessment:
    """A deck through the kit: at level 1's budget (the module's docstring says why)."""
    missing = [c for c in copy_ids if c not in owned]
    if missing:
        cards = [_card(owned[c]) for c in copy_ids if c in owned]
        found = plans.assess_deck(cards, LOWEST_LEVEL)
        return Assessment(False, found.cost, (*found.problems, _not_owned()))
    return plans.assess_deck([_card(owned[c]) for c in copy_ids], LOWEST_LEVEL)


def _not_owned() -> Problem:
    return Problem("card_not_owned", "every card must be one of your own copies")


MAX_NAME_LENGTH = 40  # ours, as Quest's deck names


def clean_name(name: str) -> str:
    """A deck's or plan's name: trimmed, 1-40 characters, no control characters."""
    return clean_deck_name(name, MAX_NAME_LENGTH)


def roll_reward(score: int, eligible: Mapping[str, Sequence[Any]], rng: Draws) -> list[Any]:
    raise ValueError("TerraKard cards are not challenge rewards")


TERRAKARD_COLLECTION = CollectionRules(
    game=GAME,
    card_kinds=CARD_KINDS,
    finishes=frozenset({"standard"}),
    sources=SOURCES,
    card_attributes=card_attributes,
    assess_deck=assess_deck,
    clean_deck_name=clean_name,
    max_decks_per_player=config.MAX_SAVED_DECKS,
    reward_pool=CardPool(frozenset()),
    roll_reward=roll_reward,
)


def starting_cards(definitions: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Ours: the starting collection among the active definitions (each with ``name``,
    ``rarity``, ``attributes``): ``STARTING_COMMONS`` Common and ``STARTING_UNCOMMONS``
    Uncommon cards, taking the categories in turn (the cycle's order, then by name) so
    the first cards cover every category. Deterministic: no roll. Refused
    (``starter_cards_unavailable``) when the catalogue has too few."""
    chosen: list[Mapping[str, Any]] = []
    for wanted, count in ((Rarity.COMMON, config.STARTING_COMMONS),
                          (Rarity.UNCOMMON, config.STARTING_UNCOMMONS)):  # fmt: skip
        pool = sorted(
            (d for d in definitions if d["rarity"] == wanted),
            key=lambda d: str(d["name"]).casefold(),
        )
        by_category: dict[str, list[Mapping[str, Any]]] = {}
        for d in pool:
            by_category.setdefault(str(d["attributes"]["category"]), []).append(d)
        order = [str(c) for c in CYCLE if str(c) in by_category]
        picked: list[Mapping[str, Any]] = []
        while len(picked) < count and any(by_category.values()):
            for name in order:
                if by_category[name] and len(picked) < count:
                    picked.append(by_category[name].pop(0))
        if len(picked) < count:
            raise Refusal(
                "starter_cards_unavailable",
                "not enough published TerraKard cards for a starting collection yet",
            )
        chosen += picked
    return chosen
