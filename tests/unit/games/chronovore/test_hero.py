"""A hero's arithmetic (rulebook, "Your hero")."""

from games.chronovore import hero as heroes
from games.chronovore.state import Hero, Settings, Weapon

SETTINGS = Settings()


def test_a_hero_starts_at_health_30_armor_0_coins_0_strength_1_and_no_weapon():
    from games.chronovore.engine import new_match

    from .support import T0, deck

    state = new_match({"a": deck(), "b": deck()}, 1, T0)
    assert all(side.hero == Hero(30, 0, 0, 1, None) for side in state.sides)


def test_health_never_rises_above_30():
    assert heroes.heal(Hero(25), 5, SETTINGS).health == 30
    assert heroes.heal(Hero(25), 6, SETTINGS).health == 30
    assert heroes.heal(Hero(25), 4, SETTINGS).health == 29


def test_strength_never_falls_below_1():
    assert heroes.add_strength(Hero(30, strength=3), -2, SETTINGS).strength == 1
    assert heroes.add_strength(Hero(30, strength=3), -3, SETTINGS).strength == 1
    assert heroes.add_strength(Hero(30, strength=1), 2, SETTINGS).strength == 3


def test_damage_removes_armor_before_health_and_armor_has_no_cap():
    assert heroes.damage(Hero(30, armor=3), 2) == Hero(30, armor=1)
    assert heroes.damage(Hero(30, armor=3), 3) == Hero(30, armor=0)
    assert heroes.damage(Hero(30, armor=3), 5) == Hero(28, armor=0)
    assert heroes.add_armor(Hero(30, armor=90), 50).armor == 140


def test_attack_is_strength_plus_weapon_attack():
    assert Hero(30, strength=2, weapon=Weapon(3, 1)).attack == 5
    assert Hero(30, strength=2).attack == 2


def test_a_weapon_strike_spends_1_durability_and_a_spent_weapon_is_no_weapon():
    after, dealt = heroes.strike(Hero(30, strength=1, weapon=Weapon(2, 2)))
    assert dealt == 3 and after.weapon == Weapon(2, 1)
    after, dealt = heroes.strike(after)
    assert dealt == 3 and after.weapon is None
    after, dealt = heroes.strike(after)
    assert dealt == 1 and after.weapon is None


def test_a_strike_with_no_weapon_changes_nothing():
    plain = Hero(30, strength=2)
    assert heroes.strike(plain) == (plain, 2)


def test_a_weapon_with_0_attack_or_0_durability_is_no_weapon():
    assert heroes.equip(Hero(30), 0, 3).weapon is None
    assert heroes.equip(Hero(30), 3, 0).weapon is None
    assert heroes.equip(Hero(30), 1, 1).weapon == Weapon(1, 1)


def test_the_anvil_adds_to_a_weapon_already_held_and_does_nothing_without_one():
    armed = Hero(30, weapon=Weapon(2, 1))
    assert heroes.upgrade(armed, 1, 2).weapon == Weapon(3, 3)
    assert heroes.upgrade(Hero(30), 1, 2).weapon is None


def test_a_new_weapon_replaces_the_one_held():
    assert heroes.equip(Hero(30, weapon=Weapon(5, 5)), 1, 2).weapon == Weapon(1, 2)
