"""The interpreter of the effect vocabulary: one action's effects, in authored order.

Implements docs/card-catalogue.md section 1 ("Resolving an action", "Damage",
"Effect types"). ``resolve`` runs the effects one by one, each seeing what
the previous left, then the reflect step, then spends the charges of the
damage modifiers that multiplied. HP and Power are clamped at every change.
It works in place on the action's working form (``working.Step``: the two
active Creatures as mutable ``Fighter``s), which is frozen once, after the
turn's end. Defeat bookkeeping (clearing a defeated Creature's effects,
replacement, victory) is the caller's job (turns.py), because reflect still
needs the statuses of a defender this action defeated.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Final

from games.quest.cards import BASIC
from games.quest.matchup import FACTORS
from games.quest.state import Creature, Side
from games.quest.statuses import (
    MAX_DODGE_CHARGES,
    ActiveModifier,
    ActivePoison,
    ActiveReflect,
    ActiveStun,
    Statuses,
)
from games.quest.vocabulary import (
    AppliesTo,
    Damage,
    DamageModifier,
    Dodge,
    Effect,
    Heal,
    HpPercentageSwap,
    Lifesteal,
    Poison,
    PowerChange,
    PowerRestore,
    Reflect,
    SelfDamage,
    Stun,
    Target,
    effect_to_dict,
    number,
)
from games.quest.working import Fighter, Step

Event = dict[str, Any]

# Module-level names for enum members (an enum class's attribute lookup is slow).
_SELF: Final = Target.SELF
_OPPONENT: Final = Target.OPPONENT
_DEALT: Final = AppliesTo.DEALT
_TAKEN: Final = AppliesTo.TAKEN


def creature_event(kind: str, side: Side, index: int, creature: Creature, **extra: Any) -> Event:
    return {"type": kind, "side": str(side), "creature": index, "name": creature.card.name, **extra}


# The effects work on the action's ``Step`` (working.py), which also holds this
# action's resolution scratch (damage seen, dodged, dealt, modifiers used).


def lose_hp(r: Step, fighter: Fighter, amount: int, kind: str, **extra: Any) -> int:
    """Clamp at 0; report the loss and a defeat. Returns the HP really lost."""
    lost = min(amount, fighter.hp)
    fighter.hp -= lost
    r.events.append(fighter.event(kind, amount=lost, hp=fighter.hp, **extra))
    if fighter.hp == 0:
        r.events.append(fighter.event("creature_defeated"))
    return lost


def gain_hp(r: Step, fighter: Fighter, amount: int, kind: str) -> None:
    gained = min(amount, fighter.card.max_hp - fighter.hp)
    fighter.hp += gained
    r.events.append(
        {
            "type": kind,
            "side": fighter.side,
            "creature": fighter.index,
            "name": fighter.name,
            "amount": gained,
            "hp": fighter.hp,
        }
    )


def change_power(r: Step, fighter: Fighter, amount: int) -> None:
    power = min(max(fighter.power + amount, 0), fighter.card.max_power)
    r.events.append(
        {
            "type": "power_changed",
            "side": fighter.side,
            "creature": fighter.index,
            "name": fighter.name,
            "amount": power - fighter.power,
            "power": power,
        }
    )
    fighter.power = power


def _damage(r: Step, amount: int) -> None:
    defender = r.them
    first, r.damage_seen = not r.damage_seen, True
    if first and defender.statuses.dodge > 0:
        # Docs: the whole damaging action is dodged, for one charge.
        r.dodged = True
        was = defender.statuses
        left = was.dodge - 1
        defender.statuses = Statuses(was.modifiers, was.poison, was.stun, left, was.reflect)
        r.events.append(defender.event("dodged", charges_left=left))
    if r.dodged:
        r.events.append(defender.event("damage", amount=0, hp=defender.hp, dodged=True))
        return
    move_type = r.move_type
    shown: int | float
    if move_type is None or move_type == BASIC:  # ``affinity_factor`` inline
        numerator = denominator = shown = 1
    else:
        numerator, denominator, shown = FACTORS[r.state.affinity_rules_version][
            (move_type, str(defender.card.affinity))
        ]
    if r.me.statuses.modifiers or defender.statuses.modifiers:
        factor = Fraction(numerator, denominator)
        for side, fighter, applies_to in (
            (r.actor, r.me, _DEALT),
            (r.opponent, defender, _TAKEN),
        ):
            for position, modifier in fighter.statuses.multipliers(applies_to):
                factor *= modifier.multiplier
                r.used_modifiers.setdefault(side, set()).add(position)
        numerator, denominator, shown = factor.numerator, factor.denominator, number(factor)
    # Exact product, floored once, never below zero.
    calculated = max(0, amount * numerator // denominator)  # the exact floor
    lost = min(calculated, defender.hp)
    defender.hp -= lost
    r.events.append(
        {
            "type": "damage",
            "side": defender.side,
            "creature": defender.index,
            "name": defender.name,
            "amount": lost,
            "hp": defender.hp,
            "calculated": calculated,
            "factor": shown,
            "dodged": False,
        }
    )
    if defender.hp == 0:
        r.events.append(defender.event("creature_defeated"))
    r.dealt += lost


def _place_modifier(r: Step, effect: DamageModifier) -> None:
    fighter = r.me if effect.target is _SELF else r.them
    modifier = ActiveModifier(
        effect.applies_to, effect.multiplier, effect.turns, effect.charges, r.state.turn_number
    )
    statuses = fighter.statuses
    fighter.statuses = Statuses(
        (*statuses.modifiers, modifier),
        statuses.poison,
        statuses.stun,
        statuses.dodge,
        statuses.reflect,
    )
    r.events.append(fighter.event("modifier_added", **modifier.to_dict()))


def _place_status(r: Step, effect: Poison | Stun | Dodge | Reflect) -> None:
    fighter = r.them if isinstance(effect, Poison | Stun) else r.me
    statuses = fighter.statuses
    turn = r.state.turn_number
    match effect:
        case Poison(amount, turns):  # a new poison replaces the old one
            fighter.statuses = Statuses(
                statuses.modifiers,
                ActivePoison(amount, turns, turn),
                statuses.stun,
                statuses.dodge,
                statuses.reflect,
            )
            r.events.append(fighter.event("poisoned", amount=amount, turns=turns))
        case Stun(turns):  # no stacking: the larger remaining count wins
            if statuses.stun is not None:
                turns = max(turns, statuses.stun.turns)
            fighter.statuses = Statuses(
                statuses.modifiers,
                statuses.poison,
                ActiveStun(turns, turn),
                statuses.dodge,
                statuses.reflect,
            )
            r.events.append(fighter.event("stunned", turns=turns))
        case Dodge(charges):
            dodge = min(MAX_DODGE_CHARGES, statuses.dodge + charges)
            fighter.statuses = Statuses(
                statuses.modifiers, statuses.poison, statuses.stun, dodge, statuses.reflect
            )
            r.events.append(fighter.event("dodge_added", charges=dodge))
        case Reflect(fraction, charges):  # a new reflect replaces the old one
            fighter.statuses = Statuses(
                statuses.modifiers,
                statuses.poison,
                statuses.stun,
                statuses.dodge,
                ActiveReflect(fraction, charges),
            )
            r.events.append(
                fighter.event("reflect_added", fraction=number(fraction), charges=charges)
            )


def _swap_hp(r: Step) -> None:
    mine, theirs = r.me, r.them
    # Docs: from the HP both had before, integer arithmetic, each at least 1.
    my_hp = max(1, theirs.hp * mine.card.max_hp // theirs.card.max_hp)
    their_hp = max(1, mine.hp * theirs.card.max_hp // mine.card.max_hp)
    mine.hp, theirs.hp = my_hp, their_hp
    r.events.append(mine.event("hp_swapped", hp=my_hp))
    r.events.append(theirs.event("hp_swapped", hp=their_hp))


def _targets(effect: Effect) -> tuple[Target, ...]:
    match effect:
        case Damage() | Poison() | Stun():
            return _AT_OPPONENT
        case PowerChange(target=target) | DamageModifier(target=target):
            return (target,)
        case HpPercentageSwap():
            return _AT_BOTH
        case _:
            return _AT_SELF


_AT_OPPONENT: Final = (_OPPONENT,)
_AT_SELF: Final = (_SELF,)
_AT_BOTH: Final = (_SELF, _OPPONENT)


def _resolve_one(r: Step, effect: Effect) -> None:
    if effect.__class__ is Damage:  # the common case, as below without the dispatch
        if r.them.hp == 0:
            r.events.append({"type": "effect_fizzled", "effect": "damage"})
        else:
            _damage(r, effect.amount)
        return
    fighters = [r.me if t is _SELF else r.them for t in _targets(effect)]
    if fighters[0].hp == 0 or fighters[-1].hp == 0:
        # Docs: later effects aimed at a defeated Creature do nothing.
        r.events.append({"type": "effect_fizzled", "effect": effect_name(effect)})
        return
    match effect:
        case Heal(amount):
            gain_hp(r, r.me, amount, "healed")
        case Lifesteal(fraction):
            gain_hp(r, r.me, math.floor(fraction * r.dealt), "lifesteal")
        case PowerChange(amount, _):
            change_power(r, fighters[0], amount)
        case PowerRestore(amount):
            change_power(r, r.me, amount)
        case SelfDamage(amount):
            lose_hp(r, r.me, amount, "self_damage")
        case DamageModifier():
            _place_modifier(r, effect)
        case Poison() | Stun() | Dodge() | Reflect():
            _place_status(r, effect)
        case HpPercentageSwap():
            _swap_hp(r)


def effect_name(effect: Effect) -> str:
    return str(effect_to_dict(effect)["type"])


def _reflect_step(r: Step) -> None:
    """Docs: after the last effect, if this action's damage really hurt a reflecting
    Creature (even one it defeated), the attacker loses floor(fraction x damage)."""
    defender = r.them
    reflect = defender.statuses.reflect
    if reflect is None:
        return
    left = None if reflect.charges <= 1 else ActiveReflect(reflect.fraction, reflect.charges - 1)
    was = defender.statuses
    defender.statuses = Statuses(was.modifiers, was.poison, was.stun, was.dodge, left)
    amount = math.floor(reflect.fraction * r.dealt)
    if r.me.hp > 0:
        lose_hp(r, r.me, amount, "reflected_damage")


def _spend_charges(r: Step) -> None:
    for side, positions in r.used_modifiers.items():
        fighter = r.fighter(side)
        fighter.statuses = fighter.statuses.spend_charges(positions)


def resolve(step: Step, effects: tuple[Effect, ...], move_type: str | None) -> None:
    """Resolve one move's or Power card's effects for the step's acting Creature, in
    place on the step (its events included)."""
    r = step
    r.move_type = move_type  # None for a Power card: neutral damage
    r.damage_seen = False
    r.dodged = False
    r.dealt = 0  # damage actually dealt by this action's damage effects so far
    r.used_modifiers = {}
    for effect in effects:
        if effect.__class__ is Damage and r.them.hp != 0:  # the common case, undispatched
            _damage(r, effect.amount)
        else:
            _resolve_one(r, effect)
    if r.dealt:
        _reflect_step(r)
    if r.used_modifiers:
        _spend_charges(r)
