"""The games whose points accounts keeps, by game: each game's package supplies its
``PointsTable`` (games/kit/progression.py). A new game is one more entry here."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from games.kit.progression import PointsTable
from games.quest.points import QUEST_POINTS
from games.terrakard.progression import level_for as terrakard_level

POINTS_TABLES: Mapping[str, PointsTable] = {table.game: table for table in (QUEST_POINTS,)}

# A game's level from the player's progression points (ours for TerraKard:
# docs/terrakard.md, "Level"): accounts keeps the points, the game says the level.
LEVELS: Mapping[str, Callable[[int], int]] = {"terrakard": terrakard_level}
