"""The interpreter of the effect vocabulary: one action's effects, in authored order.

Implements docs/card-catalogue.md section 1 ("Resolving an action", "Damage",
"Effect types"). ``resolve`` runs the effects one by one, each seeing what
the previous left, then the reflect step, then spends the charges of the
damage modifiers that multiplied. HP and Power are clamped at every change.
Defeat bookkeeping (clearing a defeated Creature's effects, replacement,
victory) is the caller's job (turns.py), because reflect still needs the
statuses of a defender this action defeated.
"""

from __future__ import annotations

import math
from typing import Any

from games.kit.frozen import evolve
from games.quest.matchup import affinity_multiplier
from games.quest.state import Creature, MatchState, Side, SideState
from games.quest.statuses import (
    MAX_DODGE_CHARGES,
    ActiveModifier,
    ActivePoison,
    ActiveReflect,
    ActiveStun,
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

Event = dict[str, Any]


def creature_event(kind: str, side: Side, index: int, creature: Creature, **extra: Any) -> Event:
    return {"type": kind, "side": str(side), "creature": index, "name": creature.card.name, **extra}


class _Resolution:
    """Scratch space for one action; mutable on purpose, it never outlives ``resolve``.

    ``creatures``: the two active Creatures as this action leaves them so far; written
    back into the state once, at the end (one new state an action, not one a change).
    """

    __slots__ = (
        "actor",
        "creatures",
        "damage_seen",
        "dealt",
        "dodged",
        "events",
        "indexes",
        "move_type",
        "opponent",
        "state",
        "used_modifiers",
    )

    def __init__(
        self,
        state: MatchState,
        actor: Side,
        move_type: str | None,  # None for a Power card: neutral damage
        indexes: dict[Side, int],  # the two active Creatures when the action began
        creatures: dict[Side, Creature],
    ) -> None:
        self.state = state
        self.actor = actor
        self.opponent = actor.other
        self.move_type = move_type
        self.events: list[Event] = []
        self.indexes = indexes
        self.creatures = creatures
        self.damage_seen = False
        self.dodged = False
        self.dealt = 0  # damage actually dealt by this action's damage effects so far
        self.used_modifiers: dict[Side, set[int]] = {}

    def get(self, side: Side) -> Creature:
        return self.creatures[side]

    def put(self, side: Side, creature: Creature) -> None:
        self.creatures[side] = creature

    def result(self) -> MatchState:
        """The state with both active Creatures as the action left them (one copy)."""
        state = self.state
        changes: dict[str, SideState] = {}
        for side, creature in self.creatures.items():
            index = self.indexes[side]
            own = state.side(side)
            if own.creatures[index] is not creature:
                creatures = list(own.creatures)
                creatures[index] = creature
                changes[str(side)] = evolve(own, creatures=tuple(creatures))
        return evolve(state, **changes) if changes else state

    def emit(self, kind: str, side: Side, **extra: Any) -> None:
        self.events.append(creature_event(kind, side, self.indexes[side], self.get(side), **extra))

    def lose_hp(self, side: Side, amount: int, kind: str, **extra: Any) -> int:
        """Clamp at 0; report the loss and a defeat. Returns the HP really lost."""
        creature = self.get(side)
        lost = min(amount, creature.hp)
        self.put(side, evolve(creature, hp=creature.hp - lost))
        self.emit(kind, side, amount=lost, hp=creature.hp - lost, **extra)
        if creature.hp - lost == 0:
            self.emit("creature_defeated", side)
        return lost

    def gain_hp(self, side: Side, amount: int, kind: str) -> None:
        creature = self.get(side)
        gained = min(amount, creature.card.max_hp - creature.hp)
        self.put(side, evolve(creature, hp=creature.hp + gained))
        self.emit(kind, side, amount=gained, hp=creature.hp + gained)

    def change_power(self, side: Side, amount: int) -> None:
        creature = self.get(side)
        power = min(max(creature.power + amount, 0), creature.card.max_power)
        self.put(side, evolve(creature, power=power))
        self.emit("power_changed", side, amount=power - creature.power, power=power)


def _damage(r: _Resolution, amount: int) -> None:
    defender = r.get(r.opponent)
    first, r.damage_seen = not r.damage_seen, True
    if first and defender.statuses.dodge > 0:
        # Docs: the whole damaging action is dodged, for one charge.
        r.dodged = True
        statuses = evolve(defender.statuses, dodge=defender.statuses.dodge - 1)
        r.put(r.opponent, evolve(defender, statuses=statuses))
        r.emit("dodged", r.opponent, charges_left=statuses.dodge)
    if r.dodged:
        r.emit("damage", r.opponent, amount=0, hp=defender.hp, dodged=True)
        return
    attacker = r.get(r.actor)
    factor = affinity_multiplier(
        r.state.affinity_rules_version, r.move_type, defender.card.affinity
    )
    for side, creature, applies_to in (
        (r.actor, attacker, AppliesTo.DEALT),
        (r.opponent, defender, AppliesTo.TAKEN),
    ):
        if not creature.statuses.modifiers:
            continue
        for position, modifier in creature.statuses.multipliers(applies_to):
            factor *= modifier.multiplier
            r.used_modifiers.setdefault(side, set()).add(position)
    # Exact product, floored once, never below zero.
    calculated = max(0, amount * factor.numerator // factor.denominator)  # the exact floor
    r.dealt += r.lose_hp(
        r.opponent, calculated, "damage", calculated=calculated, factor=number(factor), dodged=False
    )


def _place_modifier(r: _Resolution, effect: DamageModifier) -> None:
    side = r.actor if effect.target is Target.SELF else r.opponent
    creature = r.get(side)
    modifier = ActiveModifier(
        effect.applies_to, effect.multiplier, effect.turns, effect.charges, r.state.turn_number
    )
    statuses = evolve(creature.statuses, modifiers=(*creature.statuses.modifiers, modifier))
    r.put(side, evolve(creature, statuses=statuses))
    r.emit("modifier_added", side, **modifier.to_dict())


def _place_status(r: _Resolution, effect: Poison | Stun | Dodge | Reflect) -> None:
    side = r.opponent if isinstance(effect, Poison | Stun) else r.actor
    creature = r.get(side)
    statuses = creature.statuses
    match effect:
        case Poison(amount, turns):  # a new poison replaces the old one
            statuses = evolve(statuses, poison=ActivePoison(amount, turns, r.state.turn_number))
            r.put(side, evolve(creature, statuses=statuses))
            r.emit("poisoned", side, amount=amount, turns=turns)
        case Stun(turns):  # no stacking: the larger remaining count wins
            if statuses.stun is not None:
                turns = max(turns, statuses.stun.turns)
            statuses = evolve(statuses, stun=ActiveStun(turns, r.state.turn_number))
            r.put(side, evolve(creature, statuses=statuses))
            r.emit("stunned", side, turns=turns)
        case Dodge(charges):
            dodge = min(MAX_DODGE_CHARGES, statuses.dodge + charges)
            r.put(side, evolve(creature, statuses=evolve(statuses, dodge=dodge)))
            r.emit("dodge_added", side, charges=dodge)
        case Reflect(fraction, charges):  # a new reflect replaces the old one
            reflect = ActiveReflect(fraction, charges)
            r.put(side, evolve(creature, statuses=evolve(statuses, reflect=reflect)))
            r.emit("reflect_added", side, fraction=number(fraction), charges=charges)


def _swap_hp(r: _Resolution) -> None:
    mine, theirs = r.get(r.actor), r.get(r.opponent)
    # Docs: from the HP both had before, integer arithmetic, each at least 1.
    my_hp = max(1, theirs.hp * mine.card.max_hp // theirs.card.max_hp)
    their_hp = max(1, mine.hp * theirs.card.max_hp // mine.card.max_hp)
    r.put(r.actor, evolve(mine, hp=my_hp))
    r.put(r.opponent, evolve(theirs, hp=their_hp))
    r.emit("hp_swapped", r.actor, hp=my_hp)
    r.emit("hp_swapped", r.opponent, hp=their_hp)


def _targets(effect: Effect) -> tuple[Target, ...]:
    match effect:
        case Damage() | Poison() | Stun():
            return (Target.OPPONENT,)
        case PowerChange(target=target) | DamageModifier(target=target):
            return (target,)
        case HpPercentageSwap():
            return (Target.SELF, Target.OPPONENT)
        case _:
            return (Target.SELF,)


def _resolve_one(r: _Resolution, effect: Effect) -> None:
    if effect.__class__ is Damage:  # the common case, as below without the dispatch
        if r.creatures[r.opponent].hp == 0:
            r.events.append({"type": "effect_fizzled", "effect": "damage"})
        else:
            _damage(r, effect.amount)
        return
    sides = [r.actor if t is Target.SELF else r.opponent for t in _targets(effect)]
    if any(r.get(side).defeated for side in sides):
        # Docs: later effects aimed at a defeated Creature do nothing.
        r.events.append({"type": "effect_fizzled", "effect": effect_name(effect)})
        return
    match effect:
        case Damage(amount):
            _damage(r, amount)
        case Heal(amount):
            r.gain_hp(r.actor, amount, "healed")
        case Lifesteal(fraction):
            r.gain_hp(r.actor, math.floor(fraction * r.dealt), "lifesteal")
        case PowerChange(amount, _):
            r.change_power(sides[0], amount)
        case PowerRestore(amount):
            r.change_power(r.actor, amount)
        case SelfDamage(amount):
            r.lose_hp(r.actor, amount, "self_damage")
        case DamageModifier():
            _place_modifier(r, effect)
        case Poison() | Stun() | Dodge() | Reflect():
            _place_status(r, effect)
        case HpPercentageSwap():
            _swap_hp(r)


def effect_name(effect: Effect) -> str:
    return str(effect_to_dict(effect)["type"])


def _reflect_step(r: _Resolution) -> None:
    """Docs: after the last effect, if this action's damage really hurt a reflecting
    Creature (even one it defeated), the attacker loses floor(fraction x damage)."""
    defender = r.get(r.opponent)
    reflect = defender.statuses.reflect
    if r.dealt == 0 or reflect is None:
        return
    left = None if reflect.charges <= 1 else evolve(reflect, charges=reflect.charges - 1)
    r.put(r.opponent, evolve(defender, statuses=evolve(defender.statuses, reflect=left)))
    amount = math.floor(reflect.fraction * r.dealt)
    if r.get(r.actor).alive:
        r.lose_hp(r.actor, amount, "reflected_damage")


def _spend_charges(r: _Resolution) -> None:
    for side, positions in r.used_modifiers.items():
        creature = r.get(side)
        r.put(side, evolve(creature, statuses=creature.statuses.spend_charges(positions)))


def resolve(
    state: MatchState,
    actor: Side,
    effects: tuple[Effect, ...],
    move_type: str | None,
    acting: Creature | None = None,
) -> tuple[MatchState, list[Event]]:
    """Resolve one move's or Power card's effects for ``actor``'s active Creature.

    ``acting``: that Creature as the action began (a move's cost paid), if it is not
    yet in ``state``; it goes into the state with the rest, in one copy.
    """
    opponent = actor.other
    own, theirs = state.side(actor), state.side(opponent)
    if own.active is None or theirs.active is None:
        raise ValueError("an action needs both active Creatures")
    indexes = {actor: own.active, opponent: theirs.active}
    creatures = {
        actor: own.creatures[own.active] if acting is None else acting,
        opponent: theirs.creatures[theirs.active],
    }
    r = _Resolution(state, actor, move_type, indexes, creatures)
    for effect in effects:
        _resolve_one(r, effect)
    if r.dealt:
        _reflect_step(r)
    if r.used_modifiers:
        _spend_charges(r)
    return r.result(), r.events
