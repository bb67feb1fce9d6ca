"""A hero's arithmetic (rulebook, "Your hero"), in one place so every rule holds everywhere.

Health never rises above the maximum; Strength never falls below its floor; Armor has
no cap and is removed before Health; attack is Strength plus the weapon's attack; a
strike with a weapon spends 1 durability; a weapon with 0 attack or 0 durability is
no weapon (kept as None).
"""

from __future__ import annotations

from games.chronovore.state import Hero, Settings, Weapon


def _weapon(weapon: Weapon | None) -> Weapon | None:
    return weapon if weapon is not None and weapon.usable else None


def _armed(hero: Hero, weapon: Weapon | None) -> Hero:
    """The hero holding ``weapon`` (or none)."""
    return Hero(hero.health, hero.armor, hero.coins, hero.strength, weapon)


def damage(hero: Hero, amount: int) -> Hero:
    """Damage removes Armor before Health."""
    if amount <= 0:
        return hero
    absorbed = min(hero.armor, amount)
    armor, health = hero.armor - absorbed, hero.health - (amount - absorbed)
    return Hero(health, armor, hero.coins, hero.strength, hero.weapon)


def heal(hero: Hero, amount: int, settings: Settings) -> Hero:
    health = min(settings.max_health, hero.health + amount)
    return Hero(health, hero.armor, hero.coins, hero.strength, hero.weapon)


def add_strength(hero: Hero, amount: int, settings: Settings) -> Hero:
    strength = max(settings.min_strength, hero.strength + amount)
    return Hero(hero.health, hero.armor, hero.coins, strength, hero.weapon)


def add_armor(hero: Hero, amount: int) -> Hero:
    return Hero(hero.health, hero.armor + amount, hero.coins, hero.strength, hero.weapon)


def add_coins(hero: Hero, amount: int) -> Hero:
    return Hero(hero.health, hero.armor, hero.coins + amount, hero.strength, hero.weapon)


def equip(hero: Hero, attack: int, durability: int) -> Hero:
    """Ours: a new weapon replaces the one the hero holds (docs/chronovore.md)."""
    return _armed(hero, _weapon(Weapon(attack, durability)))


def upgrade(hero: Hero, attack: int, durability: int) -> Hero:
    """The anvil: adds to a weapon the hero already has; with no weapon, nothing."""
    weapon = hero.weapon
    if weapon is None:
        return hero
    return _armed(hero, _weapon(Weapon(weapon.attack + attack, weapon.durability + durability)))


def strike(hero: Hero) -> tuple[Hero, int]:
    """One strike: the damage it deals (the current attack) and the hero after it (a
    weapon strike spends 1 durability; a strike with no weapon changes nothing)."""
    weapon = hero.weapon
    if weapon is None:
        return hero, hero.strength
    spent = _weapon(Weapon(weapon.attack, weapon.durability - 1))
    return _armed(hero, spent), hero.strength + weapon.attack
