"""Card snapshots as a match holds them, built from authoring bodies.

A match snapshots its cards when it starts (rulebook: later deck or catalogue
changes do not alter a match), so these carry everything the engine needs
and nothing else. The bodies are those of services/authoring/kinds.py (see
services/authoring/seed/quest_cards.json); their effects and conditions are
checked by games/quest/validation.py (authoring's validator too) as they
become typed values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.kit.frozen import plain
from games.quest.content import Affinity
from games.quest.validation import parse_condition, parse_effect
from games.quest.vocabulary import (
    Condition,
    Effect,
    OncePerMatch,
    condition_to_dict,
    effect_to_dict,
)

BASIC = "Basic"  # the move type that is not an affinity; always 1x


@plain
@dataclass(frozen=True)
class Move:
    name: str
    type: str  # "Basic" or an Affinity value
    power_cost: int
    conditions: tuple[Condition, ...]
    effects: tuple[Effect, ...]

    @property
    def once_per_match(self) -> bool:
        return any(isinstance(c, OncePerMatch) for c in self.conditions)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type,
            "power_cost": self.power_cost,
            "conditions": [condition_to_dict(c) for c in self.conditions],
            "effects": [effect_to_dict(e) for e in self.effects],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Move:
        if data["type"] != BASIC:
            Affinity(data["type"])  # raises on anything else
        return cls(
            name=str(data["name"]),
            type=str(data["type"]),
            power_cost=int(data["power_cost"]),
            conditions=tuple(
                parse_condition(c, f"conditions[{i}]")
                for i, c in enumerate(data.get("conditions", ()))
            ),
            effects=tuple(parse_effect(e, f"effects[{i}]") for i, e in enumerate(data["effects"])),
        )


@plain
@dataclass(frozen=True)
class CreatureCard:
    """A Creature definition as snapshotted into a match."""

    definition_id: str
    name: str
    affinity: Affinity
    max_hp: int
    max_power: int
    moves: tuple[Move, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "definition_id": self.definition_id,
            "name": self.name,
            "affinity": str(self.affinity),
            "max_hp": self.max_hp,
            "max_power": self.max_power,
            "moves": [m.to_dict() for m in self.moves],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CreatureCard:
        card = cls(
            definition_id=str(data["definition_id"]),
            name=str(data["name"]),
            affinity=Affinity(data["affinity"]),
            max_hp=int(data["max_hp"]),
            max_power=int(data["max_power"]),
            moves=tuple(Move.from_dict(m) for m in data["moves"]),
        )
        if card.max_hp < 1 or card.max_power < 0:
            raise ValueError(f"{card.name}: max HP must be positive and max Power not negative")
        for move in card.moves:
            if move.type not in (BASIC, card.affinity):
                raise ValueError(f"{card.name}: {move.name} must be Basic or {card.affinity}")
        return card


@plain
@dataclass(frozen=True)
class PowerCard:
    """A Power card definition as snapshotted into a match (typeless)."""

    definition_id: str
    name: str
    effects: tuple[Effect, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "definition_id": self.definition_id,
            "name": self.name,
            "effects": [effect_to_dict(e) for e in self.effects],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PowerCard:
        return cls(
            definition_id=str(data["definition_id"]),
            name=str(data["name"]),
            effects=tuple(parse_effect(e, f"effects[{i}]") for i, e in enumerate(data["effects"])),
        )


def creature_from_definition(definition_id: Any, body: Mapping[str, Any]) -> CreatureCard:
    """A Creature snapshot from an authoring body (name, affinity, hp, max_power, moves)."""
    moves = [
        {
            "name": move["name"],
            "type": move["type"],
            "power_cost": move["power_cost"],
            "conditions": move.get("conditions", []),
            "effects": move["effects"],
        }
        for move in body["moves"]
    ]
    return CreatureCard.from_dict(
        {
            "definition_id": definition_id,
            "name": body["name"],
            "affinity": body["affinity"],
            "max_hp": body["hp"],
            "max_power": body["max_power"],
            "moves": moves,
        }
    )


def power_card_from_definition(definition_id: Any, body: Mapping[str, Any]) -> PowerCard:
    """A Power card snapshot from an authoring body (name, effects)."""
    return PowerCard.from_dict(
        {
            "definition_id": definition_id,
            "name": body["name"],
            "effects": body["effects"],
        }
    )
