"""Resolving each pair (rulebook, "Resolve each pair", "Monsters", "Events", "Winning")."""

from games.chronovore.state import FinishReason, Interference, Phase, Weapon

from .support import A, B, event, hero, lock_both, monster, prepare, reward


def types(events):
    return [e["type"] for e in events]


def test_the_hero_strikes_first_and_hits_are_traded_until_the_monster_falls():
    # Strength 1 against 3 Health: the hero strikes 3 times, the monster twice (2 each).
    state, events = lock_both(prepare(a_row=(monster(2, 3),)))
    assert state.side(A).hero.health == 26
    fought = next(e for e in events if e["type"] == "monster_fought")
    assert fought["defeated"] and fought["seat"] == A


def test_a_monster_with_initiative_strikes_first():
    state, _ = lock_both(prepare(a_row=(monster(2, 3, initiative=True),)))
    assert state.side(A).hero.health == 24


def test_initiative_decides_a_close_fight():
    # Health 3 against a 2/2: hero 1 (monster at 1), monster 2 (hero at 1), hero 1: won.
    close = hero(health=3)
    without, _ = lock_both(prepare(a_row=(monster(2, 2),), a_hero=close))
    assert without.phase is Phase.CHOOSING and without.side(A).hero.health == 1
    with_initiative, _ = lock_both(prepare(a_row=(monster(2, 2, initiative=True),), a_hero=close))
    assert with_initiative.side(A).hero.fallen and with_initiative.results == ("loss", "win")


def test_a_defeated_monsters_rewards_are_claimed():
    state, _ = lock_both(prepare(a_row=(monster(0, 1, reward("coins", amount=3)),)))
    assert state.side(A).hero.coins == 3


def test_a_fallen_hero_ends_the_match_and_claims_nothing():
    deadly = monster(5, 10, reward("coins", amount=3))
    state, events = lock_both(prepare(a_row=(deadly,), a_hero=hero(health=5)))
    assert state.phase is Phase.FINISHED and state.finish_reason is FinishReason.HERO_FELL
    assert state.results == ("loss", "win") and state.side(A).hero.coins == 0
    assert "reward" not in types(events)


def test_armor_takes_a_monsters_hits_first():
    state, _ = lock_both(prepare(a_row=(monster(2, 3),), a_hero=hero(armor=3)))
    assert (state.side(A).hero.armor, state.side(A).hero.health) == (0, 29)


def test_a_weapon_spends_durability_in_a_fight():
    armed = hero(weapon=Weapon(2, 2))
    state, _ = lock_both(prepare(a_row=(monster(0, 7),), a_hero=armed))
    # 3 + 3 with the weapon, then 1: the weapon is gone after two strikes.
    assert state.side(A).hero.weapon is None


def test_an_event_resolves_when_the_hero_can_pay_exactly_its_cost():
    toll = event(3, reward("armor", amount=4))
    paid, events = lock_both(prepare(a_row=(toll,), a_hero=hero(coins=3)))
    assert (paid.side(A).hero.coins, paid.side(A).hero.armor) == (0, 4)
    assert {"type": "event_resolved", "seat": A, "slot": 0, "cost": 3, "paid": True} in events
    short, events = lock_both(prepare(a_row=(toll,), a_hero=hero(coins=2)))
    assert (short.side(A).hero.coins, short.side(A).hero.armor) == (2, 0)
    assert {"type": "event_resolved", "seat": A, "slot": 0, "cost": 3, "paid": False} in events


def test_an_event_of_cost_0_is_free():
    state, _ = lock_both(prepare(a_row=(event(0, reward("armor", amount=2)),)))
    assert state.side(A).hero.armor == 2


def test_an_empty_slot_resolves_as_nothing():
    state, events = lock_both(prepare(a_row=(None, monster(0, 1, reward("coins", amount=1)))))
    assert state.side(A).hero.coins == 1
    revealed = [e for e in events if e["type"] == "pair_revealed"]
    assert revealed[0]["cards"] == {A: None, B: None} and len(revealed) == 4


def test_pairs_resolve_left_to_right_so_coins_won_pay_for_a_later_event():
    coins = monster(0, 1, reward("coins", amount=2))
    toll = event(2, reward("armor", amount=5))
    forward, _ = lock_both(prepare(a_row=(coins, toll)))
    backward, _ = lock_both(prepare(a_row=(toll, coins)))
    assert forward.side(A).hero.armor == 5 and backward.side(A).hero.armor == 0


def test_each_hero_faces_their_own_card():
    state, _ = lock_both(
        prepare(a_row=(monster(3, 1),), b_row=(event(0, reward("coins", amount=4)),))
    )
    assert state.side(A).hero.health == 30 and state.side(B).hero.coins == 4


def test_both_heroes_falling_in_one_pair_is_a_draw():
    deadly = monster(9, 30)
    state, _ = lock_both(prepare(a_row=(deadly,), b_row=(deadly,), a_hero=hero(5), b_hero=hero(5)))
    assert state.results == ("draw", "draw")


def test_a_hero_falling_mid_round_leaves_the_later_pairs_unresolved_and_hidden():
    from games.chronovore.view import view

    deadly = monster(9, 30)
    secret = monster(0, 1, name="Secret")
    state, events = lock_both(prepare(a_row=(deadly,), b_row=(None, secret), a_hero=hero(3)))
    assert state.results == ("loss", "win")
    assert len([e for e in events if e["type"] == "pair_revealed"]) == 1
    assert "Secret" not in str(view(state, A)) and "Secret" not in str(state.revealed)


def test_the_duel_after_round_5_strike_for_strike():
    state, events = lock_both(
        prepare(round=5, a_hero=hero(10, strength=3), b_hero=hero(10, strength=2))
    )
    # A deals 3 an exchange, B 2: after 4 exchanges B is at -2 and A at 2.
    assert state.results == ("win", "loss") and state.finish_reason is FinishReason.DUEL
    assert {"type": "duel", "exchanges": 4} in events
    assert (state.side(A).hero.health, state.side(B).hero.health) == (2, -2)


def test_both_falling_on_the_same_exchange_of_the_duel_is_a_draw():
    # A at 4 deals 2, B at 3 deals 1: after exchange 2, A at 2 and B at -1.
    state, _ = lock_both(prepare(round=5, a_hero=hero(4, strength=2), b_hero=hero(3, strength=1)))
    assert state.results == ("win", "loss")
    even, _ = lock_both(prepare(round=5, a_hero=hero(4, strength=2), b_hero=hero(4, strength=2)))
    assert even.results == ("draw", "draw")


def test_weapons_are_used_in_the_duel_while_they_last_then_strength_hits():
    armed = hero(12, weapon=Weapon(4, 1))
    state, events = lock_both(prepare(round=5, a_hero=armed, b_hero=hero(7)))
    # A: 5 then 1, 1 (B at 0 after 3 exchanges); B hits 1 each: A at 9.
    assert state.side(A).hero.weapon is None and state.results == ("win", "loss")
    assert {"type": "duel", "exchanges": 3} in events


def test_health_decides_the_match_so_armor_counts_in_the_duel():
    state, _ = lock_both(prepare(round=5, a_hero=hero(5, armor=2), b_hero=hero(6)))
    assert state.results == ("win", "loss")


def test_interference_waits_on_the_seat_for_its_next_monster():
    harder = reward("next_enemy", attack=2, health=1)
    state, _ = lock_both(prepare(a_row=(monster(0, 1, harder),)))
    assert state.side(B).interference == Interference(monster_attack=2, monster_health=1)
    assert state.side(A).interference == Interference()
