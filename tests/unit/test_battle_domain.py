"""The battle service's pure parts: decks from the cards service, CPU replies, outcomes,
and views that never show the seed, the CPU's hand or its unrevealed choice."""

from __future__ import annotations

import json
import uuid
from dataclasses import replace
from datetime import timedelta

import pytest

from games.quest import Action, FinishReason, Phase, Side, new_match
from games.quest.cpu import CPU_DECK, CpuDeckNames
from services.battle import domain, views
from services.battle.domain import Match, Outcome, Status
from shared.errors import InvalidInput, ServiceUnavailable
from tests.unit.test_battle_support import STARTER, T0, FakeCards, seed_definitions


def decks():
    cards = FakeCards()
    player = domain.player_deck(cards.deck_for_match("p", str(uuid.uuid4()))["cards"])
    cpu = domain.cpu_deck(
        CPU_DECK,
        cards.active_definitions_named("quest", "creature", list(CPU_DECK.creatures)),
        cards.active_definitions_named("quest", "power_card", list(CPU_DECK.power_cards)),
    )
    return player, cpu


def a_match(state, **changes):
    match = Match(
        id=uuid.uuid4(),
        player_id=uuid.uuid4(),
        deck_id=uuid.uuid4(),
        deck_version=1,
        status=Status.ACTIVE,
        state=state,
        seed=state.random.seed,
        created_at=T0,
        updated_at=T0,
    )
    return replace(match, **changes)


def test_the_configured_cpu_deck_is_the_rulebooks():
    assert CPU_DECK.creatures == ("Quillip", "Voltiki", "Karrik")
    assert CPU_DECK.power_cards == ("Field Kit", "Reserve Focus")


def test_the_cpu_deck_follows_the_configured_order_whatever_order_cards_answers_in():
    _, cpu = decks()
    assert [c.name for c in cpu.creatures] == ["Quillip", "Voltiki", "Karrik"]
    assert [p.name for p in cpu.power_cards] == ["Field Kit", "Reserve Focus"]


def test_an_unplayable_duplicate_name_is_skipped_and_a_missing_card_is_unavailable():
    found = seed_definitions()
    broken = {**found["Quillip"], "id": str(uuid.uuid4()), "definition": {}}
    creatures = [broken, found["Quillip"], found["Voltiki"], found["Karrik"]]
    powers = [found["Field Kit"], found["Reserve Focus"]]
    deck = domain.cpu_deck(CPU_DECK, creatures, powers)
    assert deck.creatures[0].definition_id == found["Quillip"]["id"]
    with pytest.raises(ServiceUnavailable) as caught:
        names = CpuDeckNames(("Quillip", "Nobody", "Karrik"), CPU_DECK.power_cards)
        domain.cpu_deck(names, creatures, powers)
    assert caught.value.code == "cpu_deck_unavailable"


def test_a_deck_card_that_cannot_be_played_is_invalid_input():
    cards = FakeCards().deck_for_match("p", str(uuid.uuid4()))["cards"]
    cards[0] = {**cards[0], "definition": {"name": "Broken"}}
    with pytest.raises(InvalidInput) as caught:
        domain.player_deck(cards)
    assert caught.value.code == "deck_not_playable"
    with pytest.raises(InvalidInput):
        domain.player_deck(FakeCards(STARTER[:4]).deck_for_match("p", "d")["cards"])


def test_the_cpu_selects_at_once_and_then_waits_for_the_player():
    player, cpu = decks()
    state, steps = domain.cpu_replies(new_match(player, cpu, 11, T0), T0)
    assert [(s.side, s.action.kind, s.version) for s in steps] == [(Side.CPU, "select_creature", 1)]
    assert state.pending == (Side.PLAYER,)
    assert domain.cpu_replies(state, T0) == (state, [])


def test_catch_up_before_the_deadline_does_nothing_and_at_it_times_out_then_the_cpu_plays():
    player, cpu = decks()
    state, _ = domain.cpu_replies(new_match(player, cpu, 11, T0), T0)
    state, steps = domain.play(state, Side.PLAYER, Action.select_creature(0), T0)
    assert state.phase is Phase.NORMAL_TURN and state.turn is Side.PLAYER
    deadline = state.deadline
    assert deadline == T0 + timedelta(seconds=90)
    assert domain.catch_up(state, deadline - timedelta(microseconds=1)) == (state, [])
    later, steps = domain.catch_up(state, deadline)
    assert next((s.side, s.action.kind) for s in steps) == (Side.PLAYER, "timeout")
    assert steps[1].side is Side.CPU
    assert later.turn is Side.PLAYER or later.phase is not Phase.NORMAL_TURN


def test_outcomes_from_the_players_side():
    player, cpu = decks()
    state = new_match(player, cpu, 1, T0)
    assert domain.outcome_of(state) is None
    done = replace(state, phase=Phase.FINISHED)
    cases = [
        (Side.PLAYER, FinishReason.ALL_DEFEATED, Outcome.VICTORY),
        (Side.CPU, FinishReason.ALL_DEFEATED, Outcome.DEFEAT),
        (Side.CPU, FinishReason.FORFEIT, Outcome.FORFEIT),
    ]
    for winner, reason, outcome in cases:
        assert domain.outcome_of(replace(done, winner=winner, finish_reason=reason)) is outcome


def test_a_malformed_action_is_invalid_input():
    with pytest.raises(InvalidInput) as caught:
        domain.parse_action({"kind": "swap"})
    assert caught.value.code == "invalid_action"
    assert domain.parse_action({"kind": "swap", "index": 2}) == Action.swap(2)


def test_the_view_shows_neither_the_seed_nor_the_cpus_hand_bench_or_hidden_choice():
    player, cpu = decks()
    seed = 987654321987
    state, _ = domain.cpu_replies(new_match(player, cpu, seed, T0), T0)
    view = views.player_view(a_match(state))
    shown = json.dumps(view)
    assert str(seed) not in shown and '"random"' not in shown
    assert view["opponent"]["active"] is None and view["opponent"]["has_chosen"] is True
    assert "Voltiki" not in shown and "Karrik" not in shown  # not in the player's deck
    assert set(view["opponent"]) == {
        "active",
        "must_select",
        "has_chosen",
        "creatures_left",
        "creatures_defeated",
        "power_cards_in_hand",
        "played_power_cards",
    }
    state, _ = domain.play(state, Side.PLAYER, Action.select_creature(0), T0)
    view = views.player_view(a_match(state))
    active = view["opponent"]["active"]["name"]
    for name in {"Voltiki", "Karrik"} - {active}:  # the CPU's bench stays hidden
        assert name not in json.dumps(view)
    assert (
        view["opponent"]["power_cards_in_hand"] + len(view["opponent"]["played_power_cards"]) == 2
    )


def test_history_hides_the_cpus_selection_until_it_is_revealed():
    player, cpu = decks()
    state, steps = domain.cpu_replies(new_match(player, cpu, 5, T0), T0)
    match = a_match(state)
    [entry] = views.history_view(match, steps)["entries"]
    assert entry["action"] == {"kind": "select_creature"}
    assert entry["events"] == [
        {"type": "creature_chosen", "side": "cpu", "phase": "initial_selection"}
    ]
    state, more = domain.play(state, Side.PLAYER, Action.select_creature(1), T0)
    entries = views.history_view(a_match(state), steps + more)["entries"]
    assert entries[0]["action"] == steps[0].action.to_dict()  # revealed by the player's pick
    assert [e["seq"] for e in entries] == list(range(1, state.version + 1))
