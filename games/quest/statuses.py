"""Effects that stay on a Creature after the action that placed them.

They belong to the Creature (they go to the bench with it) and only its own
turns count them down. ``since_turn`` is the turn number in which a timed
effect was placed: a turn counts for it only if it began after that
(docs/card-catalogue.md, "Duration and charges"), so an effect a Creature
puts on itself covers the rest of that turn without that turn being counted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.kit.frozen import plain
from games.quest.copies import evolve
from games.quest.vocabulary import AppliesTo, exact, number

MAX_DODGE_CHARGES = 3  # docs: new dodge charges add up, at most 3 in total


@plain
@dataclass(frozen=True)
class ActiveModifier:
    applies_to: AppliesTo
    multiplier: Fraction
    turns: int | None  # exactly one of turns and charges is set
    charges: int | None
    since_turn: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "applies_to": str(self.applies_to),
            "multiplier": number(self.multiplier),
            "turns": self.turns,
            "charges": self.charges,
            "since_turn": self.since_turn,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ActiveModifier:
        return cls(
            applies_to=AppliesTo(data["applies_to"]),
            multiplier=exact(data["multiplier"]),
            turns=data["turns"],
            charges=data["charges"],
            since_turn=data["since_turn"],
        )


@plain
@dataclass(frozen=True)
class ActivePoison:
    amount: int
    turns: int
    since_turn: int


@plain
@dataclass(frozen=True)
class ActiveStun:
    turns: int
    since_turn: int


@plain
@dataclass(frozen=True)
class ActiveReflect:
    fraction: Fraction
    charges: int


@plain
@dataclass(frozen=True)
class Statuses:
    modifiers: tuple[ActiveModifier, ...] = ()
    poison: ActivePoison | None = None
    stun: ActiveStun | None = None
    dodge: int = 0  # charges
    reflect: ActiveReflect | None = None

    @property
    def poisoned(self) -> bool:
        return self.poison is not None

    @property
    def stunned(self) -> bool:
        return self.stun is not None

    def multipliers(self, applies_to: AppliesTo) -> list[tuple[int, ActiveModifier]]:
        """The modifiers of one kind, with their positions (to spend charges later)."""
        return [(i, m) for i, m in enumerate(self.modifiers) if m.applies_to == applies_to]

    def spend_charges(self, positions: set[int]) -> Statuses:
        """One charge off each modifier at these positions; spent ones go."""
        kept = []
        for i, modifier in enumerate(self.modifiers):
            if i in positions and modifier.charges is not None:
                if modifier.charges <= 1:
                    continue
                modifier = evolve(modifier, charges=modifier.charges - 1)
            kept.append(modifier)
        return evolve(self, modifiers=tuple(kept))

    def to_dict(self) -> dict[str, Any]:
        poison, stun, reflect = self.poison, self.stun, self.reflect
        return {
            "modifiers": [m.to_dict() for m in self.modifiers],
            "poison": None
            if poison is None
            else {"amount": poison.amount, "turns": poison.turns, "since_turn": poison.since_turn},
            "stun": None if stun is None else {"turns": stun.turns, "since_turn": stun.since_turn},
            "dodge": self.dodge,
            "reflect": None
            if reflect is None
            else {"fraction": number(reflect.fraction), "charges": reflect.charges},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Statuses:
        poison, stun, reflect = data["poison"], data["stun"], data["reflect"]
        return cls(
            modifiers=tuple(ActiveModifier.from_dict(m) for m in data["modifiers"]),
            poison=None if poison is None else ActivePoison(**poison),
            stun=None if stun is None else ActiveStun(**stun),
            dodge=int(data["dodge"]),
            reflect=None
            if reflect is None
            else ActiveReflect(exact(reflect["fraction"]), int(reflect["charges"])),
        )
