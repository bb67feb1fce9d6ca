"""One test per effect type on its own (docs/card-catalogue.md "Effect types").

Each builds a match with ``prepare_battle`` from small custom Creatures: the
player's Creature 0 carries the move under test and the player moves first.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.quest import Action, IllegalAction, Phase, RefusalCode, legal_actions
from games.quest.statuses import ActiveReflect, Statuses
from tests.unit.games.quest.support import (
    CPU,
    PLAYER,
    act,
    active,
    creature,
    dmg,
    move,
    of_type,
    pass_turn,
    power_card,
    prepare_battle,
    set_active,
)


def battle_with(*effects: dict, cost: int = 0, **player_stats: object):
    """Player's Creature 0 has move 0 = the effects under test, move 1 = 10 damage."""
    me = creature(
        "Tester",
        moves=[move("Under test", cost=cost, effects=list(effects)), move("Poke")],
        **player_stats,
    )
    return prepare_battle(player=[me])


def test_damage_takes_hp_from_the_opposing_active_creature():
    state = battle_with(dmg(12), cost=2)
    state, events = act(state, Action.use_move(0))
    assert active(state, CPU).hp == 88
    assert active(state, PLAYER).power == 8  # the cost was paid
    assert of_type(events, "damage")[0]["amount"] == 12
    assert state.turn is CPU and state.turn_number == 2


def test_heal_gives_hp_back_up_to_max_hp():
    state = set_active(battle_with({"type": "heal", "amount": 20}), PLAYER, hp=50)
    after, events = act(state, Action.use_move(0))
    assert active(after, PLAYER).hp == 70
    state = set_active(state, PLAYER, hp=95)
    after, events = act(state, Action.use_move(0))
    assert active(after, PLAYER).hp == 100  # the 15 above max HP are lost
    assert of_type(events, "healed")[0]["amount"] == 5


def test_power_change_moves_the_targets_power_within_its_range():
    state = battle_with(
        {"type": "power_change", "amount": -3, "target": "opponent"},
        {"type": "power_change", "amount": 3, "target": "self"},
        cost=4,
    )
    state, _ = act(state, Action.use_move(0))
    assert active(state, CPU).power == 7
    assert active(state, PLAYER).power == 10 - 4 + 3
    drained = battle_with({"type": "power_change", "amount": -50, "target": "opponent"})
    drained, _ = act(drained, Action.use_move(0))
    assert active(drained, CPU).power == 0  # never below zero


def test_damage_modifier_with_turns_lasts_the_creatures_next_own_turns():
    modifier = {
        "type": "damage_modifier",
        "target": "self",
        "applies_to": "dealt",
        "multiplier": 2,
        "turns": 1,
    }
    state = battle_with(modifier)
    state, _ = act(state, Action.use_move(0))  # turn 1: placed, turn 1 is not counted
    state = pass_turn(state)  # turn 2 (CPU)
    state, events = act(state, Action.use_move(1))  # turn 3: still active, then expires
    assert of_type(events, "damage")[0]["amount"] == 20
    assert of_type(events, "effect_ended")[0]["effect"] == "damage_modifier"
    assert active(state, PLAYER).statuses.modifiers == ()
    state = pass_turn(state)
    state, events = act(state, Action.use_move(1))
    assert of_type(events, "damage")[0]["amount"] == 10


def test_damage_modifier_with_charges_is_spent_by_damaging_actions_not_by_time():
    modifier = {
        "type": "damage_modifier",
        "target": "opponent",
        "applies_to": "taken",
        "multiplier": 1.5,
        "charges": 1,
    }
    state = battle_with(modifier)
    state, _ = act(state, Action.use_move(0))
    for _ in range(5):  # charges do not expire with time
        state = pass_turn(state)
    assert len(active(state, CPU).statuses.modifiers) == 1
    state, events = act(state, Action.use_move(1))
    assert of_type(events, "damage")[0]["amount"] == 15
    assert active(state, CPU).statuses.modifiers == ()
    state = pass_turn(state)
    state, events = act(state, Action.use_move(1))
    assert of_type(events, "damage")[0]["amount"] == 10


def test_poison_takes_hp_at_the_end_of_each_of_the_poisoned_creatures_turns():
    state = battle_with({"type": "poison", "amount": 5, "turns": 2})
    state, _ = act(state, Action.use_move(0))
    assert active(state, CPU).hp == 100  # nothing yet: poison ticks at its own turn's end
    state = pass_turn(state)  # CPU turn 2
    assert active(state, CPU).hp == 95
    state = pass_turn(state)  # player turn 3: not the poisoned Creature's turn
    assert active(state, CPU).hp == 95
    state = pass_turn(state)  # CPU turn 4: last tick
    assert active(state, CPU).hp == 90
    assert active(state, CPU).statuses.poison is None
    state = pass_turn(pass_turn(state))
    assert active(state, CPU).hp == 90


def test_a_new_poison_replaces_the_old_one():
    me = creature(
        "Tester",
        moves=[
            move("Weak", effects=[{"type": "poison", "amount": 2, "turns": 5}]),
            move("Strong", effects=[{"type": "poison", "amount": 7, "turns": 1}]),
        ],
    )
    state = prepare_battle(player=[me])
    state, _ = act(state, Action.use_move(0))
    state = pass_turn(state)
    state, _ = act(state, Action.use_move(1))
    poison = active(state, CPU).statuses.poison
    assert poison is not None and (poison.amount, poison.turns) == (7, 1)


def test_stun_prevents_the_stunned_creatures_moves_for_its_next_turns():
    state = battle_with({"type": "stun", "turns": 1})
    state, _ = act(state, Action.use_move(0))
    assert state.turn is CPU
    kinds = {a.kind for a in legal_actions(state, CPU)}
    assert "use_move" not in kinds and "play_power_card" in kinds and "swap" in kinds
    with pytest.raises(IllegalAction) as refused:
        act(state, Action.use_move(0))
    assert refused.value.code == RefusalCode.STUNNED
    state = pass_turn(state)  # the stunned turn ends; the 1-turn stun is over
    assert active(state, CPU).statuses.stun is None
    state = pass_turn(state)
    assert Action.use_move(0) in legal_actions(state, CPU)


def test_a_new_stun_keeps_the_larger_remaining_turns():
    me = creature(
        "Tester",
        moves=[
            move("Long", effects=[{"type": "stun", "turns": 2}]),
            move("Short", effects=[{"type": "stun", "turns": 1}]),
        ],
    )
    state = prepare_battle(player=[me])
    state, _ = act(state, Action.use_move(0))
    state = pass_turn(state)  # CPU stunned turn 1 of 2
    state, _ = act(state, Action.use_move(1))
    stun = active(state, CPU).statuses.stun
    assert stun is not None and stun.turns == 1


def test_dodge_makes_the_next_damaging_action_of_the_opponent_deal_nothing():
    state = battle_with({"type": "dodge", "charges": 1}, cost=1)
    state, _ = act(state, Action.use_move(0))
    state, events = act(state, Action.use_move(0))  # CPU's Poke
    assert active(state, PLAYER).hp == 100
    assert of_type(events, "dodged") and of_type(events, "damage")[0]["dodged"] is True
    assert active(state, PLAYER).statuses.dodge == 0
    state = pass_turn(state)
    state, _ = act(state, Action.use_move(0))
    assert active(state, PLAYER).hp == 90


def test_dodge_charges_add_up_to_three_at_most():
    state = battle_with({"type": "dodge", "charges": 2})
    state, _ = act(state, Action.use_move(0))
    state = pass_turn(state)
    state, _ = act(state, Action.use_move(0))
    assert active(state, PLAYER).statuses.dodge == 3


def test_reflect_sends_a_fraction_of_the_damage_taken_back_to_the_attacker():
    state = battle_with({"type": "reflect", "fraction": 0.3, "charges": 1})
    state, _ = act(state, Action.use_move(0))
    state, events = act(state, Action.use_move(0))  # CPU hits for 10
    assert active(state, PLAYER).hp == 90
    assert active(state, CPU).hp == 97  # floor(0.3 x 10)
    assert of_type(events, "reflected_damage")[0]["amount"] == 3
    assert active(state, PLAYER).statuses.reflect is None  # its one charge is used
    state = pass_turn(state)
    state, _ = act(state, Action.use_move(0))
    assert active(state, CPU).hp == 97


def test_lifesteal_heals_a_fraction_of_the_damage_this_action_dealt_before_it():
    state = set_active(battle_with(dmg(15), {"type": "lifesteal", "fraction": 0.5}), PLAYER, hp=50)
    state, events = act(state, Action.use_move(0))
    assert active(state, CPU).hp == 85
    assert active(state, PLAYER).hp == 57  # floor(0.5 x 15)
    assert of_type(events, "lifesteal")[0]["amount"] == 7


def test_lifesteal_authored_before_the_damage_heals_nothing():
    state = set_active(battle_with({"type": "lifesteal", "fraction": 1}, dmg(15)), PLAYER, hp=50)
    state, _ = act(state, Action.use_move(0))
    assert active(state, PLAYER).hp == 50


def test_power_restore_gives_power_back_up_to_max_power():
    state = set_active(battle_with({"type": "power_restore", "amount": 5}), PLAYER, power=2)
    after, _ = act(state, Action.use_move(0))
    assert active(after, PLAYER).power == 7
    after, _ = act(set_active(state, PLAYER, power=9), Action.use_move(0))
    assert active(after, PLAYER).power == 10


def test_power_restore_from_a_power_card_discards_the_card():
    card = power_card("Focus", [{"type": "power_restore", "amount": 4}])
    state = set_active(prepare_battle(player_cards=[card]), PLAYER, power=1)
    state, events = act(state, Action.play_power_card(0))
    assert active(state, PLAYER).power == 5
    assert state.player.discarded == (0,)
    assert of_type(events, "power_card_played")[0]["name"] == "Focus"
    state = pass_turn(state)
    assert Action.play_power_card(0) not in legal_actions(state, PLAYER)


def test_self_damage_costs_the_acting_creature_hp_and_is_not_reflected_or_dodged():
    state = battle_with({"type": "self_damage", "amount": 4})
    guarded = Statuses(dodge=1, reflect=ActiveReflect(Fraction(1), 1))
    state = set_active(state, CPU, statuses=guarded)
    state, events = act(state, Action.use_move(0))
    assert active(state, PLAYER).hp == 96
    assert of_type(events, "self_damage")[0]["amount"] == 4
    assert active(state, CPU).statuses == guarded  # not damage: nothing dodged or reflected


def test_self_damage_can_defeat_the_acting_creature():
    state = set_active(battle_with({"type": "self_damage", "amount": 50}), PLAYER, hp=20)
    state, events = act(state, Action.use_move(0))
    assert of_type(events, "creature_defeated")[0]["side"] == "player"
    assert state.phase is Phase.MANDATORY_REPLACEMENT
    assert state.selecting == (PLAYER,)


def test_hp_percentage_swap_exchanges_hp_shares_with_integer_arithmetic():
    state = prepare_battle(
        player=[creature("Tester", moves=[move(effects=[{"type": "hp_percentage_swap"}])])],
        cpu=[creature("Big", hp=80)],
    )
    state = set_active(set_active(state, PLAYER, hp=20), CPU, hp=60)
    state, events = act(state, Action.use_move(0))
    assert active(state, PLAYER).hp == 75  # floor(60 x 100 / 80)
    assert active(state, CPU).hp == 16  # floor(20 x 80 / 100)
    assert len(of_type(events, "hp_swapped")) == 2


def test_hp_percentage_swap_leaves_each_creature_at_least_one_hp():
    state = prepare_battle(
        player=[creature("Tester", hp=200, moves=[move(effects=[{"type": "hp_percentage_swap"}])])],
        cpu=[creature("Small", hp=50)],
    )
    state = set_active(state, PLAYER, hp=1)
    state, _ = act(state, Action.use_move(0))
    assert active(state, PLAYER).hp == 200
    assert active(state, CPU).hp == 1  # floor(1 x 50 / 200) = 0, raised to 1
