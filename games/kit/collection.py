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
from datetime import timedelta
from typing import Any, Protocol

from games.kit.fair import Draws
from games.kit.frozen import plain
from games.kit.packs import PackCard, PackKind
from games.kit.refusal import Refusal

# Every game's copies may be standard; games with more finishes name them (Chronovore).
STANDARD_FINISH = "standard"


@plain
@dataclass(frozen=True)
class CardCopy:
    """One owned copy, as far as a game's deck rules care."""

    copy_id: uuid.UUID
    kind: str
    rarity: str
    finish: str = STANDARD_FINISH
    attributes: Mapping[str, Any] = field(default_factory=dict)
    # What makes two copies the same card, whatever their finish or version: the
    # definition's lineage (Chronovore counts copies per card).
    card: Any = None


@plain
@dataclass(frozen=True)
class Problem:
    code: str
    message: str


@plain
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


def ownership_problems(
    copy_ids: Sequence[uuid.UUID], owned: Mapping[uuid.UUID, Any]
) -> list[Problem]:
    """A list's copies: each listed once, and each among the caller's own (``owned``)."""
    problems = []
    if len(set(copy_ids)) != len(copy_ids):
        problems.append(Problem("deck_copy_repeated", "an owned copy can be in a deck only once"))
    missing = [copy_id for copy_id in dict.fromkeys(copy_ids) if copy_id not in owned]
    if missing:
        problems.append(
            Problem(
                "deck_copy_not_owned", f"{len(missing)} card(s) are not among your owned copies"
            )
        )
    return problems


def clean_deck_name(name: str, max_length: int) -> str:
    """A deck name: trimmed, 1 to ``max_length`` characters, no control characters."""
    cleaned = name.strip() if isinstance(name, str) else ""
    if not cleaned:
        raise Refusal("deck_name_blank", "a deck needs a name")
    if len(cleaned) > max_length:
        raise Refusal("deck_name_too_long", f"a deck name has at most {max_length} characters")
    if any(not ch.isprintable() for ch in cleaned):
        raise Refusal("deck_name_invalid", "a deck name cannot contain control characters")
    return cleaned


@plain
@dataclass(frozen=True)
class CardPool:
    """Which active definitions qualify: of these kinds, this rarity if given, and with
    each of these attribute values (the cards service filters by containment)."""

    kinds: frozenset[str]
    attributes: Mapping[str, Any] = field(default_factory=dict)
    rarity: str | None = None


@plain
@dataclass(frozen=True)
class StarterRules:
    """A one-time grant chosen by the player: the choice names a pool to draw from,
    plus fixed cards named by their lineage's founding name."""

    offered: Callable[[str], str]  # the choice as kept, or a Refusal
    pool: Callable[[str], CardPool]  # the definitions the choice draws from
    lineage_kind: str
    lineage_names: tuple[str, ...]
    # (pool definitions, fixed definitions, the player's fair draws) -> the definitions
    # granted, or a Refusal; every draw is recorded and verifiable (games/kit/fair.py)
    choose: Callable[[Sequence[Any], Sequence[Any], Draws], list[Any]]


class FinishCaps(Protocol):
    """A finish a player holds only so many copies of per card (Chronovore's Diamond,
    games/chronovore/diamonds.py). Definitions in pools carry their ``lineage_id`` (the
    card); ``held`` counts the player's copies of that finish per card."""

    @property
    def finish(self) -> str: ...

    @property
    def pack_room(self) -> int:
        """A pack of only this finish is sold while the player has room for this many."""

    def cap(self, rarity: str) -> int: ...

    def room(self, pool: Mapping[str, Sequence[Any]], held: Mapping[Any, int]) -> int: ...

    def settle(
        self,
        kind: PackKind,
        cards: Sequence[PackCard],
        pool: Mapping[str, Sequence[Any]],
        held: Mapping[Any, int],
        owed: int,
        draws: Draws,
    ) -> tuple[list[PackCard], int]:
        """An opening's drawn cards after the caps, and the upgrades owed after it."""


class CraftingRules(Protocol):
    """Shredding copies into a currency and crafting copies from it (Chronovore's Card
    Fragments, games/chronovore/economy.py). A method refuses (``Refusal``) a finish that
    can be neither shredded nor crafted."""

    @property
    def currency(self) -> str: ...

    @property
    def rarities(self) -> tuple[str, ...]:
        """Lowest first: the rows of the public price table."""

    @property
    def weakened_refund(self) -> timedelta:
        """How long after a card is weakened shredding it pays its crafting cost."""

    def copy_limit(self, rarity: str) -> int: ...

    def craft_cost(self, rarity: str, finish: str) -> int: ...

    def shred_value(self, rarity: str, finish: str, weakened: bool) -> int: ...


class MatchRewards(Protocol):
    """A currency earned by finishing a match (Chronovore's Gold), per seat."""

    @property
    def currency(self) -> str: ...

    def completed(self, result: str | None) -> bool:
        """A game the seat played to its end (counted for the day), not one it left."""

    def award(self, result: str | None, against_player: bool, games_today: int) -> int:
        """``games_today``: completed games against players this UTC day, this one
        included (only asked about for a completed game against a player)."""


@plain
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
    # Problem codes of a work in progress: a list with only these is saved, just not
    # legal (Chronovore: "Save deck stores the list either way"); any other is refused.
    work_in_progress: frozenset[str] = frozenset()
    # Packs every new account starts with, as (pack kind, how many): granted once when
    # the player registers (Chronovore: 30 Core Set packs and 1 Golden Core Set pack).
    starting_packs: tuple[tuple[str, int], ...] = ()
    # A capped finish, settled after each pack opening (Chronovore: Diamond caps).
    finish_caps: FinishCaps | None = None
    crafting: CraftingRules | None = None  # Chronovore: Card Fragments
    match_rewards: MatchRewards | None = None  # Chronovore: Gold for a finished match
    # (kind, published snapshot) -> what a player reads on the card beyond its name, kind
    # and rarity, added to every answer that shows the card (Chronovore: its keywords,
    # each with its definition); read again from the snapshot, so a reworded definition
    # reaches cards published before it. None: the game adds nothing.
    card_face: Callable[[str, Mapping[str, Any]], dict[str, Any]] | None = None
