"""The games battle hosts, by name: the registry ``{game: HostedGame}``.

A new game on the battle side is one module here (its ``HOSTED`` entry: engine, CPU
policy, one-active modes; its start and its views) plus its line below; the engine
itself is a package in ``games/`` (docs/architecture.md, "The games layer").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.kit.protocol import Engine
from services.battle.games import chronovore, quest, terrakard
from services.battle.host import HostedGame
from services.battle.match_seeds import SeededViews

GAMES: Mapping[str, HostedGame] = {
    quest.GAME: quest.HOSTED,
    chronovore.GAME: chronovore.HOSTED,
    terrakard.GAME: terrakard.HOSTED,
}
ENGINES: Mapping[str, Engine[Any, Any, Any]] = {name: g.engine for name, g in GAMES.items()}


def hosted(game: str) -> HostedGame:
    """The hosted game of a stored match (a game removed from the registry is a bug), its
    every answer with the match's seed commitment (and the seed once it is over)."""
    found = GAMES[game]
    return replace(found, views=SeededViews(found.views))
