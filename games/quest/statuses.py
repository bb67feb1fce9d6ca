"""Effects that stay on a Creature after the action that placed them.

They belong to the Creature (they go to the bench with it) and only its own
turns count them down. ``since_turn`` is the turn number in which a timed
effect was placed: a turn counts for it only if it began after that
(docs/card-catalogue.md, "Duration and charges"), so an effect a Creature
puts on itself covers the rest of that turn without that turn being counted.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from games.kit.frozen import Frozen
from games.quest.vocabulary import AppliesTo, exact, number

MAX_DODGE_CHARGES = 3  # docs: new dodge charges add up, at most 3 in total

# The classes are written out rather than dataclasses (``Frozen``), so that compiled they
# are native classes (docs/performance.md, "Native state classes (Quest), second round").


class ActiveModifier(Frozen):
    """A damage modifier on a Creature (frozen by convention, see ``Frozen``)."""

    applies_to: AppliesTo
    multiplier: Fraction
    turns: int | None  # exactly one of turns and charges is set
    charges: int | None
    since_turn: int

    def __init__(
        self,
        applies_to: AppliesTo,
        multiplier: Fraction,
        turns: int | None,
        charges: int | None,
        since_turn: int,
    ) -> None:
        self.applies_to = applies_to
        self.multiplier = multiplier
        self.turns = turns
        self.charges = charges
        self.since_turn = since_turn

    def fields(self) -> dict[str, Any]:
        return {
            "applies_to": self.applies_to,
            "multiplier": self.multiplier,
            "turns": self.turns,
            "charges": self.charges,
            "since_turn": self.since_turn,
        }

    def replace(self, **changes: Any) -> ActiveModifier:
        """A copy with ``changes`` (``dataclasses.replace``'s meaning)."""
        return ActiveModifier(**{**self.fields(), **changes})

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


class ActivePoison(Frozen):
    amount: int
    turns: int
    since_turn: int

    def __init__(self, amount: int, turns: int, since_turn: int) -> None:
        self.amount = amount
        self.turns = turns
        self.since_turn = since_turn

    def fields(self) -> dict[str, Any]:
        return {"amount": self.amount, "turns": self.turns, "since_turn": self.since_turn}


class ActiveStun(Frozen):
    turns: int
    since_turn: int

    def __init__(self, turns: int, since_turn: int) -> None:
        self.turns = turns
        self.since_turn = since_turn

    def fields(self) -> dict[str, Any]:
        return {"turns": self.turns, "since_turn": self.since_turn}


class ActiveReflect(Frozen):
    fraction: Fraction
    charges: int

    def __init__(self, fraction: Fraction, charges: int) -> None:
        self.fraction = fraction
        self.charges = charges

    def fields(self) -> dict[str, Any]:
        return {"fraction": self.fraction, "charges": self.charges}


class Statuses(Frozen):
    """What stays on one Creature (frozen by convention): a change is a new ``Statuses``
    with every field given (``replace`` for the cold paths)."""

    modifiers: tuple[ActiveModifier, ...]
    poison: ActivePoison | None
    stun: ActiveStun | None
    dodge: int  # charges
    reflect: ActiveReflect | None

    def __init__(
        self,
        modifiers: tuple[ActiveModifier, ...] = (),
        poison: ActivePoison | None = None,
        stun: ActiveStun | None = None,
        dodge: int = 0,
        reflect: ActiveReflect | None = None,
    ) -> None:
        self.modifiers = modifiers
        self.poison = poison
        self.stun = stun
        self.dodge = dodge
        self.reflect = reflect

    def fields(self) -> dict[str, Any]:
        return {
            "modifiers": self.modifiers,
            "poison": self.poison,
            "stun": self.stun,
            "dodge": self.dodge,
            "reflect": self.reflect,
        }

    def replace(self, **changes: Any) -> Statuses:
        """A copy with ``changes`` (``dataclasses.replace``'s meaning; for cold paths)."""
        return Statuses(**{**self.fields(), **changes})

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
            charges = modifier.charges
            if i in positions and charges is not None:
                if charges <= 1:
                    continue
                modifier = ActiveModifier(
                    modifier.applies_to,
                    modifier.multiplier,
                    modifier.turns,
                    charges - 1,
                    modifier.since_turn,
                )
            kept.append(modifier)
        return Statuses(tuple(kept), self.poison, self.stun, self.dodge, self.reflect)

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


NO_STATUSES = Statuses()  # what a fresh Creature has
