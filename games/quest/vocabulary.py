"""The effect and condition vocabulary as typed values.

Authored cards carry JSON objects; ``games.quest.validation`` (the one
validator, which authoring uses too) checks each and turns it into one of
these frozen dataclasses once, when a card enters a match; ``*_to_dict``
gives back the same JSON shape for the state dict. Fractional numbers
(multipliers, fractions) become ``Fraction`` of their decimal text, so 0.8 is
exactly 4/5 and damage arithmetic never sees a binary float.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from games.kit.frozen import plain


class Target(StrEnum):
    SELF = "self"
    OPPONENT = "opponent"


class AppliesTo(StrEnum):
    DEALT = "dealt"
    TAKEN = "taken"


class Status(StrEnum):
    POISONED = "poisoned"
    STUNNED = "stunned"


def exact(value: Any) -> Fraction:
    """The authored decimal as an exact fraction (0.8 -> 4/5, not the float's binary value)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str | Fraction):
        raise ValueError(f"not a number: {value!r}")
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def number(value: Fraction) -> int | float:
    """A JSON number that ``exact`` turns back into the same fraction."""
    return value.numerator if value.denominator == 1 else float(value)


@plain
@dataclass(frozen=True)
class Damage:
    amount: int


@plain
@dataclass(frozen=True)
class Heal:
    amount: int


@plain
@dataclass(frozen=True)
class PowerChange:
    amount: int
    target: Target


@plain
@dataclass(frozen=True)
class DamageModifier:
    target: Target
    applies_to: AppliesTo
    multiplier: Fraction
    turns: int | None = None
    charges: int | None = None


@plain
@dataclass(frozen=True)
class Poison:
    amount: int
    turns: int


@plain
@dataclass(frozen=True)
class Stun:
    turns: int


@plain
@dataclass(frozen=True)
class Dodge:
    charges: int


@plain
@dataclass(frozen=True)
class Reflect:
    fraction: Fraction
    charges: int


@plain
@dataclass(frozen=True)
class Lifesteal:
    fraction: Fraction


@plain
@dataclass(frozen=True)
class PowerRestore:
    amount: int


@plain
@dataclass(frozen=True)
class SelfDamage:
    amount: int


@plain
@dataclass(frozen=True)
class HpPercentageSwap:
    pass


Effect = (
    Damage
    | Heal
    | PowerChange
    | DamageModifier
    | Poison
    | Stun
    | Dodge
    | Reflect
    | Lifesteal
    | PowerRestore
    | SelfDamage
    | HpPercentageSwap
)


@plain
@dataclass(frozen=True)
class HpAtMostPercent:
    percent: int


@plain
@dataclass(frozen=True)
class HpAtLeastPercent:
    percent: int


@plain
@dataclass(frozen=True)
class OpponentHasStatus:
    status: Status


@plain
@dataclass(frozen=True)
class OncePerMatch:
    pass


Condition = HpAtMostPercent | HpAtLeastPercent | OpponentHasStatus | OncePerMatch


def effect_to_dict(effect: Effect) -> dict[str, Any]:
    match effect:
        case Damage(amount):
            return {"type": "damage", "amount": amount}
        case Heal(amount):
            return {"type": "heal", "amount": amount}
        case PowerChange(amount, target):
            return {"type": "power_change", "amount": amount, "target": str(target)}
        case DamageModifier(target, applies_to, multiplier, turns, charges):
            out: dict[str, Any] = {
                "type": "damage_modifier",
                "target": str(target),
                "applies_to": str(applies_to),
                "multiplier": number(multiplier),
            }
            out.update({"turns": turns} if turns is not None else {"charges": charges})
            return out
        case Poison(amount, turns):
            return {"type": "poison", "amount": amount, "turns": turns}
        case Stun(turns):
            return {"type": "stun", "turns": turns}
        case Dodge(charges):
            return {"type": "dodge", "charges": charges}
        case Reflect(fraction, charges):
            return {"type": "reflect", "fraction": number(fraction), "charges": charges}
        case Lifesteal(fraction):
            return {"type": "lifesteal", "fraction": number(fraction)}
        case PowerRestore(amount):
            return {"type": "power_restore", "amount": amount}
        case SelfDamage(amount):
            return {"type": "self_damage", "amount": amount}
        case HpPercentageSwap():
            return {"type": "hp_percentage_swap"}


def condition_to_dict(condition: Condition) -> dict[str, Any]:
    match condition:
        case HpAtMostPercent(percent):
            return {"type": "hp_at_most_percent", "percent": percent}
        case HpAtLeastPercent(percent):
            return {"type": "hp_at_least_percent", "percent": percent}
        case OpponentHasStatus(status):
            return {"type": "opponent_has_status", "status": str(status)}
        case OncePerMatch():
            return {"type": "once_per_match"}
