"""The one validator of the effect and condition vocabulary (games/quest/vocabulary.py).

Authoring checks every card it saves with it, and the engine checks every card
that enters a match with it, so the two can never disagree. An authored
effect is a JSON object ``{"type": <name>, ...parameters}``; a move may carry
conditions of the same shape. New behaviour needs a new entry here and in the
engine, never a new kind of card. The semantics of each entry are in
docs/card-catalogue.md ("Effects"); the numbers bounding the parameters are
ours (assumed), chosen so that no single effect can end a match on its own.

A refusal names the entry (``effects[2]``) and, per parameter, what is wrong,
in the words authors saw when these checks were marshmallow schemas.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.kit.frozen import plain
from games.kit.refusal import Refusal
from games.quest.vocabulary import (
    AppliesTo,
    Condition,
    Damage,
    DamageModifier,
    Dodge,
    Effect,
    Heal,
    HpAtLeastPercent,
    HpAtMostPercent,
    HpPercentageSwap,
    Lifesteal,
    OncePerMatch,
    OpponentHasStatus,
    Poison,
    PowerChange,
    PowerRestore,
    Reflect,
    SelfDamage,
    Status,
    Stun,
    Target,
    exact,
)

MAX_AMOUNT = 200  # assumed: above any authored HP
MAX_TURNS = 5  # assumed
MAX_CHARGES = 3  # assumed

_MISSING = "Missing data for required field."


@plain
@dataclass(frozen=True)
class Whole:
    """An integer parameter (a JSON integer: not 3.0, not "3", not true) within bounds."""

    low: int
    high: int
    required: bool = True

    def load(self, value: Any) -> tuple[Any, str | None]:
        if value is None:
            return None, "Field may not be null."
        if isinstance(value, bool) or not isinstance(value, int):
            return None, "Not a valid integer."
        return value, _outside(value, self.low, self.high)


@plain
@dataclass(frozen=True)
class Decimal:
    """A number parameter (multipliers, fractions), finite and within bounds."""

    # ``int | float``, not ``float``: compiled (mypyc), a ``float`` is converted to one,
    # and the bounds' message would say "1.0" where the authored bound is 1.
    low: int | float
    high: int | float
    required: bool = True

    def load(self, value: Any) -> tuple[Any, str | None]:
        if value is None:
            return None, "Field may not be null."
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            return None, "Not a valid number."
        try:
            number = float(value)
        except (ValueError, OverflowError):
            return None, "Not a valid number."
        if not math.isfinite(number):
            return None, "Special numeric values (nan or infinity) are not permitted."
        return number, _outside(number, self.low, self.high)


@plain
@dataclass(frozen=True)
class OneOf:
    choices: tuple[str, ...]
    required: bool = True

    def load(self, value: Any) -> tuple[Any, str | None]:
        if value is None:
            return None, "Field may not be null."
        if not isinstance(value, str):
            return None, "Not a valid string."
        if value not in self.choices:
            return value, f"Must be one of: {', '.join(self.choices)}."
        return value, None


def _outside(value: int | float, low: int | float, high: int | float) -> str | None:
    if low <= value <= high:
        return None
    return f"Must be greater than or equal to {low} and less than or equal to {high}."


Parameter = Whole | Decimal | OneOf
_SIDE = OneOf(tuple(Target))
_FRACTION = Decimal(0.05, 1.0)

# Each entry's parameters; what it does is in docs/card-catalogue.md, "Effect types".
EFFECTS: Mapping[str, Mapping[str, Parameter]] = {
    "damage": {"amount": Whole(1, MAX_AMOUNT)},  # the opposing active Creature
    "heal": {"amount": Whole(1, MAX_AMOUNT)},  # the own active Creature, up to max HP
    "power_change": {"amount": Whole(-MAX_AMOUNT, MAX_AMOUNT), "target": _SIDE},
    "damage_modifier": {  # damage a side deals or takes, for turns or charges
        "target": _SIDE,
        "applies_to": OneOf(tuple(AppliesTo)),
        "multiplier": Decimal(0.0, 3.0),
        "turns": Whole(1, MAX_TURNS, required=False),
        "charges": Whole(1, MAX_CHARGES, required=False),
    },
    "poison": {"amount": Whole(1, 50), "turns": Whole(1, MAX_TURNS)},
    "stun": {"turns": Whole(1, 2)},
    "dodge": {"charges": Whole(1, MAX_CHARGES)},
    "reflect": {"fraction": _FRACTION, "charges": Whole(1, MAX_CHARGES)},
    "lifesteal": {"fraction": _FRACTION},
    "power_restore": {"amount": Whole(1, 50)},  # not affinity-modified
    "self_damage": {"amount": Whole(1, MAX_AMOUNT)},  # never affinity-modified
    "hp_percentage_swap": {},  # both active Creatures exchange HP as a share of max
}

CONDITIONS: Mapping[str, Mapping[str, Parameter]] = {
    "hp_at_most_percent": {"percent": Whole(1, 100)},
    "hp_at_least_percent": {"percent": Whole(1, 100)},
    "opponent_has_status": {"status": OneOf(tuple(Status))},
    "once_per_match": {},  # usable once in a match by this Creature
}


def _exactly_one_duration(loaded: Mapping[str, Any]) -> bool:
    """The one place of the rule: a damage modifier lasts for turns or for charges."""
    return loaded["type"] != "damage_modifier" or (("turns" in loaded) != ("charges" in loaded))


def check_entry(
    entry: Any, vocabulary: Mapping[str, Mapping[str, Parameter]], what: str, path: str
) -> dict[str, Any]:
    """One entry in its canonical JSON form, or a Refusal naming what is wrong and where."""
    kind = entry.get("type") if isinstance(entry, Mapping) else None
    spec = vocabulary.get(kind) if isinstance(kind, str) else None
    number = path.rsplit("[", 1)[-1].rstrip("]")
    label = f"{what} {int(number) + 1}" if number.isdigit() else what
    if kind is None or spec is None:
        raise Refusal(
            f"unknown_{what}",
            f"{label} has an unknown type {kind!r}",
            {"known": sorted(vocabulary), "path": path},
        )
    loaded: dict[str, Any] = {"type": kind}
    errors: dict[str, list[str]] = {}
    for name, parameter in spec.items():
        if name not in entry:
            if parameter.required:
                errors[name] = [_MISSING]
            continue
        value, problem = parameter.load(entry[name])
        if problem is None:
            loaded[name] = value
        else:
            errors[name] = [problem]
    for name in entry:
        if name != "type" and name not in spec:
            errors[str(name)] = ["Unknown field."]
    if errors:
        raise Refusal(
            f"invalid_{what}", f"{label} ({kind}) is invalid", {"fields": errors, "path": path}
        )
    if not _exactly_one_duration(loaded):
        raise Refusal(
            f"invalid_{what}",
            f"{label} ({kind}) needs exactly one of turns or charges",
            {"path": path},
        )
    return loaded


def _check_list(
    entries: Any, vocabulary: Mapping[str, Mapping[str, Parameter]], what: str, path: str
) -> list[dict[str, Any]]:
    if not isinstance(entries, list):
        raise Refusal(f"invalid_{what}", f"{what}s must be a list", {"path": path})
    return [
        check_entry(entry, vocabulary, what, f"{path}[{position}]")
        for position, entry in enumerate(entries)
    ]


def validate_effects(effects: Any, path: str = "effects") -> list[dict[str, Any]]:
    """The effects in authored order, each checked against the vocabulary."""
    return _check_list(effects, EFFECTS, "effect", path)


def validate_conditions(conditions: Any, path: str = "conditions") -> list[dict[str, Any]]:
    return _check_list(conditions, CONDITIONS, "condition", path)


def parse_effect(entry: Any, path: str = "effect") -> Effect:
    """One authored effect, checked, as a typed value."""
    e = check_entry(entry, EFFECTS, "effect", path)
    match e["type"]:
        case "damage":
            return Damage(e["amount"])
        case "heal":
            return Heal(e["amount"])
        case "power_change":
            return PowerChange(e["amount"], Target(e["target"]))
        case "damage_modifier":
            return DamageModifier(
                Target(e["target"]),
                AppliesTo(e["applies_to"]),
                exact(e["multiplier"]),
                e.get("turns"),
                e.get("charges"),
            )
        case "poison":
            return Poison(e["amount"], e["turns"])
        case "stun":
            return Stun(e["turns"])
        case "dodge":
            return Dodge(e["charges"])
        case "reflect":
            return Reflect(exact(e["fraction"]), e["charges"])
        case "lifesteal":
            return Lifesteal(exact(e["fraction"]))
        case "power_restore":
            return PowerRestore(e["amount"])
        case "self_damage":
            return SelfDamage(e["amount"])
        case _:
            return HpPercentageSwap()


def parse_condition(entry: Any, path: str = "condition") -> Condition:
    """One authored move condition, checked, as a typed value."""
    c = check_entry(entry, CONDITIONS, "condition", path)
    match c["type"]:
        case "hp_at_most_percent":
            return HpAtMostPercent(c["percent"])
        case "hp_at_least_percent":
            return HpAtLeastPercent(c["percent"])
        case "opponent_has_status":
            return OpponentHasStatus(Status(c["status"]))
        case _:
            return OncePerMatch()
