"""TerraKard's card vocabulary (rules/terrakard.txt, "Cards in combat"): the six
categories and their cycle, the rarities and their deck cost, and a card as a match
holds it (a snapshot of its published definition).

The cycle is the rulebook's, word for word: each category has the advantage over the
next and the disadvantage against the previous one; with the advantage a card's ATK is
multiplied by 1.25, with the disadvantage by 0.8, otherwise it does not change. The
multipliers are exact fractions so that no rounding creeps in before the damage is
rounded once (games/terrakard/damage.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from fractions import Fraction
from typing import Any

from games.kit.frozen import Frozen
from games.kit.refusal import Refusal

GAME = "terrakard"


class Category(StrEnum):
    # In the order of the cycle (rulebook): each beats the next, the last beats the first.
    SCIENCES = "Sciences"
    NATURE_AND_LIFE = "Nature and life"
    GEOGRAPHY = "Geography"
    HISTORY = "History"
    ARTS_AND_CULTURE = "Arts and culture"
    SOCIETY_AND_SPORT = "Society and sport"


CYCLE: tuple[Category, ...] = tuple(Category)
ADVANTAGE = Fraction(125, 100)  # rulebook: "raised (x1.25)"
DISADVANTAGE = Fraction(80, 100)  # rulebook: "lowered (x0.8)"
NEUTRAL = Fraction(1)


def beats(category: Category) -> Category:
    """The category ``category`` has the advantage over (the next one in the cycle)."""
    return CYCLE[(CYCLE.index(category) + 1) % len(CYCLE)]


def _multiplier(attacking: Category, opposing: Category) -> Fraction:
    if beats(attacking) == opposing:
        return ADVANTAGE
    if beats(opposing) == attacking:
        return DISADVANTAGE
    return NEUTRAL


_MULTIPLIERS = {(a, o): _multiplier(a, o) for a in CYCLE for o in CYCLE}


def category_multiplier(attacking: Category, opposing: Category) -> Fraction:
    """What the category does to the ATK of a card of ``attacking`` against ``opposing``."""
    return _MULTIPLIERS[attacking, opposing]


class Rarity(StrEnum):
    COMMON = "Common"
    UNCOMMON = "Uncommon"
    RARE = "Rare"
    EPIC = "Epic"
    LEGENDARY = "Legendary"


RARITIES: tuple[Rarity, ...] = tuple(Rarity)  # from the most common to the rarest
# Rulebook, "Deck cost by rarity".
DECK_COST: Mapping[Rarity, int] = {
    Rarity.COMMON: 1,
    Rarity.UNCOMMON: 2,
    Rarity.RARE: 3,
    Rarity.EPIC: 4,
    Rarity.LEGENDARY: 5,
}


def at_least(rarity: Rarity, floor: Rarity) -> bool:
    """``rarity`` is ``floor`` or rarer ("a card of rarity Epic or rarer")."""
    return RARITIES.index(rarity) >= RARITIES.index(floor)


class Difficulty(StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


# Rulebook, "Knowledge questions": easy (common, uncommon), medium (rare), hard (epic,
# legendary).
DIFFICULTY_OF: Mapping[Rarity, Difficulty] = {
    Rarity.COMMON: Difficulty.EASY,
    Rarity.UNCOMMON: Difficulty.EASY,
    Rarity.RARE: Difficulty.MEDIUM,
    Rarity.EPIC: Difficulty.HARD,
    Rarity.LEGENDARY: Difficulty.HARD,
}

CHOICES_PER_QUESTION = 3  # rulebook: "three answers"


def _enum(kind: type[StrEnum], value: Any, code: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        raise Refusal(code, f"{value!r} is not a {kind.__name__.lower()}") from None


def category(value: Any) -> Category:
    return _enum(Category, value, "unknown_category")  # type: ignore[no-any-return]


def rarity(value: Any) -> Rarity:
    return _enum(Rarity, value, "unknown_rarity")  # type: ignore[no-any-return]


class QuestionFace(Frozen):
    """A published knowledge question as a match may hold it: never its answer key (the
    server marks an answer before the engine sees it, games/terrakard/actions.py).
    Frozen by convention (``games.kit.frozen.Frozen``)."""

    question_id: str
    prompt: str
    choices: tuple[str, ...]

    def __init__(self, question_id: str, prompt: str, choices: tuple[str, ...]) -> None:
        self.question_id = question_id
        self.prompt = prompt
        self.choices = choices

    def fields(self) -> dict[str, Any]:
        return {"question_id": self.question_id, "prompt": self.prompt, "choices": self.choices}

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.question_id, "prompt": self.prompt, "choices": list(self.choices)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> QuestionFace:
        choices = tuple(str(c) for c in data["choices"])
        if len(choices) != CHOICES_PER_QUESTION:
            raise ValueError(f"a knowledge question has {CHOICES_PER_QUESTION} answers")
        return cls(str(data["id"]), str(data["prompt"]), choices)


class Card(Frozen):
    """A card in a match: a snapshot of its definition (an owned copy's id as ``card_id``).
    Frozen by convention (``games.kit.frozen.Frozen``: compiled, a native class)."""

    card_id: str
    name: str
    category: Category
    rarity: Rarity
    atk: int
    def_: int
    question: QuestionFace | None
    # Not a field: ``public_dict``'s dict, made at its first call (a copy is returned).
    _public: dict[str, Any] | None

    def __init__(
        self,
        card_id: str,
        name: str,
        category: Category,
        rarity: Rarity,
        atk: int,
        def_: int,
        question: QuestionFace | None = None,
    ) -> None:
        self.card_id = card_id
        self.name = name
        self.category = category
        self.rarity = rarity
        self.atk = atk
        self.def_ = def_
        self.question = question
        self._public = None

    def fields(self) -> dict[str, Any]:
        return {
            "card_id": self.card_id,
            "name": self.name,
            "category": self.category,
            "rarity": self.rarity,
            "atk": self.atk,
            "def_": self.def_,
            "question": self.question,
        }

    @property
    def cost(self) -> int:
        return DECK_COST[self.rarity]

    @property
    def difficulty(self) -> Difficulty:
        return DIFFICULTY_OF[self.rarity]

    def public_dict(self) -> dict[str, Any]:
        """``to_dict()`` without its question (a revealed card, a view's deck): a new
        dict, copied from the one made at the first call (the card is frozen)."""
        public = self._public
        if public is None:
            public = self._public = {
                "id": self.card_id,
                "name": self.name,
                "category": str(self.category),
                "rarity": str(self.rarity),
                "cost": DECK_COST[self.rarity],
                "atk": self.atk,
                "def": self.def_,
            }
        return dict(public)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.card_id,
            "name": self.name,
            "category": str(self.category),
            "rarity": str(self.rarity),
            "cost": self.cost,
            "atk": self.atk,
            "def": self.def_,
            "question": None if self.question is None else self.question.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Card:
        atk, def_ = int(data["atk"]), int(data["def"])
        if atk < 0 or def_ < 0:
            raise ValueError("ATK and DEF are not negative")
        question = data.get("question")
        return cls(
            card_id=str(data["id"]),
            name=str(data["name"]),
            category=Category(data["category"]),
            rarity=Rarity(data["rarity"]),
            atk=atk,
            def_=def_,
            question=None if question is None else QuestionFace.from_dict(question),
        )
