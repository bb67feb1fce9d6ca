"""Authoring's kinds of content, keyed by (game, kind): each game supplies its kinds'
rules (services/authoring/kind_rules.py), Quest's in quest_kinds.py. A new game's kinds
are one more entry in ``GAME_KINDS``; nothing else here names a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import ValidationError

from services.authoring.chronovore_kinds import CHRONOVORE_KINDS
from services.authoring.kind_rules import KindRules, name_key
from services.authoring.quest_kinds import (
    MIN_CHALLENGE_QUESTIONS,
    MOVES_PER_CREATURE,
    QUEST_KINDS,
)
from services.authoring.terrakard_kinds import TERRAKARD_KINDS
from shared.content import Game
from shared.errors import InvalidInput, refusals_as

__all__ = [
    "GAME_KINDS",
    "MIN_CHALLENGE_QUESTIONS",
    "MOVES_PER_CREATURE",
    "card_name",
    "is_card",
    "load_body",
    "name_key",
    "public_view",
    "readiness_problems",
    "rules_for",
]

GAME_KINDS: Mapping[str, Mapping[str, KindRules]] = {
    Game.QUEST: QUEST_KINDS,
    Game.TERRAKARD: TERRAKARD_KINDS,
    Game.CHRONOVORE: CHRONOVORE_KINDS,
}


def rules_for(kind: str, game: str) -> KindRules:
    kinds = GAME_KINDS.get(game)
    if kinds is None:
        raise InvalidInput(
            "unknown_kind",
            f"unknown content kind {kind!r} for game {game!r}",
            {"games": sorted(GAME_KINDS)},
        )
    rules = kinds.get(kind)
    if rules is None:
        raise InvalidInput(
            "unknown_kind", f"{kind!r} is not a kind of {game} content", {"kinds": sorted(kinds)}
        )
    return rules


def load_body(kind: str, game: str, body: Any) -> dict[str, Any]:
    """The body in its canonical JSON form, or a clear refusal saying what is wrong."""
    rules = rules_for(kind, game)
    if not isinstance(body, Mapping):
        raise InvalidInput("invalid_body", "the content body must be a JSON object")
    try:
        loaded = rules.schema().load(body)
    except ValidationError as exc:
        raise InvalidInput(
            "invalid_content", f"the {kind} body is invalid", {"fields": exc.messages_dict}
        ) from exc
    if "name" in loaded:
        loaded["name"] = " ".join(loaded["name"].split())
    with refusals_as(InvalidInput):  # the game's own validators refuse without HTTP
        loaded = rules.validate(loaded)
    dumped: dict[str, Any] = rules.schema().dump(loaded)
    return dumped


def readiness_problems(kind: str, game: str, body: dict[str, Any]) -> list[str]:
    return rules_for(kind, game).readiness(body)


def public_view(kind: str, game: str, body: dict[str, Any]) -> dict[str, Any]:
    """The body without its private fields (answer keys, explanations)."""
    rules = rules_for(kind, game)
    view = {k: v for k, v in body.items() if k not in rules.private_fields}
    return rules.public(view, body)


def is_card(game: str, kind: str) -> bool:
    kinds = GAME_KINDS.get(game, {})
    return kind in kinds and kinds[kind].is_card


def card_name(kind: str, body: dict[str, Any], game: str = Game.QUEST) -> str | None:
    """The normalised name that must be unique among card definitions."""
    if is_card(game, kind):
        return name_key(str(body["name"]))
    return None
