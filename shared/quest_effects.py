"""The Quest effect and condition vocabulary: one list, used by authoring to
validate card definitions and by the battle engine to interpret them.

A card's moves and Power cards carry an ordered list of effects, each a JSON
object ``{"type": <name>, ...parameters}``; a move may carry conditions of
the same shape. New behaviour needs a new entry here (and in the engine),
never a new kind of card. The semantics of each entry are written down in
docs/card-catalogue.md ("Effects"); the numbers bounding the parameters are
ours (assumed), chosen so that no single effect can end a match on its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from shared.errors import InvalidInput

MAX_AMOUNT = 200  # assumed: above any authored HP
MAX_TURNS = 5  # assumed
MAX_CHARGES = 3  # assumed


class _Effect(Schema):
    type = fields.String(required=True)


def _amount(low: int = 1, high: int = MAX_AMOUNT) -> fields.Integer:
    return fields.Integer(required=True, strict=True, validate=validate.Range(low, high))


def _turns() -> fields.Integer:
    return fields.Integer(required=True, strict=True, validate=validate.Range(1, MAX_TURNS))


def _charges() -> fields.Integer:
    return fields.Integer(required=True, strict=True, validate=validate.Range(1, MAX_CHARGES))


def _fraction() -> fields.Float:
    return fields.Float(required=True, validate=validate.Range(0.05, 1.0), allow_nan=False)


_SIDE = fields.String(required=True, validate=validate.OneOf(["self", "opponent"]))


class Damage(_Effect):
    """Damage to the opposing active Creature; affinity applies to moves."""

    amount = _amount()


class Heal(_Effect):
    """HP back to the own active Creature, up to its max HP."""

    amount = _amount()


class PowerChange(_Effect):
    """Add to (or take from) a side's active Creature's Power, within 0..max."""

    amount = fields.Integer(
        required=True, strict=True, validate=validate.Range(-MAX_AMOUNT, MAX_AMOUNT)
    )
    target = _SIDE


class DamageModifier(_Effect):
    """Multiply damage a side's active Creature deals or takes, for turns or charges."""

    target = _SIDE
    applies_to = fields.String(required=True, validate=validate.OneOf(["dealt", "taken"]))
    multiplier = fields.Float(required=True, validate=validate.Range(0.0, 3.0), allow_nan=False)
    turns = fields.Integer(strict=True, validate=validate.Range(1, MAX_TURNS))
    charges = fields.Integer(strict=True, validate=validate.Range(1, MAX_CHARGES))


class Poison(_Effect):
    """The opposing active Creature loses HP at the end of each of its turns."""

    amount = _amount(1, 50)
    turns = _turns()


class Stun(_Effect):
    """The opposing active Creature cannot use moves for its next turns."""

    turns = fields.Integer(required=True, strict=True, validate=validate.Range(1, 2))


class Dodge(_Effect):
    """The own active Creature avoids the next damaging opposing actions."""

    charges = _charges()


class Reflect(_Effect):
    """A fraction of damage the own active Creature takes hits the attacker."""

    fraction = _fraction()
    charges = _charges()


class Lifesteal(_Effect):
    """Heal the own active Creature by a fraction of the damage this action dealt."""

    fraction = _fraction()


class PowerRestore(_Effect):
    """Restore the own active Creature's Power, up to its max (not affinity-modified)."""

    amount = _amount(1, 50)


class SelfDamage(_Effect):
    """The own active Creature loses HP (never affinity-modified)."""

    amount = _amount()


class HpPercentageSwap(_Effect):
    """Both active Creatures exchange their HP as a percentage of their max HP."""


EFFECTS: Mapping[str, type[Schema]] = {
    "damage": Damage,
    "heal": Heal,
    "power_change": PowerChange,
    "damage_modifier": DamageModifier,
    "poison": Poison,
    "stun": Stun,
    "dodge": Dodge,
    "reflect": Reflect,
    "lifesteal": Lifesteal,
    "power_restore": PowerRestore,
    "self_damage": SelfDamage,
    "hp_percentage_swap": HpPercentageSwap,
}


class _Condition(Schema):
    type = fields.String(required=True)


class HpAtMostPercent(_Condition):
    """Usable only while the own active Creature's HP is at most this share of max."""

    percent = fields.Integer(required=True, strict=True, validate=validate.Range(1, 100))


class HpAtLeastPercent(_Condition):
    percent = fields.Integer(required=True, strict=True, validate=validate.Range(1, 100))


class OpponentHasStatus(_Condition):
    status = fields.String(required=True, validate=validate.OneOf(["poisoned", "stunned"]))


class OncePerMatch(_Condition):
    """The move can be used once in a match by this Creature."""


CONDITIONS: Mapping[str, type[Schema]] = {
    "hp_at_most_percent": HpAtMostPercent,
    "hp_at_least_percent": HpAtLeastPercent,
    "opponent_has_status": OpponentHasStatus,
    "once_per_match": OncePerMatch,
}


def _validate_entries(
    entries: Any, vocabulary: Mapping[str, type[Schema]], what: str
) -> list[dict[str, Any]]:
    if not isinstance(entries, list):
        raise InvalidInput(f"invalid_{what}", f"{what}s must be a list")
    checked = []
    for position, entry in enumerate(entries):
        kind = entry.get("type") if isinstance(entry, Mapping) else None
        schema = vocabulary.get(kind) if isinstance(kind, str) else None
        if schema is None:
            raise InvalidInput(
                f"unknown_{what}",
                f"{what} {position + 1} has an unknown type {kind!r}",
                {"known": sorted(vocabulary)},
            )
        try:
            checked.append(schema().load(entry))
        except ValidationError as exc:
            raise InvalidInput(
                f"invalid_{what}",
                f"{what} {position + 1} ({kind}) is invalid",
                {"fields": exc.messages_dict},
            ) from exc
        if kind == "damage_modifier" and (("turns" in entry) == ("charges" in entry)):
            raise InvalidInput(
                f"invalid_{what}",
                f"{what} {position + 1} (damage_modifier) needs exactly one of turns or charges",
            )
    return checked


def validate_effects(effects: Any) -> list[dict[str, Any]]:
    """The effects in authored order, each checked against the vocabulary."""
    return _validate_entries(effects, EFFECTS, "effect")


def validate_conditions(conditions: Any) -> list[dict[str, Any]]:
    return _validate_entries(conditions, CONDITIONS, "condition")
