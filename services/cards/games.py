"""The games whose cards this service keeps, by game: each game's package supplies
its ``CollectionRules`` (games/kit/collection.py); the service looks them up by the
game a definition, a deck or an event names, and never names a game's rules itself.

A new game is one more entry here (its package's rules), nothing else in cards.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from games.chronovore.collection import CHRONOVORE_COLLECTION
from games.kit.collection import CollectionRules
from games.quest.canonical import QUEST_CANONICAL, CanonicalCards
from games.quest.collection import quest_collection
from games.terrakard.collection import TERRAKARD_COLLECTION
from services.cards.ownership_store import OwnedCopy
from shared.errors import InvalidInput


class CardGames:
    def __init__(self, rules: Iterable[CollectionRules]) -> None:
        self._rules: Mapping[str, CollectionRules] = {r.game: r for r in rules}

    def __contains__(self, game: object) -> bool:
        return game in self._rules

    def all(self) -> list[CollectionRules]:
        return list(self._rules.values())

    def rules(self, game: str) -> CollectionRules:
        found = self._rules.get(game)
        if found is None:
            raise InvalidInput("unknown_game", f"no cards are kept for the game {game!r}")
        return found


def card_games(quest_canonical: CanonicalCards = QUEST_CANONICAL) -> CardGames:
    """Every game's rules; Quest's with its configured canonical lineages (the service's
    ``canonical`` dependency, which tests replace)."""
    return CardGames(
        [quest_collection(quest_canonical), CHRONOVORE_COLLECTION, TERRAKARD_COLLECTION]
    )


CARD_GAMES = card_games()


def new_copies(
    rules: CollectionRules,
    player_id: uuid.UUID,
    definition_ids: Sequence[uuid.UUID],
    source: tuple[str, uuid.UUID],
    at: datetime,
    finish: str | None = None,
) -> list[OwnedCopy]:
    """New owned copies of a game's definitions, granted by ``source`` (type, id).

    The schema keeps sources and finishes open strings (every game has its own), so
    they are checked here; a wrong one is our bug, never a player's input.
    """
    source_type, source_id = source
    finish = finish or rules.default_finish
    if source_type not in rules.sources:
        raise ValueError(f"{rules.game} copies are not granted by {source_type!r}")
    if finish not in rules.finishes:
        raise ValueError(f"{rules.game} has no finish {finish!r}")
    return [
        OwnedCopy(uuid.uuid4(), player_id, definition_id, source_type, source_id, at, finish)
        for definition_id in definition_ids
    ]
