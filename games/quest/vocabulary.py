"""The effect and condition vocabulary (shared/quest_effects.py) as typed values.

Authored cards carry JSON objects; the engine turns each into one of these
frozen dataclasses once, when a card enters a match, and back into the same
JSON shape for the state dict. Fractional numbers (multipliers, fractions)
become ``Fraction`` of their decimal text, so 0.8 is exactly 4/5 and damage
arithmetic never sees a binary float.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any


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


@dataclass(frozen=True)
class Damage:
    amount: int


@dataclass(frozen=True)
class Heal:
    amount: int


@dataclass(frozen=True)
class PowerChange:
    amount: int
    target: Target


@dataclass(frozen=True)
class DamageModifier:
    target: Target
    applies_to: AppliesTo
    multiplier: Fraction
    turns: int | None = None
    charges: int | None = None


@dataclass(frozen=True)
class Poison:
    amount: int
    turns: int


@dataclass(frozen=True)
class Stun:
    turns: int


@dataclass(frozen=True)
class Dodge:
    charges: int


@dataclass(frozen=True)
class Reflect:
    fraction: Fraction
    charges: int


@dataclass(frozen=True)
class Lifesteal:
    fraction: Fraction


@dataclass(frozen=True)
class PowerRestore:
    amount: int


@dataclass(frozen=True)
class SelfDamage:
    amount: int


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


@dataclass(frozen=True)
class HpAtMostPercent:
    percent: int


@dataclass(frozen=True)
class HpAtLeastPercent:
    percent: int


@dataclass(frozen=True)
class OpponentHasStatus:
    status: Status


@dataclass(frozen=True)
class OncePerMatch:
    pass


Condition = HpAtMostPercent | HpAtLeastPercent | OpponentHasStatus | OncePerMatch


def _int(entry: Mapping[str, Any], key: str) -> int:
    value = entry[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{entry.get('type')}.{key} must be an integer")
    return value


def _optional_int(entry: Mapping[str, Any], key: str) -> int | None:
    return None if entry.get(key) is None else _int(entry, key)


def parse_effect(entry: Mapping[str, Any]) -> Effect:
    """One authored effect object as a typed value (bounds are authoring's job)."""
    kind = entry.get("type")
    if kind == "damage":
        return Damage(_int(entry, "amount"))
    if kind == "heal":
        return Heal(_int(entry, "amount"))
    if kind == "power_change":
        return PowerChange(_int(entry, "amount"), Target(entry["target"]))
    if kind == "damage_modifier":
        modifier = DamageModifier(
            Target(entry["target"]),
            AppliesTo(entry["applies_to"]),
            exact(entry["multiplier"]),
            _optional_int(entry, "turns"),
            _optional_int(entry, "charges"),
        )
        if (modifier.turns is None) == (modifier.charges is None):
            raise ValueError("damage_modifier needs exactly one of turns or charges")
        return modifier
    if kind == "poison":
        return Poison(_int(entry, "amount"), _int(entry, "turns"))
    if kind == "stun":
        return Stun(_int(entry, "turns"))
    if kind == "dodge":
        return Dodge(_int(entry, "charges"))
    if kind == "reflect":
        return Reflect(exact(entry["fraction"]), _int(entry, "charges"))
    if kind == "lifesteal":
        return Lifesteal(exact(entry["fraction"]))
    if kind == "power_restore":
        return PowerRestore(_int(entry, "amount"))
    if kind == "self_damage":
        return SelfDamage(_int(entry, "amount"))
    if kind == "hp_percentage_swap":
        return HpPercentageSwap()
    raise ValueError(f"unknown effect type {kind!r}")


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


def parse_condition(entry: Mapping[str, Any]) -> Condition:
    kind = entry.get("type")
    if kind == "hp_at_most_percent":
        return HpAtMostPercent(_int(entry, "percent"))
    if kind == "hp_at_least_percent":
        return HpAtLeastPercent(_int(entry, "percent"))
    if kind == "opponent_has_status":
        return OpponentHasStatus(Status(entry["status"]))
    if kind == "once_per_match":
        return OncePerMatch()
    raise ValueError(f"unknown condition type {kind!r}")


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
