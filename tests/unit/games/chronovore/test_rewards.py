"""One test per reward kind and keyword (rulebook, "Rewards and keywords")."""

from games.chronovore.state import Weapon
from games.chronovore.view import view, view_events

from .support import A, B, event, hero, lock_both, monster, prepare, reward

FREE = 0


def claim(*rewards, a_hero=None, b_row=(), a_hand=None, **kwargs):
    """A plays a free event with ``rewards`` in slot 0; the state and events after."""
    return lock_both(
        prepare(a_row=(event(FREE, *rewards),), a_hero=a_hero, b_row=b_row, a_hand=a_hand, **kwargs)
    )


def test_coins():
    state, _ = claim(reward("coins", amount=4))
    assert state.side(A).hero.coins == 4


def test_armor():
    state, _ = claim(reward("armor", amount=6), a_hero=hero(armor=40))
    assert state.side(A).hero.armor == 46


def test_health_up_to_30():
    state, _ = claim(reward("health", amount=5), a_hero=hero(27))
    assert state.side(A).hero.health == 30


def test_strength_and_a_price_in_strength_never_below_1():
    state, _ = claim(reward("strength", amount=2))
    assert state.side(A).hero.strength == 3
    state, _ = claim(reward("strength", amount=-3), a_hero=hero(strength=2))
    assert state.side(A).hero.strength == 1


def test_a_draw_takes_the_top_card_of_the_deck():
    before = prepare()
    top = before.side(A).deck[0]
    state, events = claim(reward("draw", amount=1))
    # The drawn card, then round 2's card at the start of the round.
    assert state.side(A).hand[-2] == top and len(state.side(A).deck) == 21
    drawn = [e for e in events if e["type"] == "card_drawn" and e["seat"] == A]
    assert drawn[0] == {"type": "card_drawn", "seat": A, "uid": top.uid, "card": top.card.to_dict()}


def test_a_card_drawn_past_12_is_discarded():
    full = tuple(monster(name=f"M{n}") for n in range(12))
    state, events = claim(reward("draw", amount=1), a_hand=full)
    assert len(state.side(A).hand) == 12
    burned = [e for e in events if e["type"] == "card_burned" and e["seat"] == A]
    assert len(burned) == 2  # the drawn card, and round 2's card
    assert state.side(A).discard[-2].card.name.startswith("Filler")


def test_a_weapon():
    state, _ = claim(reward("weapon", attack=2, durability=3))
    assert state.side(A).hero.weapon == Weapon(2, 3) and state.side(A).hero.attack == 3


def test_the_anvil_upgrades_a_weapon_already_held():
    state, _ = claim(reward("upgrade", attack=1, durability=2), a_hero=hero(weapon=Weapon(2, 1)))
    assert state.side(A).hero.weapon == Weapon(3, 3)
    state, _ = claim(reward("upgrade", attack=1, durability=2))
    assert state.side(A).hero.weapon is None


def test_strike_hits_the_enemy_hero_once_for_the_current_attack():
    state, events = claim(reward("strike"), a_hero=hero(strength=2, weapon=Weapon(3, 2)))
    assert state.side(B).hero.health == 25
    assert state.side(A).hero.weapon == Weapon(3, 1)
    assert {"type": "strike", "seat": A, "damage": 5} in events


def test_strike_uses_the_attack_after_the_cards_other_rewards():
    state, _ = claim(reward("strike"), reward("weapon", attack=2, durability=1))
    assert state.side(B).hero.health == 27 and state.side(A).hero.weapon is None


def test_strike_happens_only_after_the_card_paid_off():
    unpaid, _ = lock_both(prepare(a_row=(event(1, reward("strike")),)))
    assert unpaid.side(B).hero.health == 30
    lost, _ = lock_both(prepare(a_row=(monster(9, 30, reward("strike")),), a_hero=hero(3)))
    assert lost.side(B).hero.health == 30 and lost.results == ("loss", "win")


def test_strike_removes_armor_first_and_can_end_the_match():
    state, _ = claim(reward("strike"), a_hero=hero(strength=5), b_hero=hero(4, armor=1))
    assert state.side(B).hero.health == 0 and state.results == ("win", "loss")


def test_strikes_of_both_heroes_in_one_pair_land_together():
    strike = event(FREE, reward("strike"))
    state, _ = lock_both(
        prepare(
            a_row=(strike,), b_row=(strike,), a_hero=hero(2, strength=2), b_hero=hero(2, strength=3)
        )
    )
    assert state.results == ("draw", "draw")


def test_copy_the_card_in_the_opposing_slot_goes_to_the_hand():
    theirs = monster(4, 4, name="Their Ogre")
    state, events = claim(reward("copy_opposing"), b_row=(theirs,))
    copied = state.side(A).hand[-2]  # then round 2's card
    own = [c.uid for c in (*state.side(A).hand, *state.side(A).deck, *state.side(A).discard)]
    assert copied.card == theirs and own.count(copied.uid) == 1  # a card of A's own now
    assert "card_copied" in [e["type"] for e in events]


def test_copying_an_empty_slot_copies_nothing():
    before = prepare()
    state, events = claim(reward("copy_opposing"))
    assert len(state.side(A).hand) == len(before.side(A).hand) + 1  # round 2's card
    assert {"type": "nothing_to_copy", "seat": A} in events


def test_a_copy_past_the_hand_limit_is_discarded():
    full = tuple(monster(name=f"M{n}") for n in range(12))
    state, events = claim(reward("copy_opposing"), a_hand=full, b_row=(monster(name="Copied"),))
    assert len(state.side(A).hand) == 12 and state.side(A).discard[-2].card.name == "Copied"
    assert "copy_discarded" in [e["type"] for e in events]


def test_the_next_enemy_card_makes_their_next_monster_harder_in_a_later_pair():
    harder = event(FREE, reward("next_enemy", attack=3, health=2, initiative=True))
    # B's monster in the same pair is not "next"; the one in slot 1 is.
    state, events = lock_both(prepare(a_row=(harder,), b_row=(monster(0, 1), monster(0, 1))))
    fights = [e for e in events if e["type"] == "monster_fought" and e["seat"] == B]
    assert (fights[0]["attack"], fights[0]["health"], fights[0]["initiative"]) == (0, 1, False)
    assert (fights[1]["attack"], fights[1]["health"], fights[1]["initiative"]) == (3, 3, True)
    # Initiative: 3, then the hero's 1, three times over: the hero at 21 wins.
    assert state.side(B).hero.health == 21
    assert state.side(B).interference.monster_attack == 0


def test_the_next_enemy_card_raises_the_coins_cost_of_their_next_event():
    pricier = event(FREE, reward("next_enemy", cost=2))
    toll = event(1, reward("armor", amount=3))
    state, events = lock_both(prepare(a_row=(pricier,), b_row=(None, toll), b_hero=hero(coins=2)))
    assert {"type": "event_resolved", "seat": B, "slot": 1, "cost": 3, "paid": False} in events
    assert state.side(B).hero.coins == 2 and state.side(B).interference.event_cost == 0


def test_the_change_waits_for_that_later_card_across_rounds():
    harder = event(FREE, reward("next_enemy", attack=2))
    state, _ = lock_both(prepare(a_row=(harder,)))
    assert state.round == 2 and state.side(B).interference.monster_attack == 2
    their_monster = state.side(B).hand[0]
    from games.chronovore import engine
    from games.chronovore.actions import Action

    from .support import T0

    state, _ = engine.apply(state, B, Action.place(their_monster.uid, 0), T0)
    state, events = lock_both(state)
    fought = next(e for e in events if e["type"] == "monster_fought" and e["seat"] == B)
    assert fought["attack"] == their_monster.card.attack + 2
    assert state.side(B).interference.monster_attack == 0


def test_the_opponents_cards_stay_face_down_until_their_pair_resolves():
    state = prepare(b_row=(monster(name="Hidden One"),))
    from games.chronovore import engine
    from games.chronovore.actions import Action

    from .support import T0

    assert "Hidden One" not in str(view(state, A))
    assert "Hidden One" in str(view(state, B))
    state, events = engine.apply(state, B, Action.lock(), T0)
    assert view(state, A)["opponent"]["slots"] == ["face_down", None, None, None]
    assert "Hidden One" not in str(view(state, A)) + str(view_events(events, A))
    state, events = engine.apply(state, A, Action.lock(), T0)
    assert "Hidden One" in str(view(state, A)) and "Hidden One" in str(view_events(events, A))
