"""What a game tells the cards service about its cards outside a match.

The cards service keeps every game's definitions, owned copies and decks in the
same tables; it asks the game's ``CollectionRules`` what a definition's game
attributes are, which finishes and sources a copy may have, whether a deck is
legal, which definitions a reward may draw and how it rolls, and (for a game that
has one) what a starter grant gives. A new game supplies one ``CollectionRules``
from its package; nothing in the service changes.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.kit.chance import RandomSource
from games.kit.fair import Draws
from games.kit.refusal import Refusal

# Every game's copies may be standard; games with more finishes name them (Chronovore).
STANDARD_FINISH = "standard"


@dataclass(frozen=True)
class CardCopy:
    """One owned copy, as far as a game's deck rules care."""

    copy_id: uuid.UUID
    kind: str
    rarity: str
    finish: str = STANDARD_FINISH
    attributes: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Problem:
    code: str
    message: str


@dataclass(frozen=True)
class Assessment:
    """A deck assessed: legal or not, its cost in the game's budget, every rule broken."""

    legal: bool
    cost: int
    problems: tuple[Problem, ...]


def require_legal(assessment: Assessment) -> Assessment:
    """The assessment of a legal deck; otherwise a refusal named after the first rule broken."""
    if assessment.problems:
        first = assessment.problems[0]
        raise Refusal(
            first.code,
            first.message,
            {"problems": [{"code": p.code, "message": p.message} for p in assessment.problems]},
        )
    return assessment


@dataclass(frozen=True)
class CardPool:
    """Which active definitions qualify: of these kinds, this rarity if given, and with
    each of these attribute values (the cards service filters by containment)."""

    kinds: frozenset[str]
    attributes: Mapping[str, Any] = field(default_factory=dict)
    rarity: str | None = None


@dataclass(frozen=True)
class StarterRules:
    """A one-time grant chosen by the player: the choice names a pool to draw from,
    plus fixed cards named by their lineage's founding name."""

    offered: Callable[[str], str]  # the choice as kept, or a Refusal
    pool: Callable[[str], CardPool]  # the definitions the choice draws from
    lineage_kind: str
    lineage_names: tuple[str, ...]
    # (pool definitions, fixed definitions, rng) -> the definitions granted, or a Refusal
    choose: Callable[[Sequence[Any], Sequence[Any], RandomSource], list[Any]]


@dataclass(frozen=True)
class CollectionRules:
    game: str
    card_kinds: frozenset[str]
    finishes: frozenset[str]
    sources: frozenset[str]  # what may grant a copy: reward, starter, pack, craft, ...
    # (kind, published snapshot) -> the game's attributes of a definition, or a Refusal
    card_attributes: Callable[[str, Mapping[str, Any]], dict[str, Any]]
    assess_deck: Callable[[Sequence[uuid.UUID], Mapping[uuid.UUID, CardCopy]], Assessment]
    clean_deck_name: Callable[[str], str]
    max_decks_per_player: int
    reward_pool: CardPool
    # (score, eligible definitions by rarity, the player's fair draws) -> the definitions
    # awarded; every draw is recorded and verifiable (games/kit/fair.py)
    roll_reward: Callable[[int, Mapping[str, Sequence[Any]], Draws], list[Any]]
    starter: StarterRules | None = None
    default_finish: str = STANDARD_FINISH
