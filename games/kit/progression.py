"""What a game tells the accounts service about progression points: how many points
an attempt's correct answers and a CPU match's outcome earn. Accounts keeps one ledger
for every game, each entry with its game; a new game supplies one ``PointsTable``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.kit.frozen import plain


@plain
@dataclass(frozen=True)
class PointsTable:
    game: str
    for_answers: Callable[[int], int]  # correct answers of one attempt -> points, or a Refusal
    for_cpu_match: Callable[[str], int]  # a CPU match's outcome -> points, or a Refusal
