"""Effects together: exact stacking and the single floor, dodge against
lifesteal, reflect and poison defeating Creatures, stun against Power cards,
and how swaps interact with the end-of-turn step and durations.
"""

from __future__ import annotations

import pytest

from games.quest import Action, IllegalAction, Phase, RefusalCode, legal_actions
from games.quest.state import MatchState, Side
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


def modifier(target: str, applies_to: str, multiplier: float, **duration: int) -> dict:
    return {
        "type": "damage_modifier",
        "target": target,
        "applies_to": applies_to,
        "multiplier": multiplier,
        **duration,
    }


def only_active(state: MatchState, side: Side) -> MatchState:
    """Test setup: every Creature of ``side`` but the active one is already defeated."""
    own = state.side(side)
    for index, creature_ in enumerate(own.creatures):
        if index != own.active:
            state = state.with_creature(side, index, creature_.replace(hp=0))
    return state


def test_modifiers_multiply_exactly_and_are_floored_once():
    me = creature(
        "Tester",
        moves=[
            move(
                effects=[
                    modifier("self", "dealt", 1.5, charges=1),
                    modifier("opponent", "taken", 0.8, turns=1),
                    dmg(10),
                ]
            )
        ],
    )
    state, events = act(prepare_battle(player=[me]), Action.use_move(0))
    assert of_type(events, "damage")[0]["amount"] == 12  # 10 x 1.5 x 0.8
    assert len(active(state, PLAYER).statuses.modifiers) == 0  # its one charge is spent
    assert len(active(state, CPU).statuses.modifiers) == 1  # the turns one stays


def test_damage_uses_exact_decimals_not_binary_floats():
    # In floats 100 * 0.29 is 28.999999999999996, which would floor to 28.
    me = creature(
        "Tester", moves=[move(effects=[modifier("self", "dealt", 0.29, charges=1), dmg(100)])]
    )
    _, events = act(prepare_battle(player=[me]), Action.use_move(0))
    assert of_type(events, "damage")[0]["amount"] == 29


def test_affinity_and_both_modifier_kinds_multiply_with_one_floor():
    # Wit against Grit is 1.5x (v2): 15 x 1.5 x 0.75 x 1.25 = 21.09375 -> 21.
    me = creature(
        "Tester",
        affinity="Wit",
        moves=[
            move(
                type="Wit",
                effects=[
                    modifier("self", "dealt", 0.75, charges=1),
                    modifier("opponent", "taken", 1.25, charges=1),
                    dmg(15),
                ],
            )
        ],
    )
    _, events = act(prepare_battle(player=[me], cpu=[creature("Rock", "Grit")]), Action.use_move(0))
    assert of_type(events, "damage")[0]["amount"] == 21


def test_a_zero_multiplier_deals_zero_damage_never_less():
    me = creature(
        "Tester", moves=[move(effects=[modifier("self", "dealt", 0, charges=1), dmg(30)])]
    )
    state, _ = act(prepare_battle(player=[me]), Action.use_move(0))
    assert active(state, CPU).hp == 100


def test_one_charge_per_action_however_many_damage_effects_it_has():
    me = creature(
        "Tester",
        moves=[
            move("Buff", effects=[modifier("self", "dealt", 2, charges=2)]),
            move("Double", effects=[dmg(10), dmg(10)]),
        ],
    )
    state, _ = act(prepare_battle(player=[me]), Action.use_move(0))
    state = pass_turn(state)
    state, events = act(state, Action.use_move(1))
    assert [e["amount"] for e in of_type(events, "damage")] == [20, 20]
    assert active(state, PLAYER).statuses.modifiers[0].charges == 1


def test_dodge_beats_lifesteal_and_spends_no_modifier_charge():
    me = creature(
        "Tester",
        moves=[
            move("Buff", effects=[modifier("self", "dealt", 2, charges=1)]),
            move(
                "Drain",
                effects=[
                    dmg(20),
                    {"type": "lifesteal", "fraction": 1},
                    {"type": "poison", "amount": 3, "turns": 1},
                ],
            ),
        ],
    )
    foe = creature("Dodger", moves=[move("Hide", effects=[{"type": "dodge", "charges": 1}])])
    state = set_active(prepare_battle(player=[me], cpu=[foe]), PLAYER, hp=50)
    state, _ = act(state, Action.use_move(0))
    state, _ = act(state, Action.use_move(0))  # CPU dodges
    state, events = act(state, Action.use_move(1))
    assert active(state, CPU).hp == 100
    assert active(state, PLAYER).hp == 50  # lifesteal of 0
    assert active(state, CPU).statuses.poison is not None  # the other effects still land
    assert len(active(state, PLAYER).statuses.modifiers) == 1  # not calculated, not spent
    assert of_type(events, "dodged")


def test_reflect_can_defeat_the_attacker():
    foe = creature(
        "Mirror", moves=[move("Ward", effects=[{"type": "reflect", "fraction": 1, "charges": 1}])]
    )
    me = creature("Glass", moves=[move(effects=[dmg(30)])])
    state = prepare_battle(player=[me], cpu=[foe], first=CPU)
    state, _ = act(state, Action.use_move(0))
    state = set_active(state, PLAYER, hp=20)
    state, events = act(state, Action.use_move(0))
    assert active(state, CPU).hp == 70
    assert of_type(events, "reflected_damage")[0]["amount"] == 20  # limited by HP left
    assert state.phase is Phase.MANDATORY_REPLACEMENT and state.selecting == (PLAYER,)
    assert state.player.active is None


def test_reflect_still_fires_when_the_hit_defeats_the_reflecting_creature():
    foe = creature(
        "Mirror", moves=[move("Ward", effects=[{"type": "reflect", "fraction": 0.5, "charges": 1}])]
    )
    me = creature("Hammer", moves=[move(effects=[dmg(200)])])
    state = prepare_battle(player=[me], cpu=[foe], first=CPU)
    state, _ = act(state, Action.use_move(0))
    state, events = act(state, Action.use_move(0))
    assert of_type(events, "damage")[0]["amount"] == 100  # damage actually dealt
    assert active(state, PLAYER).hp == 50
    assert state.cpu.creatures[0].statuses.reflect is None  # its effects end with it


def test_when_one_action_leaves_no_creature_on_either_side_the_acting_side_wins():
    me = creature(
        "Kamikaze", moves=[move(effects=[dmg(200), {"type": "self_damage", "amount": 200}])]
    )
    state = prepare_battle(player=[me])
    state = only_active(only_active(state, PLAYER), CPU)
    state, events = act(state, Action.use_move(0))
    assert state.phase is Phase.FINISHED and state.winner is PLAYER
    assert events[-1] == {"type": "match_finished", "winner": "player", "reason": "all_defeated"}


def test_reflect_defeating_the_last_attacker_gives_the_defender_the_match():
    foe = creature(
        "Mirror", moves=[move("Ward", effects=[{"type": "reflect", "fraction": 1, "charges": 1}])]
    )
    me = creature("Glass", moves=[move(effects=[dmg(10)])])
    state = prepare_battle(player=[me], cpu=[foe], first=CPU)
    state, _ = act(state, Action.use_move(0))
    state = only_active(set_active(state, PLAYER, hp=5), PLAYER)
    state, _ = act(state, Action.use_move(0))
    assert state.winner is CPU


def test_end_of_turn_poison_can_defeat_and_force_a_replacement():
    me = creature("Venom", moves=[move(effects=[{"type": "poison", "amount": 8, "turns": 3}])])
    state = prepare_battle(player=[me])
    state, _ = act(state, Action.use_move(0))
    state = set_active(state, CPU, hp=5)
    state, events = act(state, Action.use_move(0))  # the CPU hits, then poison ends it
    assert [e["type"] for e in events][-4:] == [
        "poison_damage",
        "creature_defeated",
        "turn_ended",
        "replacement_required",
    ]
    assert state.phase is Phase.MANDATORY_REPLACEMENT and state.selecting == (CPU,)
    assert state.turn is PLAYER  # the order continues: the CPU's turn just ended
    assert state.cpu.creatures[0].statuses.poison is None
    state, _ = act(state, Action.select_creature(2), CPU)
    assert state.phase is Phase.NORMAL_TURN and state.turn is PLAYER


def test_end_of_turn_poison_defeating_the_last_creature_ends_the_match():
    me = creature("Venom", moves=[move(effects=[{"type": "poison", "amount": 8, "turns": 3}])])
    state = prepare_battle(player=[me])
    state, _ = act(state, Action.use_move(0))
    state = only_active(set_active(state, CPU, hp=5), CPU)
    state = pass_turn(state)
    assert state.phase is Phase.FINISHED and state.winner is PLAYER


def test_stun_prevents_moves_but_not_power_cards():
    me = creature("Stunner", moves=[move(effects=[{"type": "stun", "turns": 1}])])
    kit = power_card("Kit", [{"type": "heal", "amount": 20}])
    state = prepare_battle(player=[me], cpu_cards=[kit])
    state, _ = act(state, Action.use_move(0))
    with pytest.raises(IllegalAction) as refused:
        act(state, Action.use_move(0))
    assert refused.value.code == RefusalCode.STUNNED
    state = set_active(state, CPU, hp=50)
    state, _ = act(state, Action.play_power_card(0))
    assert active(state, CPU).hp == 70


def test_swap_resolves_the_outgoing_creatures_end_of_turn_before_the_incoming_is_active():
    foe = creature("Venom", moves=[move(effects=[{"type": "poison", "amount": 6, "turns": 2}])])
    state = prepare_battle(cpu=[foe], first=CPU)
    state, _ = act(state, Action.use_move(0))  # the player's Creature 0 is poisoned
    state, events = act(state, Action.swap(1))
    order = [e["type"] for e in events]
    assert order.index("poison_damage") < order.index("swapped_in")
    assert of_type(events, "poison_damage")[0]["creature"] == 0
    assert state.player.creatures[0].hp == 94
    assert state.player.creatures[1].hp == 100 and state.player.active == 1
    assert state.player.creatures[0].statuses.poison.turns == 1  # kept on the bench
    state = pass_turn(pass_turn(state))  # the player's turn with Creature 1: no tick for 0
    assert state.player.creatures[0].hp == 94


def test_swap_can_send_out_a_creature_its_own_poison_defeats_without_a_replacement():
    foe = creature("Venom", moves=[move(effects=[{"type": "poison", "amount": 6, "turns": 2}])])
    state = prepare_battle(cpu=[foe], first=CPU)
    state, _ = act(state, Action.use_move(0))
    state = set_active(state, PLAYER, hp=6)
    state, _ = act(state, Action.swap(2))
    assert state.player.creatures[0].defeated
    assert state.phase is Phase.NORMAL_TURN and state.turn is CPU


def test_durations_count_only_the_creatures_own_turns_across_swaps():
    me = creature("Guard", moves=[move("Brace", effects=[modifier("self", "taken", 0.5, turns=2)])])
    state = prepare_battle(player=[me])
    state, _ = act(state, Action.use_move(0))  # turn 1: placed (not counted)
    state = pass_turn(state)  # turn 2, CPU
    state, _ = act(state, Action.swap(1))  # turn 3 belongs to Guard: counted, 1 left
    assert state.player.creatures[0].statuses.modifiers[0].turns == 1
    for _ in range(3):  # turns 4 (CPU), 5 (player, Creature 1), 6 (CPU)
        state = pass_turn(state)
    assert state.player.creatures[0].statuses.modifiers[0].turns == 1  # benched: untouched
    state, _ = act(state, Action.swap(0))  # turn 7 is still Creature 1's turn
    assert state.player.creatures[0].statuses.modifiers[0].turns == 1
    state, events = act(state, Action.use_move(0), CPU)  # turn 8: CPU hits the guard
    assert of_type(events, "damage")[0]["amount"] == 5
    state = pass_turn(state)  # turn 9: Guard's own turn, the last one
    assert state.player.creatures[0].statuses.modifiers == ()


def test_a_self_modifier_covers_the_opponents_next_turn():
    me = creature("Guard", moves=[move("Brace", effects=[modifier("self", "taken", 0.5, turns=1)])])
    state = prepare_battle(player=[me])
    state, _ = act(state, Action.use_move(0))
    state, events = act(state, Action.use_move(0))
    assert of_type(events, "damage")[0]["amount"] == 5


def test_an_opponent_modifier_covers_its_next_turn_and_ends_with_it():
    me = creature("Weakener", moves=[move(effects=[modifier("opponent", "dealt", 0.5, turns=1)])])
    state = prepare_battle(player=[me])
    state, _ = act(state, Action.use_move(0))
    state, events = act(state, Action.use_move(0))
    assert of_type(events, "damage")[0]["amount"] == 5
    assert active(state, CPU).statuses.modifiers == ()


def test_later_effects_aimed_at_a_defeated_creature_fizzle_the_others_resolve():
    me = creature(
        "Finisher",
        moves=[
            move(
                effects=[
                    dmg(200),
                    {"type": "poison", "amount": 5, "turns": 1},
                    {"type": "heal", "amount": 10},
                ]
            )
        ],
    )
    state = set_active(prepare_battle(player=[me]), PLAYER, hp=50)
    state, events = act(state, Action.use_move(0))
    assert of_type(events, "effect_fizzled") == [{"type": "effect_fizzled", "effect": "poison"}]
    assert active(state, PLAYER).hp == 60
    assert Action.select_creature(1) in legal_actions(state, CPU)
