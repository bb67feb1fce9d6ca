"""The TerraKard level from progression points (ours: docs/terrakard.md, "Level")."""

from __future__ import annotations

from bisect import bisect_right

from games.terrakard.config import LEVEL_POINTS


def level_for(points: int, thresholds: tuple[int, ...] = LEVEL_POINTS) -> int:
    """Level 1 at 0 points; one more for each threshold ``points`` reaches."""
    return 1 + bisect_right(thresholds, max(0, points))
