"""The games whose points accounts keeps, by game: each game's package supplies its
``PointsTable`` (games/kit/progression.py). A new game is one more entry here."""

from __future__ import annotations

from collections.abc import Mapping

from games.kit.progression import PointsTable
from games.quest.points import QUEST_POINTS

POINTS_TABLES: Mapping[str, PointsTable] = {table.game: table for table in (QUEST_POINTS,)}
