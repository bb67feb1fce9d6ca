"""Terrains (rules/terrakard.txt, "Terrains"): drawn at random for each attack, shown
from the reconnaissance on; their bonuses apply to the cards of both sides.

A terrain is data over a small closed vocabulary (ATK and DEF bonuses by category, a
damage factor for a given round, a factor on the knowledge question's effects with its
cap, hiding the defense's categories), so a season's new terrain is a new entry here,
not new code. ``STARTING_TERRAINS`` is the rulebook's table, exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Final

from games.kit.frozen import Frozen
from games.terrakard import config
from games.terrakard.content import Category, Difficulty

ONE = Fraction(1)
Ratio = tuple[int, int]  # a factor as (numerator, denominator), in plain integers


def percent(value: Fraction) -> str:
    """+3/20 as "+15%", -3/40 as "-7.5%", 0 as "0%"."""
    if not value:
        return "0%"
    # float(value x 100), without a Fraction product: int division rounds correctly.
    text = f"{value.numerator * 100 / value.denominator:+.2f}".rstrip("0").rstrip(".")
    return f"{text}%"


class Knowledge(Frozen):
    """The knowledge question's effect in force: its difficulty and its change (+0.15 is
    +15%), the terrain's factor and cap already applied (games/terrakard/damage.py
    applies it)."""

    difficulty: Difficulty
    effect: Fraction
    # Not fields: the effect's numerator, denominator and text (``str``), made once
    # (Fraction's properties and ``str`` run as Python).
    numerator: int
    denominator: int
    text: str

    def __init__(self, difficulty: Difficulty, effect: Fraction) -> None:
        self.difficulty = difficulty
        self.effect = effect
        self.numerator = effect.numerator
        self.denominator = effect.denominator
        self.text = str(effect)

    def fields(self) -> dict[str, Any]:
        return {"difficulty": self.difficulty, "effect": self.effect}

    def factor(self, difficulty: Difficulty) -> Fraction:
        return ONE + self.effect if self.difficulty is difficulty else ONE


class Derived:
    """What a terrain's fields imply, made once for each terrain (``Terrain.derived``):
    its factors as integer ratios (for the damage, games/terrakard/damage.py), and for
    each difficulty the knowledge in force after a right and after a wrong answer and
    the stake's texts (rules/terrakard.txt, "Knowledge questions": the terrain's factor
    and cap applied)."""

    atk: dict[Category, Ratio]
    def_: dict[Category, Ratio]
    round_damage: dict[int, Ratio]
    right: dict[Difficulty, Knowledge | None]
    wrong: dict[Difficulty, Knowledge | None]
    stakes: dict[Difficulty, tuple[str, str]]  # the right answer's, the wrong one's

    def __init__(self, terrain: Terrain) -> None:
        self.atk = {k: ratio(v) for k, v in terrain.atk.items()}
        self.def_ = {k: ratio(v) for k, v in terrain.def_.items()}
        self.round_damage = {k: ratio(v) for k, v in terrain.round_damage.items()}
        # Most terrains leave knowledge alone: they share one set of tables.
        answers = _UNCHANGED if terrain.keeps_knowledge else _answers(terrain.knowledge)
        self.right, self.wrong, self.stakes = answers


Answers = tuple[
    dict[Difficulty, Knowledge | None],
    dict[Difficulty, Knowledge | None],
    dict[Difficulty, tuple[str, str]],
]


def _answers(knowledge: Callable[[Fraction], Fraction]) -> Answers:
    """For each difficulty: the knowledge in force after a right answer and after a
    wrong one, and the stake's texts, on a terrain whose ``knowledge`` this is."""
    rights: dict[Difficulty, Knowledge | None] = {}
    wrongs: dict[Difficulty, Knowledge | None] = {}
    stakes: dict[Difficulty, tuple[str, str]] = {}
    for difficulty in Difficulty:
        right = knowledge(config.RIGHT_ANSWER[difficulty])
        wrong = knowledge(config.WRONG_ANSWER[difficulty])
        rights[difficulty] = Knowledge(difficulty, right) if right else None
        wrongs[difficulty] = Knowledge(difficulty, wrong) if wrong else None
        stakes[difficulty] = (percent(right), percent(wrong))
    return rights, wrongs, stakes


def _unchanged(effect: Fraction) -> Fraction:
    return effect


_UNCHANGED: Final = _answers(_unchanged)


def ratio(factor: Fraction) -> Ratio:
    """``factor`` as (numerator, denominator)."""
    return factor.numerator, factor.denominator


class Terrain(Frozen):
    """Frozen by convention (``games.kit.frozen.Frozen``: compiled, a native class)."""

    name: str
    atk: Mapping[Category, Fraction]  # ATK factor by category
    def_: Mapping[Category, Fraction]  # DEF factor by category
    round_damage: Mapping[int, Fraction]  # round -> damage factor
    knowledge_factor: Fraction  # on the knowledge question's effects
    knowledge_cap: Fraction | None  # never beyond +/- this (a fraction: 1/4 is 25%)
    hides_categories: bool  # the defense's categories, during the reconnaissance
    # Not fields: the knowledge effects pass unchanged (no cap, a factor of 1); what
    # the fields imply (``derived``), made at its first use.
    keeps_knowledge: bool
    _derived: Derived | None

    def __init__(
        self,
        name: str,
        atk: Mapping[Category, Fraction] | None = None,
        def_: Mapping[Category, Fraction] | None = None,
        round_damage: Mapping[int, Fraction] | None = None,
        knowledge_factor: Fraction = ONE,
        knowledge_cap: Fraction | None = None,
        hides_categories: bool = False,
    ) -> None:
        self.name = name
        self.atk = {} if atk is None else atk
        self.def_ = {} if def_ is None else def_
        self.round_damage = {} if round_damage is None else round_damage
        self.knowledge_factor = knowledge_factor
        self.knowledge_cap = knowledge_cap
        self.hides_categories = hides_categories
        self.keeps_knowledge = knowledge_cap is None and knowledge_factor == 1
        self._derived = None

    def fields(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "atk": self.atk,
            "def_": self.def_,
            "round_damage": self.round_damage,
            "knowledge_factor": self.knowledge_factor,
            "knowledge_cap": self.knowledge_cap,
            "hides_categories": self.hides_categories,
        }

    @property
    def derived(self) -> Derived:
        """What the fields imply (made once for this terrain: frozen, they never change)."""
        derived = self._derived
        if derived is None:
            derived = self._derived = Derived(self)
        return derived

    def atk_factor(self, category: Category) -> Fraction:
        return self.atk.get(category, ONE)

    def def_factor(self, category: Category) -> Fraction:
        return self.def_.get(category, ONE)

    def damage_factor(self, round_number: int) -> Fraction:
        return self.round_damage.get(round_number, ONE)

    def knowledge(self, effect: Fraction) -> Fraction:
        """A knowledge effect (+0.15 is +15%) as this terrain changes it."""
        if self.keeps_knowledge:
            return effect  # most terrains leave the effect as it is
        scaled = effect * self.knowledge_factor
        if self.knowledge_cap is not None:
            scaled = max(-self.knowledge_cap, min(self.knowledge_cap, scaled))
        return scaled


PLUS_20 = Fraction(120, 100)

STARTING_TERRAINS: tuple[Terrain, ...] = (
    Terrain(
        "Library of Alexandria",
        atk={Category.HISTORY: PLUS_20, Category.ARTS_AND_CULTURE: PLUS_20},
    ),
    Terrain("CERN laboratory", atk={Category.SCIENCES: PLUS_20}),
    Terrain("Amazon rainforest", def_={Category.NATURE_AND_LIFE: PLUS_20}),
    Terrain(
        "Grand Stadium",
        atk={Category.SOCIETY_AND_SPORT: PLUS_20},
        round_damage={5: Fraction(3, 2)},
    ),
    Terrain(
        "Cabinet of curiosities", knowledge_factor=Fraction(3, 2), knowledge_cap=Fraction(1, 4)
    ),
    Terrain("Fog", hides_categories=True),
)

TERRAINS_BY_NAME: Mapping[str, Terrain] = {t.name: t for t in STARTING_TERRAINS}


def _fraction(text: str) -> Fraction:
    return Fraction(text)


def _by_category(values: Mapping[str, str]) -> dict[Category, Fraction]:
    return {Category(k): _fraction(v) for k, v in values.items()}


def terrain_to_dict(terrain: Terrain) -> dict[str, object]:
    """The terrain as a match state keeps it: whole, so a later season's list never
    changes a stored attack."""
    return {
        "name": terrain.name,
        "atk": {str(k): str(v) for k, v in terrain.atk.items()},
        "def": {str(k): str(v) for k, v in terrain.def_.items()},
        "round_damage": {str(k): str(v) for k, v in terrain.round_damage.items()},
        "knowledge_factor": str(terrain.knowledge_factor),
        "knowledge_cap": None if terrain.knowledge_cap is None else str(terrain.knowledge_cap),
        "hides_categories": terrain.hides_categories,
    }


def terrain_from_dict(data: Mapping[str, object]) -> Terrain:
    cap = data.get("knowledge_cap")
    rounds = data.get("round_damage") or {}
    assert isinstance(rounds, Mapping)
    return Terrain(
        name=str(data["name"]),
        atk=_by_category(data.get("atk") or {}),  # type: ignore[arg-type]
        def_=_by_category(data.get("def") or {}),  # type: ignore[arg-type]
        round_damage={int(k): _fraction(str(v)) for k, v in rounds.items()},
        knowledge_factor=_fraction(str(data.get("knowledge_factor", "1"))),
        knowledge_cap=None if cap is None else _fraction(str(cap)),
        hides_categories=bool(data.get("hides_categories", False)),
    )
