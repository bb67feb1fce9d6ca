"""The CPU policy and full CPU-against-CPU matches from the real seed cards.

Rulebook: the configured CPU deck is Quillip, Voltiki, Karrik, Field Kit and
Reserve Focus; the CPU randomly selects legal moves or Power cards, selects
Creatures when required, and never chooses voluntary swaps.
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest

from games.kit.refusal import Refusal
from games.quest import (
    Action,
    ActionKind,
    MatchState,
    Phase,
    apply,
    cpu_action,
    creature_from_definition,
    legal_actions,
    new_match,
    power_card_from_definition,
    replay,
)
from games.quest.state import SIDES
from tests.unit.games.quest.support import (
    CPU,
    PLAYER,
    T0,
    act,
    catalogue,
    catalogue_deck,
    creature,
    move,
    power_card,
    prepare_battle,
)

CPU_DECK = ("Quillip", "Voltiki", "Karrik", "Field Kit", "Reserve Focus")
MAX_TURNS = 300  # far above what the CPU deck can last (docs: no turn cap is needed)


def cpu_vs_cpu(seed: int) -> tuple[MatchState, list, Counter]:
    state = new_match(catalogue_deck(CPU_DECK), catalogue_deck(CPU_DECK), seed, T0)
    initial, log, kinds = state, [], Counter()
    now = T0
    while state.phase is not Phase.FINISHED:
        assert state.turn_number <= MAX_TURNS, "the match did not end"
        side = next(s for s in SIDES if cpu_action(state, s) is not None)
        action = cpu_action(state, side)
        assert action is not None
        now += timedelta(seconds=3)
        log.append((side, action, now))
        kinds[action.kind] += 1
        state, _ = apply(state, side, action, now)
    assert replay(initial, log) == state
    return state, log, kinds


@pytest.mark.parametrize("seed", range(25))
def test_cpu_against_cpu_with_the_cpu_deck_ends_with_one_winner(seed):
    state, _, kinds = cpu_vs_cpu(seed)
    assert state.winner in (PLAYER, CPU)
    assert state.turn_number <= MAX_TURNS
    assert kinds[ActionKind.SWAP] == 0 and kinds[ActionKind.FORFEIT] == 0


def test_the_cpu_plays_moves_and_power_cards_over_many_matches():
    total = Counter()
    for seed in range(25, 35):
        total += cpu_vs_cpu(seed)[2]
    assert total[ActionKind.USE_MOVE] > 0 and total[ActionKind.PLAY_POWER_CARD] > 0
    assert total[ActionKind.SELECT_CREATURE] >= 20  # two initial picks per match at least


def test_the_cpu_choice_depends_only_on_the_state():
    state = prepare_battle(first=CPU)
    assert cpu_action(state, CPU) == cpu_action(MatchState.from_dict(state.to_dict()), CPU)
    assert cpu_action(state, CPU) in legal_actions(state, CPU)


def test_the_cpu_has_nothing_to_do_when_it_is_not_its_turn():
    state = prepare_battle(first=PLAYER)
    assert cpu_action(state, CPU) is None


def test_the_cpu_chooses_uniformly_among_moves_and_power_cards():
    me = creature("Options", moves=[move("A"), move("B"), move("C")])
    counts = Counter()
    for seed in range(0, 2000, 4):
        state = prepare_battle(seed=seed, cpu=[me], first=CPU)
        action = cpu_action(state, CPU)
        assert action is not None
        counts[(action.kind, action.index)] += 1
    assert len(counts) == 5  # three moves, two Power cards, never a swap or a timeout
    for count in counts.values():  # 500 draws, 100 expected each; about 4 sigma either way
        assert 60 < count < 140, counts


def test_a_stunned_cpu_without_power_cards_lets_the_turn_go_instead_of_swapping():
    me = creature("Stunner", moves=[move(effects=[{"type": "stun", "turns": 1}])])
    state = prepare_battle(player=[me])
    state = state.with_side(CPU, state.cpu.replace(discarded=(0, 1)))
    state, _ = act(state, Action.use_move(0))
    assert [a.kind for a in legal_actions(state, CPU)] == ["swap", "swap", "timeout", "forfeit"]
    assert cpu_action(state, CPU) == Action.timeout()


def test_the_cpu_selects_a_living_creature_when_it_must():
    state = new_match(catalogue_deck(CPU_DECK), catalogue_deck(CPU_DECK), 5, T0)
    action = cpu_action(state, CPU)
    assert action is not None and action.kind is ActionKind.SELECT_CREATURE


def test_every_seed_card_becomes_a_match_snapshot_that_round_trips():
    for name, entry in catalogue().items():
        build = (
            creature_from_definition if entry["kind"] == "creature" else power_card_from_definition
        )
        card = build(f"id-{name}", entry["body"])
        assert type(card).from_dict(card.to_dict()) == card
        assert card.name == name


def test_a_card_with_an_effect_outside_the_vocabulary_is_refused():
    with pytest.raises(Refusal) as refused:
        power_card("Bad", [{"type": "teleport"}])
    assert refused.value.code == "unknown_effect"
    with pytest.raises(Refusal) as refused:
        power_card("Bad", [{"type": "damage", "amount": 0}])
    assert refused.value.details["path"] == "effects[0]"
