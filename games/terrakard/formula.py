"""ATK, DEF and rarity from an article's public figures (ours; docs/terrakard.md, "The
formula"). Deterministic and in whole numbers only, so every machine computes the same
card from the same line: each figure earns 0 to 7 points by the bands below (the
highest band it reaches), and the points make the values.

- renown = 3 x views + 3 x languages + 2 x length (0 to 56) sets the rarity;
- ATK = 10 + 5 x views + 3 x languages + 2 x length (a subject's reach: 10 to 80);
- DEF = 10 + 5 x age + 3 x length + 2 x languages (its depth and endurance: 10 to 80).

They are game values, not a judgement on the subject (rulebook, "Cards in combat").
``FORMULA_VERSION`` is stored with each card: a changed formula gets a new version,
and authoring checks a card against the version it names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.kit.frozen import plain
from games.terrakard.articles import Article
from games.terrakard.content import Rarity

FORMULA_VERSION = 1

# The lowest value of each band, from 1 point to 7 (below the first: 0 points).
VIEW_BANDS = (1_000, 5_000, 20_000, 60_000, 150_000, 400_000, 1_000_000)  # monthly views
LANGUAGE_BANDS = (10, 25, 50, 80, 120, 170, 230)  # language editions
LENGTH_BANDS = (5_000, 15_000, 30_000, 60_000, 100_000, 150_000, 220_000)  # bytes
AGE_BANDS = (10, 25, 50, 100, 250, 1_000, 3_000)  # years

# The lowest renown of each rarity above Common.
RARITY_FLOORS: Mapping[Rarity, int] = {
    Rarity.UNCOMMON: 24,
    Rarity.RARE: 33,
    Rarity.EPIC: 41,
    Rarity.LEGENDARY: 48,
}


def points(value: int, bands: tuple[int, ...]) -> int:
    return sum(1 for floor in bands if value >= floor)


@plain
@dataclass(frozen=True)
class Stats:
    atk: int
    def_: int
    rarity: Rarity
    renown: int


def stats(article: Article) -> Stats:
    views = points(article.monthly_views, VIEW_BANDS)
    languages = points(article.languages, LANGUAGE_BANDS)
    length = points(article.length, LENGTH_BANDS)
    age = points(article.age_years, AGE_BANDS)
    renown = 3 * views + 3 * languages + 2 * length
    rarity = Rarity.COMMON
    for candidate, floor in RARITY_FLOORS.items():
        if renown >= floor:
            rarity = candidate
    return Stats(
        atk=10 + 5 * views + 3 * languages + 2 * length,
        def_=10 + 5 * age + 3 * length + 2 * languages,
        rarity=rarity,
        renown=renown,
    )
