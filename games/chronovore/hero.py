"""A hero's arithmetic (rulebook, "Your hero"), in one place so every rule holds everywhere.

Health never rises above the maximum; Strength never falls below its floor; Armor has
no cap and is removed before Health; attack is Strength plus the weapon's attack; a
strike with a weapon spends 1 durability; a weapon with 0 attack or 0 durability is
no weapon (kept as None).
"""

from __future__ import annotations

from games.chronovore.state import Hero, Settings, Weapon
from games.kit.frozen import evolve


def _weapon(weapon: Weapon | None) -> Weapon | None:
    return weapon if weapon is not None and weapon.usable else None


def damage(hero: Hero, amount: int) -> Hero:
    """Damage removes Armor before Health."""
    if amount <= 0:
        return hero
    absorbed = min(hero.armor, amount)
    return evolve(hero, armor=hero.armor - absorbed, health=hero.health - (amount - absorbed))


def heal(hero: Hero, amount: int, settings: Settings) -> Hero:
    return evolve(hero, health=min(settings.max_health, hero.health + amount))


def add_strength(hero: Hero, amount: int, settings: Settings) -> Hero:
    return evolve(hero, strength=max(settings.min_strength, hero.strength + amount))


def add_armor(hero: Hero, amount: int) -> Hero:
    return evolve(hero, armor=hero.armor + amount)


def add_coins(hero: Hero, amount: int) -> Hero:
    return evolve(hero, coins=hero.coins + amount)


def equip(hero: Hero, attack: int, durability: int) -> Hero:
    """Ours: a new weapon replaces the one the hero holds (docs/chronovore.md)."""
    return evolve(hero, weapon=_weapon(Weapon(attack, durability)))


def upgrade(hero: Hero, attack: int, durability: int) -> Hero:
    """The anvil: adds to a weapon the hero already has; with no weapon, nothing."""
    weapon = hero.weapon
    if weapon is None:
        return hero
    return evolve(
        hero, weapon=_weapon(Weapon(weapon.attack + attack, weapon.durability + durability))
    )


def strike(hero: Hero) -> tuple[Hero, int]:
    """One strike: the damage it deals (the current attack) and the hero after it (a
    weapon strike spends 1 durability; a strike with no weapon changes nothing)."""
    weapon = hero.weapon
    if weapon is None:
        return hero, hero.strength
    spent = _weapon(Weapon(weapon.attack, weapon.durability - 1))
    return evolve(hero, weapon=spent), hero.strength + weapon.attack
