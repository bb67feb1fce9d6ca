"""Affinity matchup tables, by the match's stored rules version.

Version 2 is the rulebook's "Damage matchup table". Version 1 is the
"original version 1 cycle" the rulebook mentions without numbers; ours
(assumed), written down in docs/card-catalogue.md section 2. A match keeps
the version it was created with; the engine never rewrites it.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from games.quest.cards import BASIC

CURRENT_VERSION = 2
LEGACY_VERSION = 1  # a stored state without the field

_UP = Fraction(3, 2)
_DOWN = Fraction(3, 4)
_ORDER = ("Wit", "Grit", "Spark", "Spirit", "Mystic")


def _table(rows: Mapping[str, tuple[Fraction, ...]]) -> dict[tuple[str, str], Fraction]:
    return {
        (attacker, defender): value
        for attacker, values in rows.items()
        for defender, value in zip(_ORDER, values, strict=True)
    }


_1 = Fraction(1)
TABLES: Mapping[int, Mapping[tuple[str, str], Fraction]] = {
    # Attacker row, defender columns Wit, Grit, Spark, Spirit, Mystic.
    2: _table(
        {
            "Wit": (_1, _UP, _DOWN, _1, _1),
            "Grit": (_DOWN, _1, _UP, _DOWN, _UP),
            "Spark": (_UP, _DOWN, _1, _UP, _DOWN),
            "Spirit": (_1, _UP, _DOWN, _1, _UP),
            "Mystic": (_1, _DOWN, _UP, _UP, _1),
        }
    ),
    # Assumed: Wit > Grit > Spark > Wit, everything else neutral.
    1: _table(
        {
            "Wit": (_1, _UP, _DOWN, _1, _1),
            "Grit": (_DOWN, _1, _UP, _1, _1),
            "Spark": (_UP, _DOWN, _1, _1, _1),
            "Spirit": (_1, _1, _1, _1, _1),
            "Mystic": (_1, _1, _1, _1, _1),
        }
    ),
}
SUPPORTED_VERSIONS = frozenset(TABLES)


def affinity_multiplier(version: int, move_type: str | None, defender_affinity: str) -> Fraction:
    """The matchup factor; ``None`` (a Power card) and Basic moves are neutral."""
    if move_type is None or move_type == BASIC:
        return _1
    return TABLES[version][(move_type, str(defender_affinity))]


# The same factors as plain integers and their JSON number, for the engine's hot path
# (a Fraction's numerator and denominator are Python-level properties, and its JSON
# form is a conversion): (numerator, denominator, number).
Factor = tuple[int, int, int | float]
_NEUTRAL: Factor = (1, 1, 1)
FACTORS: Mapping[int, Mapping[tuple[str, str], Factor]] = {
    version: {
        key: (f.numerator, f.denominator, f.numerator if f.denominator == 1 else float(f))
        for key, f in table.items()
    }
    for version, table in TABLES.items()
}


def affinity_factor(version: int, move_type: str | None, defender_affinity: str) -> Factor:
    """``affinity_multiplier`` as (numerator, denominator, JSON number)."""
    if move_type is None or move_type == BASIC:
        return _NEUTRAL
    return FACTORS[version][(move_type, str(defender_affinity))]
